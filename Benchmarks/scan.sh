#!/usr/bin/env bash
# Scan benchmark: 10,000 distinct files, warm and cold page cache. Prints files/s and bytes read per file.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release/livegrid
dir=.build/bench/scan-10k
count=${SCAN_FILES:-10000}
python3 Benchmarks/make-scan-library.py "$dir" "$count"
echo "== scan: $(ls "$dir" | wc -l) files in $dir ($(du -sh "$dir" | cut -f1) on disk)"
"$bin" scan "$dir" --json >/dev/null 2>&1 || true   # warm the cache
for i in 1 2 3; do
  /usr/bin/env time -f "   warm run $i: %e s wall, %M KiB max RSS" "$bin" scan "$dir" --json --stats >/dev/null
done
for i in 1 2; do
  python3 Benchmarks/evict.py "$dir"
  /usr/bin/env time -f "   cold run $i: %e s wall, %M KiB max RSS" "$bin" scan "$dir" --json --stats >/dev/null
done
