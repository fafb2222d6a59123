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
echo "fuzz: corpus $(ls "$out/corpus" | wc -l) files; running ${seconds}s"

cd "$out"
./parser-fuzz -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -jobs="$jobs" -workers="$jobs" -print_final_stats=1 -artifact_prefix="$out/" corpus 2>&1 | tee "$out/last-run.log" \
    | grep -E "^#|stat::|ERROR|SUMMARY|Done" | tail -40
