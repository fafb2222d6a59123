#!/usr/bin/env bash
# `make bench`: every benchmark, one after the other; results on stdout and in bench-results/.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench-results
stamp=$(date +%Y%m%d-%H%M%S)
for b in Benchmarks/scan.sh Benchmarks/thumbnails.sh Benchmarks/video.sh Benchmarks/playback.sh Benchmarks/first-paint.sh Benchmarks/remote.sh Benchmarks/writes.sh Benchmarks/tmux-passthrough.sh Benchmarks/remote-sftp.sh Benchmarks/remote-sftp-scan.sh Benchmarks/remote-listing.sh Benchmarks/s3-listing.sh Benchmarks/library-first-paint.py Benchmarks/camera-jpegs.sh Benchmarks/picture-bytes.sh Benchmarks/studio.sh Benchmarks/idle-cpu.sh Benchmarks/slow-link.sh Benchmarks/sound.py; do
  [ -x "$b" ] || continue
  echo "### $b"
  "$b" 2>&1 | tee -a "bench-results/$stamp.txt"
done
