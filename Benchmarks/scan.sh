#!/usr/bin/env bash
# Scan benchmark: 10,000 distinct files, warm and cold page cache, probing every file (--no-index) and from the
# library index. Prints files/s, bytes read per file and the scan's CPU per file (all threads).
# SCAN_FILES=100000 SCAN_DIR=.build/bench/scan-100k SCAN_CLONE_HEAD=24576 SCAN_CLONE_TAIL=8192 runs the
# 100,000-file case (~3 GB; the clone sizes go to make-scan-library.py).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release/livegrid
dir=${SCAN_DIR:-.build/bench/scan-10k}
count=${SCAN_FILES:-10000}
python3 Benchmarks/make-scan-library.py "$dir" "$count"
echo "== scan: $(ls "$dir" | wc -l) files in $dir ($(du -sh "$dir" | cut -f1) on disk)"
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
export XDG_CACHE_HOME="$cache"
"$bin" scan "$dir" --json >/dev/null 2>&1 || true   # warm the page cache and fill the index
for i in 1 2 3; do
  /usr/bin/env time -f "   warm run $i, every file probed: %e s wall, %M KiB max RSS" "$bin" scan "$dir" --json --stats --no-index >/dev/null
done
for i in 1 2; do
  /usr/bin/env time -f "   warm run $i, from the index: %e s wall, %M KiB max RSS" "$bin" scan "$dir" --json --stats >/dev/null
done
for i in 1 2; do
  python3 Benchmarks/evict.py "$dir" "$cache"
  /usr/bin/env time -f "   cold run $i, every file probed: %e s wall, %M KiB max RSS" "$bin" scan "$dir" --json --stats --no-index >/dev/null
done
python3 Benchmarks/evict.py "$dir" "$cache"
/usr/bin/env time -f "   cold run, from the index: %e s wall, %M KiB max RSS" "$bin" scan "$dir" --json --stats >/dev/null
