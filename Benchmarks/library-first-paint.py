#!/usr/bin/env python3
"""First paint and peak memory of the browser on large local libraries (issue 17).

    Benchmarks/library-first-paint.py [BINARY] [SIZES...]

SIZES are file counts of flat folders (default 1000 10000 50000 100000) or NxF for N files in F folders opened
with -r (default adds 100000x1000). Files are hard links to real camera stills (Tests/Fixtures and
../shared/fixtures), cycled, each path its own item and thumbnail. Every size runs in a private tmux server
at 160x48 with its own XDG cache:
  - prime: first ever run (empty thumbnail cache, empty index), not a figure of merit;
  - warm / warm+index: page cache warm, thumbnails cached; --no-index, then with the (filled) index;
  - changed+index: warm, with the index but without the last scan (as when files changed behind its back): the
    usual scan from the index, which then writes the last scan again; it quits once that is written, so its
    peak RSS is the browser's worst case with the index (issue 17 item 4);
  - cold / cold+index: the same after evicting the library, the thumbnail cache and the index from the page
    cache (Benchmarks/evict.py: posix_fadvise DONTNEED; directory entries stay cached).
"first thumbnails" = launch of the command to the trace's first-thumbnails (every picture of the first screen
drawn), "whole view" = launch to the first complete view on screen: indexed-view-shown (a known library drawn
whole from its last scan, before the scan has checked its files) or else scan-shown, "scan" = launch to
scan-finished (the scan thread's result: for a known library, its last scan confirmed by a stat of every
file), "view" = launch to scan-shown (that result sorted, grouped and drawn; "n/a" from builds without the
event); peak RSS from /usr/bin/time. Times are wall clock on a shared machine. The prime run waits until the
last scan is remembered (scans/ in the cache) before it quits.
`distinctNxF` is N distinct files in F year/month folders (Benchmarks/make-scan-library.py with SCAN_FOLDERS):
unlike hard links, each file has its own index row, and the capture dates make a real timeline.
A size may also name an existing folder, `dir:PATH` (or `dir-r:PATH` for -r), e.g. the distinct files of
`SCAN_CLONE_HEAD=24576 SCAN_CLONE_TAIL=8192 Benchmarks/make-scan-library.py .build/bench/scan-100k 100000`:
hard links share one index row per source, distinct files have one row each.
BENCH_VIEW="--group date" (or "--sort size", ...) opens every run in that library view (issue 17 item 3: the
timeline is complete, headers and all, at "scan done").
"""
import os, subprocess, sys, time, shutil, tempfile

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1][0].isdigit() and not sys.argv[1].startswith(("dir", "distinct")) else os.path.join(here, ".build/release/livegrid")
sizes = [a for a in sys.argv[1:] if a[0].isdigit() or a.startswith(("dir", "distinct"))] or [
    "1000", "10000", "50000", "100000", "100000x1000", "distinct100000x1000"]
sources = [os.path.join(here, "Tests/Fixtures/train.jpg"), os.path.join(here, "Tests/Fixtures/motion-photo-v1.jpeg")]
for name in ["IMG_2927.HEIC", "samsung-still.jpeg", "iphone-se-still.heic"]:
    p = os.path.join(here, "..", "shared", "fixtures", name)
    if os.path.exists(p):
        sources.append(p)
work = os.environ.get("BENCH_DIR", os.path.join(here, ".build", "bench", "libraries"))
socket = "livegrid-libbench-%d" % os.getpid()

def make_library(spec):
    if spec.startswith("dir:") or spec.startswith("dir-r:"):
        root = spec.split(":", 1)[1]
        return root, sum(1 for n in os.listdir(root) if not n.startswith(".")), spec.startswith("dir-r:")
    if spec.startswith("distinct"):
        # Distinct files (a real library: each its own inode, index row and identifier), capture dates spread
        # over the folders' months; ~3 GB for 100,000 (sparse clones of real fixtures' heads and tails).
        count, folders = (int(x) for x in spec[len("distinct"):].split("x"))
        root = os.path.join(work, "distinct-%dx%d" % (count, folders))
        env = dict(os.environ, SCAN_FOLDERS=str(folders), SCAN_CLONE_HEAD="24576", SCAN_CLONE_TAIL="8192")
        subprocess.run([sys.executable, os.path.join(here, "Benchmarks/make-scan-library.py"), root, str(count)],
                       env=env, check=True)
        return root, count, True
    count, folders = (int(x) for x in spec.split("x")) if "x" in spec else (int(spec), 0)
    root = os.path.join(work, spec)
    if os.path.exists(os.path.join(root, ".complete")):
        return root, count, folders > 0
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    # Private copies of the sources (ext4 allows 65,000 links per inode; other libraries link them too).
    own = os.path.join(work, ".sources-" + spec)
    os.makedirs(own, exist_ok=True)
    for i, src in enumerate(list(sources)):
        copy = os.path.join(own, os.path.basename(src))
        if not os.path.exists(copy):
            shutil.copyfile(src, copy)
        sources[i] = copy
    for i in range(count):
        src = sources[i % len(sources)]
        folder = root if not folders else os.path.join(root, "%04d/%02d" % (2000 + (i % folders) // 12, 1 + (i % folders) % 12))
        if folders:
            os.makedirs(folder, exist_ok=True)
        os.link(src, os.path.join(folder, "IMG_%06d%s" % (i, os.path.splitext(src)[1])))
    open(os.path.join(root, ".complete"), "w").close()
    return root, count, folders > 0

def tmux(*args):
    return subprocess.run(["tmux", "-L", socket, "-f", "/dev/null"] + list(args), capture_output=True, text=True)

def remembered(cache):
    folder = os.path.join(cache, "livegrid", "scans")
    return os.path.isdir(folder) and any(n.endswith(".snapshot") for n in os.listdir(folder))

def run(root, recursive, cache, extra, label):
    trace = os.path.join(cache, "trace-%s" % label)
    memory = os.path.join(cache, "memory-%s" % label)
    for p in (trace, memory):
        if os.path.exists(p):
            os.remove(p)
    env = "env LIVEGRID_TRACE='%s' XDG_CACHE_HOME='%s' XDG_CONFIG_HOME='%s/config' TERM=tmux-256color" % (trace, cache, cache)
    command = "/usr/bin/time -f %%M -o '%s' %s '%s' --graphics symbols %s %s '%s'" % (
        memory, env, binary, "-r" if recursive else "", extra + " " + os.environ.get("BENCH_VIEW", ""), root)
    start = time.monotonic()
    tmux("new-session", "-d", "-s", "bench", "-x", "160", "-y", "48", command)
    events = {}
    deadline = start + 300
    while time.monotonic() < deadline:
        try:
            for line in open(trace):
                parts = line.split()
                if len(parts) == 2 and parts[1] not in events:
                    events[parts[1]] = float(parts[0])
        except OSError:
            pass
        if "first-thumbnails" in events and "scan-finished" in events and (
                "scan-shown" in events or time.monotonic() > events["scan-finished"] + 3):
            break
        time.sleep(0.01)
    while label in ("prime", "changed+index") and "--no-index" not in extra and not remembered(cache) \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    tmux("send-keys", "-t", "bench", "q")
    while time.monotonic() < deadline and not (os.path.exists(memory) and os.path.getsize(memory) > 0):
        time.sleep(0.05)
    tmux("kill-server")
    peak = open(memory).read().split()[-1] if os.path.exists(memory) else "?"
    ms = lambda e: "%6.0f" % ((events[e] - start) * 1000) if e in events else "   n/a"
    whole = ms("indexed-view-shown") if "indexed-view-shown" in events else ms("scan-shown")
    return (ms("first-thumbnails"), whole, ms("scan-finished"), ms("scan-shown"),
            "%5.0f MB" % (int(peak) / 1024) if peak.isdigit() else peak)

def main():
    if shutil.which("tmux") is None:
        sys.exit("tmux is not installed")
    print("livegrid first paint on large libraries (NxF: hard links to %d real camera stills; dir: as given), tmux 160x48, %s %s"
          % (len(sources), binary, os.environ.get("BENCH_VIEW", "")))
    print("%-14s %-11s %18s %12s %12s %12s %10s" % ("library", "run", "first thumbnails", "whole view", "scan done",
                                                    "view shown", "peak RSS"))
    for spec in sizes:
        root, count, recursive = make_library(spec)
        cache = tempfile.mkdtemp(prefix="livegrid-libbench-")
        try:
            runs = [("prime", "")] + [("warm", "--no-index"), ("warm+index", "")] * 2 + [("changed+index", "")] \
                + [("cold", "--no-index"), ("cold+index", "")]
            for label, extra in runs:
                if label == "changed+index":
                    shutil.rmtree(os.path.join(cache, "livegrid", "scans"), ignore_errors=True)
                if label.startswith("cold"):
                    subprocess.run([sys.executable, os.path.join(here, "Benchmarks/evict.py"), root, cache])
                first, whole, scan, shown, peak = run(root, recursive, cache, extra, label)
                print("%-14s %-11s %15s ms %9s ms %9s ms %9s ms %10s" % (spec[-14:] + (" -r" if recursive else ""), label,
                                                                       first, whole, scan, shown, peak), flush=True)
        finally:
            shutil.rmtree(cache, ignore_errors=True)

main()
