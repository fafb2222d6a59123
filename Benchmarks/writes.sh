#!/usr/bin/env bash
# Interrupted-write safety costs (DECISIONS.md, "Interrupted writes"): the stale-temporary sweep of a folder of
# 10,000 photos + 100 temporaries, and a pair committed as a group vs two plain commits, on the disk of TMPDIR.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/writes-bench
mkdir -p "$out"
# MediaFormats imports Concurrent (its lock box): built first as a module of its own.
swiftc -O -parse-as-library -module-name Concurrent -wmo -c Sources/Concurrent/*.swift \
    -emit-module -emit-module-path "$out/Concurrent.swiftmodule" -o "$out/Concurrent.o"
swiftc -O -parse-as-library -module-name WritesBench -I "$out" Benchmarks/WritesBench/main.swift \
    $(find Sources/MediaFormats -name '*.swift') "$out/Concurrent.o" -o "$out/writes-bench"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/many" "$work/out"
(cd "$work/many" && for i in $(seq 1 10000); do : > "IMG_$i.JPG"; done
 for i in $(seq 1 100); do : > ".IMG_$i.MOV.livegrid-1-0000000000000000-$(printf %08x "$i").tmp"; done)
"$out/writes-bench" "$work/many" "$work/out"
