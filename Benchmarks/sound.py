#!/usr/bin/env python3
"""The sound targets of issue 29, measured against a real PulseAudio daemon with a null sink.

    Benchmarks/sound.py [BINARY]        (default .build/release/livegrid, else .build/debug/livegrid)

    SOUND_BENCH_HOLDS=N   browser holds measured (default 12)
    SOUND_BENCH_HOGS=N    busy loops running during the browser holds too (default 0; the underrun part
                          always runs once without and once with two)

A private daemon (its own HOME, runtime and state folders, a unix socket, as root without D-Bus) gets a null
sink; `pacat /dev/zero` keeps it running (its monitor gives nothing while idle), and `parec` records the monitor
through a pipe read here. Each read is stamped with time.monotonic() (CLOCK_MONOTONIC, the clock of livegrid's
LIVEGRID_TRACE), and sample k of the recording is placed at t0 + k/48000, t0 being the earliest (arrival time -
samples so far / 48000) over all reads: a sample's time is when the sink played it, give or take parec's 20 ms
fragments.

1. Press to sound: the browser in a tmux pane (key repeat holds, LIVEGRID_TRACE) on a library of one 4 s
   video whose sound is a tone from its first sample; from the trace's "key play press" to the first loud
   sample. Also `livegrid play` from the launch of the command (process start and library loading included).
2. A/V: `livegrid play` of a 3 s clip (30 fps) whose frames are white and sound a 1 kHz beep at 0.5, 1.5 and
   2.5 s (black and silent otherwise); its output is a pipe read here: the time the white frame's bytes were
   written against the captured beep's onset. AAC (as phones record) and LPCM.
3. Underruns: the daemon's debug log counts underruns of livegrid's stream ("underrun of 'Live Photo'"), for
   the 3 s clip played with two busy loops running (the machine has 2 cores) and without.
4. Release: the browser's "playback-stop" trace line (the hold ended) to the last loud sample.
For the press, the way to the first sound is broken down by the trace's stamps (press, playback-start,
sound-track-open, sound-first-chunk, sound-connected, sound-first-write): each stage's time from the press.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

RATE = 48000
LOUD = 300
WHITE = re.compile(rb"48;2;2[4-5]\d;2[4-5]\d;2[4-5]\d")

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = sys.argv[1] if len(sys.argv) > 1 else None
if not binary:
    for candidate in (".build/release/livegrid", ".build/debug/livegrid"):
        if os.access(os.path.join(here, candidate), os.X_OK):
            binary = os.path.join(here, candidate)
            break
if not binary or not os.access(binary, os.X_OK):
    sys.exit("build first: swift build -c release")
for tool in ("pulseaudio", "parec", "pacat", "pactl", "ffmpeg", "tmux"):
    if not shutil.which(tool):
        sys.exit(f"{tool} is not installed (make bench-deps)")

work = tempfile.mkdtemp(prefix="livegrid-sound-")


def wait_for(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.01)


class Daemon:
    """pulseaudio with a null sink `t`, a zero stream keeping it running, and parec read through a pipe."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="pa-", dir=work)
        for sub in ("run", "state"):
            os.makedirs(os.path.join(self.dir, sub))
        self.socket = os.path.join(self.dir, "native")
        self.env = dict(os.environ, HOME=self.dir, PULSE_RUNTIME_PATH=os.path.join(self.dir, "run"),
                        PULSE_STATE_PATH=os.path.join(self.dir, "state"), PULSE_SERVER="unix:" + self.socket)
        self.env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        self.log = open(os.path.join(self.dir, "log"), "w")
        self.daemon = subprocess.Popen(
            ["pulseaudio", "--daemonize=no", "--system=no", "--exit-idle-time=-1", "-n", "--disallow-exit",
             "--log-target=stderr", "--log-level=debug",
             f"--load=module-native-protocol-unix socket={self.socket} auth-anonymous=1",
             "--load=module-null-sink sink_name=t rate=48000"],
            env=self.env, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)
        wait_for(lambda: os.path.exists(self.socket) and subprocess.run(
            ["pactl", "info"], env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=5).returncode == 0,
            15, "pulseaudio")
        fmt = ["--raw", "--format=s16le", f"--rate={RATE}", "--channels=1", "--latency-msec=20"]
        self.keeper = subprocess.Popen(["pacat", "-d", "t"] + fmt + ["/dev/zero"], env=self.env,
                                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.parec = subprocess.Popen(["parec", "-d", "t.monitor"] + fmt, env=self.env, stdin=subprocess.DEVNULL,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.data = bytearray()
        self.offsets = []   # arrival - samples so far / RATE, per read
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        wait_for(lambda: len(self.data) > 0, 15, "parec")

    def _read(self):
        fd = self.parec.stdout.fileno()
        while True:
            chunk = os.read(fd, 4096)
            now = time.monotonic()
            if not chunk:
                return
            with self.lock:
                self.data += chunk
                self.offsets.append(now - (len(self.data) // 2) / RATE)

    def samples(self):
        with self.lock:
            data = bytes(self.data[: len(self.data) // 2 * 2])
            t0 = min(self.offsets)
        return memoryview(data).cast("h"), t0

    def mark(self):
        """The sample count so far: the start of the part of the recording a measurement looks at."""
        with self.lock:
            return len(self.data) // 2

    def underruns(self):
        self.log.flush()
        with open(os.path.join(self.dir, "log")) as f:
            return sum(1 for line in f if "underrun of 'Live Photo'" in line)

    def close(self):
        for p in (self.parec, self.keeper, self.daemon):
            p.kill()
            p.wait()
        self.log.close()


def loud_runs(samples, start, quiet=0.3):
    """(onset, end) sample indices of sounds after `start`, a sound ending at `quiet` s of silence."""
    runs, onset, last = [], None, None
    gap = int(quiet * RATE)
    for i in range(start, len(samples)):
        if abs(samples[i]) > LOUD:
            if onset is None or i - last > gap:
                if onset is not None:
                    runs.append((onset, last + 1))
                onset = i
            last = i
    if onset is not None:
        runs.append((onset, last + 1))
    return runs


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-v", "error", "-y"] + list(args), check=True)


def stats(values):
    values = sorted(values)
    if not values:
        return "no figure"
    mid = values[len(values) // 2] if len(values) % 2 else (values[len(values) // 2 - 1] + values[len(values) // 2]) / 2
    p90 = values[min(len(values) - 1, int(0.9 * len(values) + 0.5) - 1)]
    return f"median {mid:.0f} ms, p90 {p90:.0f}, min {values[0]:.0f}, max {values[-1]:.0f} over {len(values)}"


STAGES = ("playback-start", "sound-track-open", "sound-first-chunk", "sound-connected", "sound-first-write")


print(f"== sound (issue 29): {binary}; load {' '.join(open('/proc/loadavg').read().split()[:3])}")

# The clips.
tone = os.path.join(work, "library", "tone.mov")
os.makedirs(os.path.dirname(tone))
ffmpeg("-f", "lavfi", "-i", "color=c=gray:s=320x240:r=30:d=4", "-f", "lavfi", "-i", "sine=f=440:sample_rate=48000:d=4",
       "-af", "volume=4", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", "-shortest", tone)
beep_video = "color=c=black:s=160x120:r=30:d=3,drawbox=x=0:y=0:w=iw:h=ih:color=white:t=fill:enable='gte(t,0.5)*lt(mod(t+0.5,1),0.1)'"
beep_audio = "aevalsrc='gte(t,0.5)*lt(mod(t+0.5,1),0.1)*0.5*sin(2*PI*1000*t)':s=48000:d=3"
beeps = {}
for codec in ("aac", "pcm_s16le"):
    beeps[codec] = os.path.join(work, f"beep-{codec}.mov")
    ffmpeg("-f", "lavfi", "-i", beep_video, "-f", "lavfi", "-i", beep_audio, "-c:v", "libx264", "-pix_fmt", "yuv420p",
           "-c:a", codec, "-shortest", beeps[codec])

daemon = Daemon()
try:
    # 2 + 3: A/V and underruns with `livegrid play`, output read through a pipe.
    def play_and_watch(movie):
        start = daemon.mark()
        before = daemon.underruns()
        env = dict(daemon.env, COLORTERM="truecolor")
        launched = time.monotonic()
        p = subprocess.Popen([binary, "play", movie, "--size", "20x6", "--format", "symbols"], env=env,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        whites, was_white = [], False
        fd = p.stdout.fileno()
        while True:
            chunk = os.read(fd, 65536)
            now = time.monotonic()
            if not chunk:
                break
            # Each frame starts at the top-left cell; an unchanged frame is not written again. A white frame's
            # cells have a background of about 255;255;255 (255;253;255 after YUV).
            for segment in chunk.split(b"\x1b[1;1H")[1:]:
                white = WHITE.search(segment) is not None
                if white and not was_white:
                    whites.append(now)
                was_white = white
        err = p.stderr.read().decode(errors="replace")
        p.wait()
        time.sleep(0.3)   # the monitor's last fragments reach the pipe (a measurement tail, not a readiness wait)
        samples, t0 = daemon.samples()
        runs = loud_runs(samples, start)
        return launched, whites, [t0 + a / RATE for a, _ in runs], daemon.underruns() - before, err

    for codec, movie in beeps.items():
        offsets = []
        for _ in range(3):
            _, whites, onsets, _, err = play_and_watch(movie)
            if len(whites) != 3 or len(onsets) != 3:
                print(f"  {codec}: {len(whites)} white frames, {len(onsets)} beeps heard (expected 3 and 3): {err.strip()[:200]}")
                continue
            offsets += [(s - w) * 1000 for s, w in zip(onsets, whites)]
        if offsets:
            print(f"A/V {codec:9s}: sound onset - white frame written: " + " ".join(f"{o:+.0f}" for o in offsets)
                  + f" ms (target within +-40 ms; {sum(1 for o in offsets if abs(o) <= 40)}/{len(offsets)} within)")

    launches = []
    for _ in range(5):
        launched, _, onsets, _, _ = play_and_watch(tone)
        if onsets:
            launches.append((onsets[0] - launched) * 1000)
    print(f"livegrid play launch -> first sound ({os.path.basename(tone)}, process start included): {stats(launches)}")

    for loaded in (False, True):
        hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)] if loaded else []
        try:
            counts, dropped = [], []
            for _ in range(3):
                _, _, _, underruns, _ = play_and_watch(beeps["aac"])
                counts.append(underruns)
        finally:
            for h in hogs:
                h.kill()
                h.wait()
        print(f"underruns, 3 s clip, {'2 busy loops running' if loaded else 'no extra load'}: {counts} (target 0)")

    # 1 + 4: the browser in tmux, holds by key repeat.
    socket = f"livegrid-sound-{os.getpid()}"
    trace = os.path.join(work, "trace")

    def tmux(*args):
        return subprocess.run(["tmux", "-L", socket, "-f", "/dev/null"] + list(args), capture_output=True, text=True)

    env = " ".join(f"{k}='{v}'" for k, v in daemon.env.items() if k.startswith("PULSE") or k == "HOME")
    for d in ("cache", "config"):
        os.makedirs(os.path.join(work, d), exist_ok=True)
    tmux("new-session", "-d", "-s", "ui", "-x", "120", "-y", "40",
         f"env {env} LIVEGRID_TRACE='{trace}' XDG_CACHE_HOME='{work}/cache' XDG_CONFIG_HOME='{work}/config' "
         f"TERM=tmux-256color COLORTERM=truecolor '{binary}' --no-motion '{os.path.dirname(tone)}'")
    wait_for(lambda: os.path.exists(trace) and "scan-finished" in open(trace).read(), 30, "the browser's scan")
    presses, releases = [], []
    stages = {name: [] for name in STAGES}
    holds = int(os.environ.get("SOUND_BENCH_HOLDS", "12"))
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(int(os.environ.get("SOUND_BENCH_HOGS", "0")))]
    for hold in range(holds):
        start = daemon.mark()
        lines_before = len(open(trace).read().splitlines())
        for _ in range(12):   # a hold by key repeat: 12 presses 30 ms apart, then the repeat timeout ends it
            tmux("send-keys", "-t", "ui", "Space")
            time.sleep(0.03)
        wait_for(lambda: "playback-stop" in open(trace).read().split("\n", lines_before)[-1]
                 or "playback-end" in open(trace).read().split("\n", lines_before)[-1], 10, "the hold's end")
        time.sleep(0.5)   # the release's tail reaches the recorder (measurement, not readiness)
        lines = open(trace).read().splitlines()[lines_before:]
        press = next((float(l.split()[0]) for l in lines if "key play press" in l), None)
        # The last stop: under heavy load tmux's repeats can come later than the repeat timeout, which ends
        # the hold and lets the next repeat start another (seen at 16 busy loops); the sound must end at the last.
        stop = next((float(l.split()[0]) for l in reversed(lines) if "playback-stop" in l), None)
        samples, t0 = daemon.samples()
        runs = loud_runs(samples, start)
        if press is not None and runs:
            presses.append((t0 + runs[0][0] / RATE - press) * 1000)
            for name in STAGES:
                stamp = next((float(l.split()[0]) for l in lines if l.split()[1:2] == [name]), None)
                if stamp is not None:
                    stages[name].append((stamp - press) * 1000)
            prepared = any(l.split()[1:2] == ["sound-prepared"] for l in lines)
            print(f"  hold {hold + 1}: sound {presses[-1]:.0f} ms after the press{' (track prepared)' if prepared else ''}; "
                  + ", ".join(f"{name} {v[-1]:.0f}" for name, v in stages.items() if v) + f"; load {open('/proc/loadavg').read().split()[0]}")
        if stop is not None and runs:
            releases.append((t0 + runs[-1][1] / RATE - stop) * 1000)
            if releases[-1] > 100 or os.environ.get("SOUND_BENCH_VERBOSE"):
                base = press if press is not None else stop
                print(f"  hold {hold + 1}: last sound {releases[-1]:.0f} ms after playback-stop; trace (ms from the press): "
                      + "; ".join(f"{(float(l.split()[0]) - base) * 1000:.0f} {' '.join(l.split()[1:3])}" for l in lines))
    for h in hogs:
        h.kill()
        h.wait()
    tmux("send-keys", "-t", "ui", "q")
    time.sleep(0.3)
    tmux("kill-server")
    print(f"browser key press -> first sound: {stats(presses)} (target <= 150 ms)"
          + (f", {len(hogs)} busy loops running" if hogs else ""))
    for name, values in stages.items():
        print(f"  press -> {name}: {stats(values)}")
    print(f"browser hold end (playback-stop) -> last sound: {stats(releases)} (target <= 50 ms)")
finally:
    daemon.close()
    shutil.rmtree(work, ignore_errors=True)
