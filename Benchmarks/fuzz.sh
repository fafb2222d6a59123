#!/usr/bin/env bash
# Fuzzes the MediaFormats parsers with libFuzzer + AddressSanitizer.
#   FUZZ_SECONDS  run time (default 60)
#   FUZZ_JOBS     parallel workers (default 1)
# Builds .build/fuzz/parser-fuzz from Fuzz/ParserFuzz/main.swift + Sources/MediaFormats/*.swift, seeds
# .build/fuzz/corpus with the first 64 KiB of every fixture (Tests/Fixtures and ../shared/fixtures), and
# keeps crashes as .build/fuzz/crash-* (reproduce: .build/fuzz/parser-fuzz .build/fuzz/crash-...).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out="$root/.build/fuzz"
seconds="${FUZZ_SECONDS:-60}"
jobs="${FUZZ_JOBS:-1}"
mkdir -p "$out/corpus"

echo "fuzz: building $out/parser-fuzz"
# MediaFormats imports Concurrent (its lock box): built first as a module of its own.
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -module-name Concurrent -wmo -c \
    Sources/Concurrent/*.swift -emit-module -emit-module-path "$out/Concurrent.swiftmodule" -o "$out/Concurrent.o"
swiftc -sanitize=fuzzer,address -parse-as-library -O -g \
    -module-name ParserFuzz -I "$out" \
    Fuzz/ParserFuzz/main.swift Sources/MediaFormats/*.swift "$out/Concurrent.o" \
    -o "$out/parser-fuzz"

for f in "$root"/Tests/Fixtures/* "$root"/../shared/fixtures/* "$root"/../shared/fixtures/*/*; do
    [ -f "$f" ] || continue
    case "$f" in *.md) continue ;; esac
    name=$(basename "$f")
    [ -e "$out/corpus/seed-$name" ] || head -c 65536 "$f" > "$out/corpus/seed-$name"
done
# A camera movie's moov is at its end, past the first 64 KiB: its seed is the ftyp and the moov alone (the
# probe reads nothing else), so that the fuzzer starts inside the moov walk (QuickTimeMovie.parseForProbe).
for f in "$root"/Tests/Fixtures/*.mov "$root"/../shared/fixtures/*.mov "$root"/../shared/fixtures/*/*.mov; do
    [ -f "$f" ] || continue
    name=$(basename "$f")
    [ -e "$out/corpus/seed-moov-$name" ] || python3 - "$f" "$out/corpus/seed-moov-$name" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
kept, offset = b"", 0
while offset + 8 <= len(data):
    size, kind = struct.unpack(">I4s", data[offset:offset + 8])
    if size == 1: size = struct.unpack(">Q", data[offset + 8:offset + 16])[0]
    if size == 0: size = len(data) - offset
    if size < 8: break
    if kind in (b"ftyp", b"moov"): kept += data[offset:offset + size]
    offset += size
if len(kept) <= 65536: open(sys.argv[2], "wb").write(kept)
PY
done
echo "fuzz: corpus $(ls "$out/corpus" | wc -l) files; running ${seconds}s"

cd "$out"
./parser-fuzz -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -jobs="$jobs" -workers="$jobs" -print_final_stats=1 -artifact_prefix="$out/" corpus 2>&1 | tee "$out/last-run.log" \
    | grep -E "^#|stat::|ERROR|SUMMARY|Done" | tail -40
