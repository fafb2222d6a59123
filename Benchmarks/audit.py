#!/usr/bin/env python3
"""`make audit`: the corpus audit of issue 32 as a benchmark.

Every read verb (scan, show, thumbnail, play, extract, convert both ways, export) runs over a corpus: the
committed fixtures, ../shared/fixtures when present, and damaged variants of them generated here (truncations
at several points, byte flips, another format's magic, zero length, absurd box and segment sizes), plus every
file under $AUDIT_CORPUS when set (a big external corpus: camera folders, public test-image sets).

Each run has a timeout (a hang) and its exit is read (a signal is a crash); its peak RSS is /usr/bin/time -f %M's.
(Not this script's own wait4: a child spawned from Python execs from Python's memory, and Linux keeps the
larger of the two peaks, so every run would read as at least this script's size.) Its stderr and stdout
lines are searched for jargon a person should never be shown (raw errno names, Foundation error dumps,
"Optional(", libav's own sentences, Swift type or enum-case dumps). Every input's sha256 (and the listing of
every input folder) is taken before and after: an original changed or a file left beside it is a finding.

Prints a table per verb and one summary line; exits 1 on any crash, hang or changed original.
Environment: LIVEGRID (binary, default .build/release/livegrid), AUDIT_CORPUS (extra folder, recursive),
AUDIT_TIMEOUT (seconds per run, default 30), AUDIT_JOBS (runs at once, default 2), AUDIT_KEEP=1 (keep the
work directory), AUDIT_VERBS (comma list, default all), AUDIT_LOG (a file: one line per run with its exit, time,
peak RSS and last stderr line, to read the messages themselves), AUDIT_SMOKE=1 (the committed fixtures only,
three kinds of damage, no play: the check `make test` runs).
"""
import concurrent.futures
import hashlib
import json
import os
import random
import re
import shutil
import signal
import struct
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TIME = "/usr/bin/time"
LIVEGRID = os.path.abspath(os.environ.get("LIVEGRID", os.path.join(ROOT, ".build/release/livegrid")))
TIMEOUT = float(os.environ.get("AUDIT_TIMEOUT", "30"))
JOBS = int(os.environ.get("AUDIT_JOBS", "2"))
EXTERNAL = os.environ.get("AUDIT_CORPUS")
SMOKE = os.environ.get("AUDIT_SMOKE") == "1"
SMOKE_DAMAGE = {"trunc-50%", "absurd-sizes", "zero-length"}
MEDIA = {".jpg", ".jpeg", ".heic", ".heif", ".mov", ".mp4", ".png", ".gif", ".webp", ".avif", ".tif", ".tiff",
         ".dng", ".m4v", ".bmp"}
MOVIES = {".mov", ".mp4", ".m4v"}

# Words a person should not be shown. Each is a finding, listed with its line.
JARGON = [
    (re.compile(r"\bE(NOENT|ACCES|PERM|IO|INVAL|ISDIR|NOTDIR|NOSPC|ROFS|AGAIN|BADF|FAULT|NOMEM|LOOP|NAMETOOLONG|XIST|NXIO|PIPE)\b"), "errno name"),
    (re.compile(r"errno\s*[=:]?\s*-?\d+|error code -?\d+|\(-\d{2,}\)"), "raw error number"),
    (re.compile(r"Error Domain|NSCocoaErrorDomain|NSPOSIXErrorDomain|UserInfo=|NSUnderlyingError"), "Foundation error dump"),
    (re.compile(r"Optional\("), "Optional( dump"),
    (re.compile(r"Invalid data found|AVERROR|moov atom not found|Invalid NAL unit|error while decoding MB|"
                r"Premature end of JPEG|Corrupt JPEG data|Huffman table|libheif|heif_error|chafa_"), "codec library's words"),
    (re.compile(r"\b[A-Z][A-Za-z]*(Error|Failure|Problem)\b(\.| \(|\()"), "Swift type name"),
    (re.compile(r"\b[A-Z][A-Za-z]+\.[a-z][A-Za-z]*\("), "enum case dump"),
    (re.compile(r"\b(Swift|Foundation|MediaFormats|Imaging|Library|LivePairing)\.[A-Z]"), "module-qualified name"),
    # An enum's raw value or a property name ("this is quickTime"); a camelCase file name (keyPhoto.jpg) is not one.
    (re.compile(r"(?<![\w/.-])[a-z]+[A-Z][A-Za-z]*(?![\w./-])"), "Swift identifier"),
    (re.compile(r"0x[0-9a-fA-F]{8,}"), "pointer"),
    # The audit's arguments are always valid: usage text means a file problem was reported as a usage error.
    (re.compile(r"^(Usage: |Error: )|See 'livegrid --help'"), "usage error for a file problem"),
    (re.compile(r"Fatal error|Assertion failed|Stack dump|Segmentation fault|\bSIG[A-Z]{3,}\b"), "crash text"),
]


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def media_files(folder, recursive):
    found = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if os.path.splitext(name)[1].lower() in MEDIA and os.path.isfile(path) and not os.path.islink(path):
                found.append(path)
        if not recursive:
            break
    return found


# --- damaged variants -------------------------------------------------------------------------------------

def absurd_sizes(data):
    """Box sizes (ISOBMFF) and segment lengths (JPEG) made huge: the parsers must bound them."""
    out = bytearray(data)
    if data[:2] == b"\xff\xd8":
        i = 2
        while i + 4 <= len(out) and out[i] == 0xFF:
            marker = out[i + 1]
            length = struct.unpack(">H", out[i + 2:i + 4])[0]
            if marker in (0xC0, 0xC1, 0xC2) and i + 9 <= len(out):
                out[i + 5:i + 9] = b"\xff\xff\xff\xff"        # 65535 x 65535 pixels
            if marker == 0xE1:
                out[i + 2:i + 4] = b"\xff\xff"                # an APP1 that runs past the file
            if marker == 0xDA:
                break
            i += 2 + length
        return bytes(out)
    for box in (b"ftyp", b"moov", b"meta", b"iloc", b"trak", b"stsz", b"stco", b"mdat", b"iinf"):
        at = data.find(box)
        if at >= 4:
            out[at - 4:at] = b"\xff\xff\xff\xf0"
    return bytes(out)


def variants(data, ext, rng):
    """(label, bytes) pairs of damaged copies of one file."""
    n = len(data)
    result = []
    for label, cut in (("trunc-16B", 16), ("trunc-4K", 4096), ("trunc-25%", n // 4), ("trunc-50%", n // 2),
                       ("trunc-75%", 3 * n // 4), ("trunc-minus1", n - 1)):
        if 0 < cut < n:
            result.append((label, data[:cut]))
    for k, (label, span) in enumerate((("flip-head", min(n, 65536)), ("flip-all", n), ("flip-all-b", n))):
        out = bytearray(data)
        for _ in range(24):
            at = rng.randrange(span)
            out[at] ^= 1 << rng.randrange(8)
        result.append((label, bytes(out)))
    magic = b"\x89PNG\r\n\x1a\n" if ext not in (".png",) else b"\xff\xd8\xff\xe0"
    result.append(("wrong-magic", magic + data[len(magic):]))
    result.append(("absurd-sizes", absurd_sizes(data)))
    result.append(("zeros-after-1K", data[:1024] + bytes(max(0, n - 1024))))
    return result


def build_corpus(work):
    """Returns (targets, inputs, folders): files to run the verbs on, every file whose bytes must not change,
    and the folders whose listings must not change."""
    originals = media_files(os.path.join(ROOT, "Tests/Fixtures"), False)
    shared = os.path.join(ROOT, "..", "shared", "fixtures")
    if os.path.isdir(shared) and not SMOKE:
        originals += media_files(shared, True)
    external = media_files(EXTERNAL, True) if EXTERNAL else []
    # Identical bytes are audited once (Tests/Fixtures and ../shared hold copies of the same files).
    seen, unique = set(), []
    for path in originals:
        digest = sha256(path)
        if digest not in seen:
            seen.add(digest)
            unique.append(path)
    rng = random.Random(32)
    damaged_root = os.path.join(work, "damaged")
    generated = []
    zero_done = set()
    for path in unique:
        stem, ext = os.path.splitext(os.path.basename(path))
        with open(path, "rb") as f:
            data = f.read()
        # A Live Photo's other half (same stem) goes beside each damaged copy, so pairing and the live verbs run.
        partners = [p for p in unique if p != path and os.path.splitext(os.path.basename(p))[0] == stem
                    and os.path.dirname(p) == os.path.dirname(path)]
        items = variants(data, ext.lower(), rng)
        if ext.lower() not in zero_done:
            zero_done.add(ext.lower())
            items.append(("zero-length", b""))
        if SMOKE:
            items = [item for item in items if item[0] in SMOKE_DAMAGE]
        for label, content in items:
            folder = os.path.join(damaged_root, f"{stem}{ext.replace('.', '-')}-{label}")
            os.makedirs(folder)
            target = os.path.join(folder, stem + ext)
            with open(target, "wb") as f:
                f.write(content)
            for partner in partners:
                shutil.copyfile(partner, os.path.join(folder, os.path.basename(partner)))
            generated.append(target)
    # A movie named like a photo and a photo named like a movie.
    for path in unique[:0 if SMOKE else 4]:
        stem, ext = os.path.splitext(os.path.basename(path))
        folder = os.path.join(damaged_root, f"{stem}{ext.replace('.', '-')}-wrong-extension")
        os.makedirs(folder)
        target = os.path.join(folder, stem + (".jpg" if ext.lower() in MOVIES else ".mov"))
        shutil.copyfile(path, target)
        generated.append(target)
    targets = unique + external + generated
    inputs = sorted(set(originals + external + media_files(damaged_root, True)))
    folders = sorted({os.path.dirname(p) for p in inputs})
    return targets, inputs, folders


# --- runs --------------------------------------------------------------------------------------------------

def verb_commands(path, out):
    ext = os.path.splitext(path)[1].lower()
    folder = os.path.dirname(path)
    commands = [
        ("show", ["show", path, "--size", "40x12", "--format", "symbols", "--colors", "256"]),
        ("thumbnail", ["thumbnail", path, "-o", os.path.join(out, "thumb.png"), "--force"]),
        ("extract", ["extract", path, "-o", out]),
        ("export", ["export", path, "--to", out]),
    ]
    if ext in MOVIES:
        commands.append(("play", ["play", path, "--size", "40x12", "--format", "symbols", "--colors", "256", "--mute"]))
        commands.append(("convert", ["convert", path, "--to", "live", "-o", out]))
    else:
        commands.append(("convert", ["convert", path, "--to", "live", "-o", out]))
        commands.append(("convert", ["convert", path, "--to", "motion", "-o", out]))
        # A still plays its Live Photo's or Motion Photo's movie; a plain still is refused.
        commands.append(("play", ["play", path, "--size", "40x12", "--format", "symbols", "--colors", "256", "--mute"]))
    return commands


def run(verb, args, work, env):
    out = tempfile.mkdtemp(dir=os.path.join(work, "out"))
    args = [a.replace("@OUT@", out) for a in args]
    stdout_path, stderr_path = os.path.join(out, ".stdout"), os.path.join(out, ".stderr")
    started = time.monotonic()
    with open(stdout_path, "wb") as so, open(stderr_path, "wb") as se, open(os.devnull, "rb") as si:
        rss_path = os.path.join(out, ".rss")
        pid = os.posix_spawn(TIME, [TIME, "-f", "%M", "-o", rss_path, LIVEGRID] + args, env, file_actions=[
            (os.POSIX_SPAWN_DUP2, si.fileno(), 0), (os.POSIX_SPAWN_DUP2, so.fileno(), 1),
            (os.POSIX_SPAWN_DUP2, se.fileno(), 2)], setsid=True)
    hung = False
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            break
        if time.monotonic() - started > TIMEOUT:
            hung = True
            os.killpg(pid, signal.SIGKILL)
            done, status = os.waitpid(pid, 0)
            break
        time.sleep(0.02)
    rss_kib, signal_number = 0, None
    if not hung and os.path.exists(rss_path):
        with open(rss_path) as f:
            for line in f.read().splitlines():
                if line.startswith("Command terminated by signal "):
                    signal_number = int(line.split()[-1])
                elif line.strip().isdigit():
                    rss_kib = int(line)
    with open(stderr_path, "rb") as f:
        err = f.read().decode("utf-8", "replace")
    with open(stdout_path, "rb") as f:
        text_out = f.read()
    # Pictures and movie frames are escape sequences: only short text lines are read for words.
    out_lines = [] if verb in ("show", "play") else text_out.decode("utf-8", "replace").splitlines()
    if verb == "scan":
        # JSON for scripts: its keys and values are names; its sentences (warnings, why live is off) are read.
        # The parsers' own words ("problems") are kept for scripts and `scan --verbose` on purpose.
        try:
            report = json.loads(text_out)
            out_lines = list(report.get("warnings", []))
            for item in report.get("items", []):
                out_lines += item.get("warnings", []) + ([item["liveOffReason"]] if item.get("liveOffReason") else [])
        except ValueError:
            out_lines = ["scan --json printed something that is not JSON"]
    unclear = []
    for line in err.splitlines() + out_lines:
        for pattern, kind in JARGON:
            if pattern.search(line):
                unclear.append((kind, line.strip()[:160]))
                break
    shutil.rmtree(out, ignore_errors=True)
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
    return {
        "verb": verb, "args": args, "hung": hung, "signal": signal_number, "code": None if signal_number else code,
        "rss_kib": rss_kib, "seconds": time.monotonic() - started, "unclear": unclear,
        "stderr": err.strip().splitlines()[-1][:160] if err.strip() else "",
    }


def main():
    if not os.access(LIVEGRID, os.X_OK):
        sys.exit(f"audit: {LIVEGRID} is not built (make release, or LIVEGRID=path)")
    if not os.access(TIME, os.X_OK):
        sys.exit("audit: /usr/bin/time is missing (apt-get install time): it measures each run's peak RSS")
    verbs_wanted = set(filter(None, os.environ.get("AUDIT_VERBS", "").split(",")))
    work = tempfile.mkdtemp(prefix="livegrid-audit-")
    os.makedirs(os.path.join(work, "out"))
    env = dict(os.environ)
    env.update({"XDG_CACHE_HOME": os.path.join(work, "cache"), "XDG_CONFIG_HOME": os.path.join(work, "config"),
                "HOME": os.path.join(work, "home"), "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"})
    env.pop("PULSE_SERVER", None)
    started = time.monotonic()
    targets, inputs, folders = build_corpus(work)
    before = {p: sha256(p) for p in inputs}
    listings = {d: sorted(os.listdir(d)) for d in folders}

    jobs = []
    for folder in sorted({os.path.dirname(t) for t in targets}):
        jobs.append(("scan", ["scan", "--json", "--no-index", folder]))
    for path in targets:
        jobs.extend(verb_commands(path, "@OUT@"))
    if SMOKE:
        jobs = [j for j in jobs if j[0] != "play"]
    if verbs_wanted:
        jobs = [j for j in jobs if j[0] in verbs_wanted]
    # Long runs (play) first, so that the pool ends together.
    jobs.sort(key=lambda j: j[0] != "play")
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, JOBS)) as pool:
        for result in pool.map(lambda j: run(j[0], j[1], work, env), jobs):
            results.append(result)

    if os.environ.get("AUDIT_LOG"):
        with open(os.environ["AUDIT_LOG"], "w") as log:
            for r in results:
                outcome = "hang" if r["hung"] else f"signal {r['signal']}" if r["signal"] else f"exit {r['code']}"
                log.write(f"{r['verb']}\t{outcome}\t{r['seconds']:.2f}s\t{r['rss_kib'] // 1024} MiB\t"
                          f"{os.path.relpath(r['args'][1], work) if len(r['args']) > 1 else ''}\t{r['stderr']}\n")
    changed = [p for p in inputs if not os.path.exists(p) or sha256(p) != before[p]]
    debris = [(d, sorted(set(os.listdir(d)) - set(listings[d]))) for d in folders
              if os.path.isdir(d) and sorted(os.listdir(d)) != listings[d]]

    verbs = ["scan", "show", "thumbnail", "play", "extract", "convert", "export"]
    print(f"{'VERB':<10}{'RUNS':>6}{'OK':>6}{'REFUSED':>9}{'CRASHES':>9}{'HANGS':>7}{'PEAK RSS':>11}{'UNCLEAR':>9}{'SLOWEST':>9}")
    for verb in verbs:
        rs = [r for r in results if r["verb"] == verb]
        if not rs:
            continue
        ok = sum(r["code"] == 0 for r in rs)
        crashes = sum(r["signal"] is not None for r in rs)
        hangs = sum(r["hung"] for r in rs)
        refused = len(rs) - ok - crashes - hangs
        peak = max(r["rss_kib"] for r in rs) / 1024
        print(f"{verb:<10}{len(rs):>6}{ok:>6}{refused:>9}{crashes:>9}{hangs:>7}{peak:>8.0f} MiB{sum(len(r['unclear']) for r in rs):>9}"
              f"{max(r['seconds'] for r in rs):>8.1f}s")
    crashes = [r for r in results if r["signal"] is not None]
    hangs = [r for r in results if r["hung"]]
    unclear = [(r, u) for r in results for u in r["unclear"]]
    peak = max(results, key=lambda r: r["rss_kib"])
    for r in crashes:
        print(f"CRASH (signal {r['signal']}): livegrid {' '.join(r['args'])}\n    {r['stderr']}")
    for r in hangs:
        print(f"HANG (> {TIMEOUT:.0f} s): livegrid {' '.join(r['args'])}")
    shown = set()
    for r, (kind, line) in unclear:
        if (kind, line) in shown:
            continue
        shown.add((kind, line))
        print(f"UNCLEAR ({kind}): livegrid {' '.join(r['args'][:2])}\n    {line}")
    for p in changed:
        print(f"CHANGED ORIGINAL: {p}")
    for d, names in debris:
        print(f"LEFT IN AN INPUT FOLDER: {d}: {names}")
    print(f"peak RSS {peak['rss_kib'] / 1024:.0f} MiB: livegrid {' '.join(peak['args'][:2])}")
    print(f"audit: {len(targets)} files ({len(inputs)} inputs hashed), {len(results)} runs, {len(crashes)} crashes, "
          f"{len(hangs)} hangs, peak RSS {peak['rss_kib'] / 1024:.0f} MiB, {len(unclear)} unclear messages, "
          f"{len(changed) + len(debris)} originals changed; {time.monotonic() - started:.0f} s, binary {LIVEGRID}")
    if os.environ.get("AUDIT_KEEP") == "1":
        print(f"audit: work directory kept: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if crashes or hangs or changed or debris else 0


if __name__ == "__main__":
    sys.exit(main())
