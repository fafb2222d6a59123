#!/usr/bin/env python3
"""A recording stand-in for the terminal outside tmux: runs COMMAND on a pty of COLUMNS x ROWS cells whose
window size also gives pixels (10x20 px cells, as xterm -fa Monospace -fs 10 reports), appends every byte
the command writes to OUT, and answers the queries livegrid's probe sends (DA1 with sixel, `CSI 16 t`,
`CSI 14 t`) and those tmux sends (DA2, XTVERSION) as xterm -ti vt340 does. No screen is emulated: it only records and answers.

    fake-terminal.py OUT COLUMNS ROWS COMMAND...

Keys arriving on its own stdin are passed to COMMAND (so a tmux pane running it can type into it).
It answers the cursor position query (DSR 6, livegrid's link meter) at once: over `ssh -tt` the answer leaves
only once everything before the query came over the link. With FAKE_TERMINAL_TIMES=FILE it appends
"monotonic-seconds total-bytes" to FILE after each read (when the bytes reached the terminal).
"""
import fcntl
import os
import select
import signal
import struct
import sys
import termios
import time
import tty

CELL_W, CELL_H = 10, 20


def main():
    out_path, columns, rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    command = sys.argv[4:]
    pid, fd = os.forkpty()
    if pid == 0:
        os.execvp(command[0], command)
    size = struct.pack("HHHH", rows, columns, columns * CELL_W, rows * CELL_H)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, size)
    os.kill(pid, signal.SIGWINCH)
    replies = {
        b"\x1b[c": b"\x1b[?63;1;2;4;6;9;15;16;22;28c",
        # tmux asks these of its client when it attaches (and treats DA1 replies as its own until then).
        b"\x1b[>c": b"\x1b[>41;379;0c",
        b"\x1b[>q": b"\x1bP>|XTerm(379)\x1b\\",
        b"\x1b[16t": b"\x1b[6;%d;%dt" % (CELL_H, CELL_W),
        b"\x1b[14t": b"\x1b[4;%d;%dt" % (rows * CELL_H, columns * CELL_W),
        b"\x1b[6n": b"\x1b[1;1R",
    }
    times = open(os.environ["FAKE_TERMINAL_TIMES"], "a") if os.environ.get("FAKE_TERMINAL_TIMES") else None
    total = 0
    tail = b""
    # Keys typed into this process's own stdin (a tmux pane driving it) go to the command.
    inputs = [fd, 0]
    if os.isatty(0):
        tty.setraw(0)
    with open(out_path, "ab", buffering=0) as out:
        while True:
            try:
                ready, _, _ = select.select(inputs, [], [], 1.0)
            except InterruptedError:
                continue
            if not ready:
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    break
                continue
            if 0 in ready:
                keys = os.read(0, 4096)
                if keys:
                    os.write(fd, keys)
                else:
                    inputs = [fd]
                if fd not in ready:
                    continue
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            out.write(data)
            total += len(data)
            if times:
                times.write("%.6f %d\n" % (time.monotonic(), total))
            # Queries may straddle reads: look at the end of the last read too.
            window = tail + data
            for query, answer in replies.items():
                start = len(tail) - len(query) + 1
                index = window.find(query, max(0, start))
                while index != -1:
                    os.write(fd, answer)
                    index = window.find(query, index + len(query))
            tail = window[-8:]
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


if __name__ == "__main__":
    main()
