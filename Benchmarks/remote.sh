#!/usr/bin/env bash
# Remote library figures on loopback (127.0.0.1 only):
#  1. time to the listing with placeholders and to all items paired, for 500 items (hard links of the fixtures)
#  2. download throughput of DownloadManager vs curl (without and with a final fsync) on the same 200 MB file
#  3. peak RSS of a 200 MB download vs a 20 MB one (memory must not grow with file size)
#  4. time to the first painted grid of `livegrid URL` for a 500-item listing (tmux capture-pane polling)
# Needs nginx (apt-get install nginx). Builds remote-bench (Benchmarks/RemoteBench) and livegrid in debug
# unless CONFIG=release.
set -euo pipefail
cd "$(dirname "$0")/.."
CONFIG=${CONFIG:-debug}
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { echo "remote.sh: nginx missing (apt-get install nginx)"; exit 0; }
work=$(mktemp -d /tmp/livegrid-remote-bench.XXXXXX)
trap 'kill -9 $(cat "$work/nginx.pid" 2>/dev/null) 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/www/many" "$work/www/big"
for i in $(seq -w 1 167); do
  ln Tests/Fixtures/train.jpg "$work/www/many/IMG_$i.jpg"
  ln Tests/Fixtures/train.mov "$work/www/many/IMG_$i.mov"
  ln Tests/Fixtures/motion-photo-v1.jpeg "$work/www/many/PXL_$i.jpg"
done
ls "$work/www/many" | head -n 500 >/dev/null
mkdir -p "$work/www/grid500"
for i in $(seq -w 1 500); do ln Tests/Fixtures/train.jpg "$work/www/grid500/IMG_$i.jpg"; done
head -c 200000000 /dev/urandom > "$work/www/big/large.bin"
head -c 20000000 /dev/urandom > "$work/www/big/small.bin"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$work/nginx.conf" <<CONF
daemon off; master_process off; worker_processes 1;
pid $work/nginx.pid; error_log $work/error.log;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path $work/cb; proxy_temp_path $work/px; fastcgi_temp_path $work/fc; uwsgi_temp_path $work/uw; scgi_temp_path $work/sc;
  sendfile on;
  server { listen 127.0.0.1:$port; root $work/www; location / { autoindex on; } }
}
CONF
timeout -s KILL 900 nginx -p "$work" -c "$work/nginx.conf" &
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
echo "items listed: $(curl -s "http://127.0.0.1:$port/many/" | grep -c '<a href="[^.]')"

swift build -c "$CONFIG" --product remote-bench >/dev/null
swift build -c "$CONFIG" --product livegrid >/dev/null
bin=".build/$CONFIG/remote-bench"
run() { "$bin" "$@" 2>&1 | grep -E '^BENCH|error' || true; }

echo "== listing and pairing (500 items)"
run listing "http://127.0.0.1:$port/many/"

echo "== download throughput (200 MB) vs curl, 5 runs each, alternating"
for i in 1 2 3 4 5; do
  start=$(date +%s.%N); curl -s -o "$work/curl.out" "http://127.0.0.1:$port/big/large.bin"; end=$(date +%s.%N)
  python3 -c "print('BENCH curl: 200000000 bytes in %.3f s = %.1f MB/s' % ($end-$start, 200/($end-$start)))"
  rm -f "$work/curl.out"
  # DownloadManager fsyncs a finished file before calling it complete; curl does not. The same with an fsync:
  start=$(date +%s.%N); curl -s -o "$work/curl.out" "http://127.0.0.1:$port/big/large.bin"; sync "$work/curl.out"; end=$(date +%s.%N)
  python3 -c "print('BENCH curl + fsync: 200000000 bytes in %.3f s = %.1f MB/s' % ($end-$start, 200/($end-$start)))"
  rm -f "$work/curl.out"
  run download "http://127.0.0.1:$port/big/large.bin"
done
for f in large small; do
  echo "== $f.bin through DownloadManager (peak RSS via /usr/bin/time -v)"
  /usr/bin/time -v "$bin" download "http://127.0.0.1:$port/big/$f.bin" 2>&1 | grep -E '^BENCH|Maximum resident' || true
done

echo "== first painted grid of a 500-item remote listing (livegrid in a 160x50 tmux pane)"
if [ "${FIRST_PAINT:-1}" = 0 ]; then
  echo "remote.sh: FIRST_PAINT=0, step skipped"
elif command -v tmux >/dev/null; then
  python3 Benchmarks/remote-first-paint.py ".build/$CONFIG/livegrid" "http://127.0.0.1:$port/grid500/" 500 3
else
  echo "remote.sh: tmux missing, first-paint step skipped"
fi
