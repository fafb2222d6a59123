import Foundation
import TestSupport
import XCTest

/// A scripted "terminal" on a pty (python3's pty module), for what tmux cannot do: answer livegrid's start-up
/// probes late, split, twice or never (issue 31), or vanish under it without a SIGHUP (issue 32.1). The script
/// runs the program in a new session on the pty's slave side, reads everything it writes (so it never blocks),
/// and writes a JSON report: how the program ended, when, and the CPU time it used.
struct ScriptedPtyTerminal {
    struct Outcome: Decodable {
        /// The program ended by itself (false: it was still running at the deadline and was killed).
        var exited: Bool
        /// Its exit status, or minus the signal that ended it.
        var status: Int
        /// Seconds from the last thing the terminal did (`q`, or closing the pty) to the program's end.
        var secondsToExit: Double
        /// User + system CPU seconds of the program, its whole life.
        var cpuSeconds: Double
        /// A query of the start-up probe (DA1 or the kitty graphics query) was seen in its output.
        var probeSeen: Bool
        /// The end of what it wrote, for messages.
        var outputTail: String
        /// A sixel picture (`ESC P ... q`) was in what it wrote.
        var sixelSeen: Bool?
        /// How many bytes ≥ 0x80 it wrote (in a non-UTF-8 locale: none).
        var highBytes: Int?
        /// `waitFor` was in what it wrote, colour changes (SGR) left out (nil: nothing was waited for).
        var waitedForSeen: Bool?
        /// The raster size (`"1;1;W;H`) of every sixel picture it wrote, [width, height], in order.
        var sixelSizes: [[Int]]?
        /// slowLink: every sixel picture it wrote, in order: its bytes, when its last byte was read from the pty
        /// and when the link delivered it to the "terminal" (seconds on the script's clock).
        var sixelDeliveries: [SixelDelivery]?
        /// When `type` was typed (the script's clock), nil when nothing was.
        var typedAt: Double?
        /// slowLink: when the link delivered the end of the first `answer` written after `type` (nil: never).
        var answerDelivered: Double?

        struct SixelDelivery: Decodable {
            var bytes: Int
            var written: Double
            var delivered: Double
        }

        enum CodingKeys: String, CodingKey {
            case exited, status, secondsToExit = "seconds_to_exit", cpuSeconds = "cpu_seconds",
                 probeSeen = "probe_seen", outputTail = "output_tail", sixelSeen = "sixel_seen",
                 highBytes = "high_bytes", waitedForSeen = "wait_for_seen", sixelSizes = "sixel_sizes",
                 sixelDeliveries = "sixel_deliveries", typedAt = "typed_at", answerDelivered = "answer_delivered"
        }
    }

    enum Mode: String {
        /// Every reply in one write, `delay` seconds after the probe.
        case late
        /// The replies late, each cut into pieces written 0.15 s apart (longer than the Escape timeout).
        case split
        /// The replies at once (but the kitty keyboard one, as xterm answers), and all again `delay` s later.
        case twice
        /// No reply at all.
        case never
        /// No reply; once the program drew (and `minimumOutput` bytes came), the pty's master is closed.
        case vanish
        /// Each query as it comes, as xterm with sixel (`-ti vt340`) answers: cell and window size, DA1 with
        /// attribute 4, the cursor position, XTGETTCAP (RGB when `answersTruecolor`), XTSMGRAPHICS's sixel geometry when
        /// `maxSixelSize` is given; nothing to the kitty queries (issue 31.6).
        case xterm
        /// As `xterm`, on a slow link: bytes reach the "terminal" at `linkRate` bytes a second (a read arrives
        /// when the bytes before it have), and a cursor position query (DSR 6) is answered 25 ms after the link
        /// delivered it (issue 28.4's round trip).
        case slowLink = "slowlink"
    }

    static func requirePython() throws -> String {
        try MissingRequirement.path(of: "python3", for: "the scripted pty terminal tests need it")
    }

    /// Runs `arguments` (the program first) on a pty with `term`; returns the script's report.
    /// `controlling`: the pty is the program's controlling terminal (a real terminal's case); the vanished
    /// terminal of issue 32.1 is one that is not.
    /// `waitFor`: text the program must have written before the terminal goes on; `type`: typed then.
    /// `blockHangup`: SIGHUP is blocked in the program (a session that outlives its terminal).
    /// `untilSixelOver`: after typing, wait (up to 20 s) for a sixel picture wider or taller than this many
    /// pixels (the viewer's picture: its full-size decode can be quiet for longer than the settling half second).
    /// `typeAfterSixels`: `type` waits for this many sixel pictures too. `answer`: text the program writes in
    /// answer to `type` (slowLink: when the link delivered it is reported).
    static func run(_ arguments: [String], mode: Mode, term: String, delay: Double = 0.9, controlling: Bool = true,
                    minimumOutput: Int = 1, waitFor: String = "", type: String = "", blockHangup: Bool = false,
                    answersTruecolor: Bool = false, linkRate: Double = 0, maxSixelSize: (width: Int, height: Int)? = nil,
                    untilSixelOver: Int = 0, typeAfterSixels: Int = 0, answer: String = "",
                    environment: [String: String] = [:], in directory: URL) throws -> Outcome {
        let python = try requirePython()
        let script = directory.appendingPathComponent("pty-terminal.py")
        try source.write(to: script, atomically: true, encoding: .utf8)
        let report = directory.appendingPathComponent("pty-report-\(UUID().uuidString.prefix(8)).json")
        var environmentArguments: [String] = []
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) { environmentArguments += ["--env", "\(name)=\(value)"] }
        let scriptArguments = [script.path, "--mode", mode.rawValue, "--term", term, "--delay", String(delay),
                               "--controlling", controlling ? "1" : "0", "--min-output", String(minimumOutput),
                               "--result", report.path, "--wait-for", waitFor, "--type", type,
                               "--block-hup", blockHangup ? "1" : "0", "--tcap-rgb", answersTruecolor ? "1" : "0",
                               "--link-rate", String(linkRate), "--until-sixel-over", String(untilSixelOver),
                               "--type-after-sixels", String(typeAfterSixels), "--answer", answer,
                               "--sixel-max", maxSixelSize.map { "\($0.width);\($0.height)" } ?? ""] + environmentArguments + ["--"] + arguments
        let result = try ToolRunner.run(python, scriptArguments)
        guard let data = FileManager.default.contents(atPath: report.path) else {
            throw MissingRequirement.Failure(description: "the pty script wrote no report: \(result.output.suffix(2000))")
        }
        return try JSONDecoder().decode(Outcome.self, from: data)
    }

    private static let source = #"""
import argparse, fcntl, json, os, re, select, signal, struct, sys, termios, time

p = argparse.ArgumentParser()
p.add_argument('--mode', required=True)
p.add_argument('--term', required=True)
p.add_argument('--delay', type=float, default=0.9)
p.add_argument('--controlling', type=int, default=1)
p.add_argument('--min-output', type=int, default=1)
p.add_argument('--result', required=True)
p.add_argument('--env', action='append', default=[])
p.add_argument('--wait-for', default='')
p.add_argument('--type', default='')
p.add_argument('--block-hup', type=int, default=0)
p.add_argument('--tcap-rgb', type=int, default=0)
p.add_argument('--link-rate', type=float, default=0)
p.add_argument('--sixel-max', default='')
p.add_argument('--until-sixel-over', type=int, default=0)
p.add_argument('--type-after-sixels', type=int, default=0)
p.add_argument('--answer', default='')
p.add_argument('argv', nargs=argparse.REMAINDER)
a = p.parse_args()
argv = a.argv[1:] if a.argv and a.argv[0] == '--' else a.argv

# What a terminal answers to livegrid's probe (kitty graphics, CSI 16 t, CSI 14 t, CSI ? u, DA1), and three
# replies to queries of other programs (DECRQSS, XTGETTCAP, an OSC colour) that a terminal may still send.
REPLIES = [b'\x1b_Gi=31;OK\x1b\\', b'\x1b[6;20;10t', b'\x1b[4;800;1200t', b'\x1b[?0u', b'\x1b[?62;4;22c',
           b'\x1bP1$r0m\x1b\\', b'\x1bP1+r524742=382F382F38\x1b\\', b'\x1b]11;rgb:0000/0000/0000\x1b\\']
# Where each reply is cut in split mode: after its ESC, in the middle, before its last byte.
CUTS = [[1, 6], [4], [7], [3], [1, 5], [8, 12], [2, 20], [5, 24]]

master, slave = os.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack('HHHH', 40, 120, 0, 0))
pid = os.fork()
if pid == 0:
    os.setsid()
    if a.controlling:
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    for fd in (0, 1, 2):
        os.dup2(slave, fd)
    os.close(master)
    os.close(slave)
    if a.block_hup:
        # A session that outlives its terminal (a wrapper that keeps it): the hang-up's SIGHUP never lands.
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGHUP])
    env = {k: v for k, v in os.environ.items()
           if k not in ('TMUX', 'TMUX_PANE', 'TERM_PROGRAM', 'KITTY_WINDOW_ID', 'COLORTERM', 'SSH_AUTH_SOCK')}
    env['TERM'] = a.term
    for item in a.env:
        name, _, value = item.partition('=')
        env[name] = value
    os.execve(argv[0], argv, env)
os.close(slave)

output = bytearray()
probe_at = None
closed = False

def pump(timeout):
    """Reads what the program writes for up to `timeout` s: the bytes, b'' for none, None once the pty is closed."""
    global probe_at, closed
    if closed:
        return None
    if a.mode == 'slowlink':
        send_due_answers()
        if answers:
            timeout = min(timeout, max(0.0, answers[0][0] - time.monotonic()))
    r, _, _ = select.select([master], [], [], max(0.0, timeout))
    if not r:
        if a.mode == 'slowlink':
            send_due_answers()
        return b''
    try:
        data = os.read(master, 65536)
    except OSError:
        closed = True
        return None
    if not data:
        closed = True
        return None
    output.extend(data)
    if a.mode == 'slowlink':
        link_deliver(len(data))
        deliveries.append((len(output), time.monotonic(), link_free))
    if a.mode in ('xterm', 'slowlink'):
        answer_queries()
    if probe_at is None and (b'\x1b[c' in output or b'\x1b_Gi=31' in output):
        probe_at = time.monotonic()
    return data

scan_from = 0
link_free = 0.0
answers = []   # (due, bytes) of the slow link's DSR answers, in order
deliveries = []   # slowlink: (output length, read at, delivered by) after each read

def link_deliver(count):
    """slowlink mode: the bytes just read reach the terminal once the link has carried them."""
    global link_free
    link_free = max(link_free, time.monotonic()) + count / a.link_rate

def send_due_answers():
    while answers and answers[0][0] <= time.monotonic():
        send(answers.pop(0)[1])

def answer_queries():
    """xterm mode: answers each query as xterm with sixel does, in order; XTGETTCAP RGB too with --tcap-rgb."""
    global scan_from
    queries = [(b'\x1b[16t', b'\x1b[6;20;10t'), (b'\x1b[14t', b'\x1b[4;800;1200t'), (b'\x1b[c', b'\x1b[?62;4;22c'),
               (b'\x1bP+q524742', b'\x1bP1+r524742=382F382F38\x1b\\' if a.tcap_rgb else b'\x1bP0+r524742\x1b\\')]
    # The cursor position (DSR 6), which the link meter asks after a batch of pictures and waits for before
    # the next big one: xterm answers at once, the slow link later.
    queries.append((b'\x1b[6n', b'\x1b[1;1R'))
    if a.sixel_max:
        queries.append((b'\x1b[?2;1;0S', b'\x1b[?2;0;' + a.sixel_max.encode() + b'S'))
    while True:
        found = [(output.find(q, scan_from), q, r) for q, r in queries]
        found = [f for f in found if f[0] >= 0]
        if not found:
            scan_from = max(scan_from, len(output) - 16)   # read fast: a query is never searched for twice
            return
        at, query, reply = min(found)
        scan_from = at + len(query)
        if query == b'\x1b[6n' and a.mode == 'slowlink':
            answers.append((link_free + 0.025, reply))
        else:
            send(reply)

def run_for(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if pump(end - time.monotonic()) is None:
            return

def wait_quiet(quiet, limit):
    end = time.monotonic() + limit
    last = time.monotonic()
    while time.monotonic() < end:
        data = pump(min(0.05, end - time.monotonic()))
        if data is None:
            return
        if data:
            last = time.monotonic()
        elif time.monotonic() - last >= quiet:
            return

def send(data):
    try:
        os.write(master, data)
    except OSError:
        pass

started = time.monotonic()
# The probe is written first thing; a program that sends none (no tty answers expected) gets the replies anyway.
while probe_at is None and time.monotonic() - started < 3 and pump(0.05) is not None:
    pass
since = probe_at or time.monotonic()

if a.mode == 'twice':
    # At once as a terminal without the kitty keyboard protocol (xterm) answers, then all of them again late.
    send(b''.join(r for r in REPLIES if r != b'\x1b[?0u'))
if a.mode in ('late', 'twice', 'split'):
    run_for(max(0.0, since + a.delay - time.monotonic()))
    if a.mode == 'split':
        for reply, cuts in zip(REPLIES, CUTS):
            edges = [0] + [c for c in cuts if c < len(reply)] + [len(reply)]
            for start, end in zip(edges, edges[1:]):
                send(reply[start:end])
                run_for(0.15)
    else:
        send(b''.join(REPLIES))

# Let it draw: the minimum output (and the text waited for), then quiet (a movie playing is never quiet: at
# most a second more); then type what there is to type.
end = time.monotonic() + 20
SIXEL = rb'\x1bP[0-9;]*q'
while (len(output) < a.min_output or a.wait_for.encode() not in output
       or len(re.findall(SIXEL, bytes(output))) < a.type_after_sixels) and time.monotonic() < end \
        and pump(0.05) is not None:
    pass
typed_at, typed_length = None, 0
if a.type:
    send(a.type.encode())
    typed_at, typed_length = time.monotonic(), len(output)
def sixel_deliveries():
    """slowlink: each sixel's bytes, when its last byte was read and when the link delivered that byte."""
    found = []
    for match in re.finditer(rb'\x1bP[0-9;]*q[^\x1b]*\x1b\\', bytes(output)):
        last = match.end() - 1
        for length, read_at, delivered in deliveries:
            if length > last:
                found.append({'bytes': match.end() - match.start(), 'written': read_at,
                              'delivered': delivered - (length - 1 - last) / a.link_rate})
                break
    return found

def answer_delivered():
    """slowlink: when the link delivered the end of the first `--answer` written after typing."""
    at = bytes(output).find(a.answer.encode(), typed_length) if a.answer and typed_at else -1
    if at < 0:
        return None
    last = at + len(a.answer.encode()) - 1
    for length, _, delivered in deliveries:
        if length > last:
            return delivered - (length - 1 - last) / a.link_rate
    return None

def sixel_sizes():
    return [(int(w), int(h)) for w, h in
            re.findall(rb'\x1bP[0-9;]*q"[0-9]+;[0-9]+;([0-9]+);([0-9]+)', bytes(output))]

if a.until_sixel_over:
    end = time.monotonic() + 20
    while time.monotonic() < end and not any(max(s) > a.until_sixel_over for s in sixel_sizes()):
        if pump(0.2) is None:
            break
wait_quiet(0.5, 1.0 if a.mode == 'vanish' else 8.0)

if a.mode == 'vanish':
    os.close(master)
    closed = True
else:
    send(b'q')
acted = time.monotonic()

status, rusage = None, None
deadline = acted + (5 if a.mode == 'vanish' else 20)
while time.monotonic() < deadline:
    if not closed:
        pump(0.02)
    else:
        time.sleep(0.02)
    got, code, usage = os.wait4(pid, os.WNOHANG)
    if got == pid:
        status, rusage = code, usage
        break
exited = status is not None
seconds = time.monotonic() - acted
if not exited:
    os.kill(pid, signal.SIGKILL)
    _, status, rusage = os.wait4(pid, 0)
code = os.waitstatus_to_exitcode(status)
with open(a.result, 'w') as f:
    json.dump({'exited': exited, 'status': code, 'seconds_to_exit': seconds,
               'cpu_seconds': rusage.ru_utime + rusage.ru_stime, 'probe_seen': probe_at is not None,
               'output_tail': output[-3000:].decode('utf-8', 'replace'),
               'sixel_seen': re.search(rb'\x1bP[0-9;]*q', bytes(output)) is not None,
               'high_bytes': sum(1 for b in output if b >= 0x80),
               'sixel_sizes': [list(size) for size in sixel_sizes()],
               'sixel_deliveries': sixel_deliveries() if a.mode == 'slowlink' else None, 'typed_at': typed_at,
               'answer_delivered': answer_delivered() if a.mode == 'slowlink' else None,
               'wait_for_seen': (a.wait_for.encode() in re.sub(rb'\x1b\[[0-9;:]*m', b'', bytes(output)))
                                 if a.wait_for else None}, f)
"""#
}
