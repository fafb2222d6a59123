#!/usr/bin/env bash
# `make bench`: every benchmark, one after the other; results on stdout and in bench-results/.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench-results
stamp=$(date +%Y%m%d-%H%M%S)
for b in Benchmarks/scan.sh Benchmarks/thumbnails.sh Benchmarks/video.sh Benchmarks/first-paint.sh Benchmarks/remote.sh Benchmarks/writes.sh Benchmarks/tmux-passthrough.sh Benchmarks/remote-sftp.sh Benchmarks/idle-cpu.sh; do
for b in Benchmarks/scan.sh Benchmarks/thumbnails.sh Benchmarks/video.sh Benchmarks/first-paint.sh Benchmarks/remote.sh Benchmarks/writes.sh Benchmarks/tmux-passthrough.sh Benchmarks/remote-sftp.sh Benchmarks/studio.sh; do
for b in Benchmarks/scan.sh Benchmarks/thumbnails.sh Benchmarks/video.sh Benchmarks/first-paint.sh Benchmarks/remote.sh Benchmarks/writes.sh Benchmarks/tmux-passthrough.sh Benchmarks/remote-sftp.sh Benchmarks/remote-listing.sh; do
for b in Benchmarks/scan.sh Benchmarks/thumbnails.sh Benchmarks/video.sh Benchmarks/first-paint.sh Benchmarks/remote.sh Benchmarks/writes.sh Benchmarks/tmux-passthrough.sh Benchmarks/remote-sftp.sh Benchmarks/library-first-paint.py; do
for b in Benchmarks/scan.sh Benchmarks/thumbnails.sh Benchmarks/video.sh Benchmarks/first-paint.sh Benchmarks/remote.sh Benchmarks/writes.sh Benchmarks/tmux-passthrough.sh Benchmarks/remote-sftp.sh Benchmarks/camera-jpegs.sh; do
for b in Benchmarks/scan.sh Benchmarks/thumbnails.sh Benchmarks/video.sh Benchmarks/playback.sh Benchmarks/first-paint.sh Benchmarks/remote.sh Benchmarks/writes.sh Benchmarks/tmux-passthrough.sh Benchmarks/remote-sftp.sh; do
  [ -x "$b" ] || continue
  echo "### $b"
  "$b" 2>&1 | tee -a "bench-results/$stamp.txt"
done
