#!/usr/bin/env python3
"""Time to the first painted grid of a remote listing: runs `livegrid URL` in a private tmux server and polls
capture-pane every 20 ms. Prints when the first item names are on screen (placeholders from the listing),
when pairing finished (header without "scanning…") and when the first thumbnail replaced a placeholder.
usage: remote-first-paint.py LIVEGRID_BINARY URL EXPECTED_ITEMS [RUNS]"""
import os, re, subprocess, sys, tempfile, time

binary, url, expected = sys.argv[1], sys.argv[2], int(sys.argv[3])
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 3
sock = "livegrid-bench-%d" % os.getpid()

def tmux(*args):
    return subprocess.run(["tmux", "-L", sock, "-f", "/dev/null", *args], capture_output=True, text=True).stdout

for run in range(runs):
    home = tempfile.mkdtemp(prefix="livegrid-bench-home.")
    # EXTRA_ENV: more VAR=value words for livegrid (the sftp benchmark passes HOME and LIVEGRID_SSH_CONFIG).
    command = ("env -u SSH_AUTH_SOCK XDG_CACHE_HOME=%s/cache XDG_CONFIG_HOME=%s/config NETRC=/dev/null %s TERM=tmux-256color '%s' '%s'"
               % (home, home, os.environ.get("EXTRA_ENV", ""), binary, url))
    start = time.monotonic()
    tmux("new-session", "-d", "-s", "b", "-x", "160", "-y", "50", command)
    names = paired = picture = None
    while time.monotonic() - start < 60 and (names is None or paired is None or picture is None):
        screen = tmux("capture-pane", "-p", "-t", "b").split("\n")
        now = time.monotonic() - start
        header = screen[0] if screen else ""
        if names is None and re.search(r"IMG_\d+\.jpg", "\n".join(screen[1:-2])):
            names = now
        if paired is None and ("%d items" % expected) in header and "scanning" not in header:
            paired = now
        # A thumbnail: a run of chafa's block symbols inside the grid (placeholders are corner marks and
        # labels only; progress bars use full blocks and shades, which are left out).
        if picture is None and any(re.search(r"[\u2580-\u2587\u2589-\u2590\u2594-\u259F]{6,}", line)
                                   for line in screen[1:-2]):
            picture = now
        time.sleep(0.02)
    tmux("kill-server")
    subprocess.run(["rm", "-rf", home])
    fmt = lambda t: "%.2f s" % t if t is not None else "not seen"
    print("BENCH remote first paint run %d: names on screen %s, paired %s, first thumbnail %s"
          % (run + 1, fmt(names), fmt(paired), fmt(picture)))
