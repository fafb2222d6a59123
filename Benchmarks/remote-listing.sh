#!/usr/bin/env bash
# Remote listings (issue 17.5): a hostile listing of 1,000,000 names (a 27 MB HTML index, every name a missing
# .jpg) and a real folder of 3,000 photos (hard links of Tests/Fixtures/motion-photo-v1.jpeg), both served by
# nginx on 127.0.0.1. Reports:
# - peak memory (/usr/bin/time -v, maximum resident set size) of `livegrid scan URL` and of the browser
#   (`livegrid URL` in a 160x50 tmux pane, quit with q once the screen has settled) on the hostile listing;
# - requests (nginx access log) before the names are on screen, and once the screen has settled, with the
#   number of items on screen, for both folders. Target: <= 2 requests per visible item before first paint,
#   none for items never shown (the browser downloads the visible items and the next screen only).
# Needs nginx, tmux. CONFIG=release|debug (default release, as `make bench` builds).
set -euo pipefail
cd "$(dirname "$0")/.."
CONFIG=${CONFIG:-release}
for tool in tmux /usr/sbin/nginx /usr/bin/time; do
  command -v "$tool" >/dev/null || [ -x "$tool" ] || { echo "remote-listing.sh: $tool missing (make test-deps)"; exit 0; }
done
[ -x ".build/$CONFIG/livegrid" ] || swift build -c "$CONFIG" >/dev/null
binary=".build/$CONFIG/livegrid"
work=$(mktemp -d /tmp/livegrid-listing-bench.XXXXXX)
sock="livegrid-listing-bench-$$"
cleanup() {
  tmux -L "$sock" kill-server 2>/dev/null || true
  kill -9 "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/www/huge" "$work/www/photos"
python3 - "$work/www/huge/index.html" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("<!DOCTYPE HTML>\n<html><body>\n")
    for i in range(1000000):
        f.write('<a href="%06d.jpg">x</a>\n' % i)
PY
for i in $(seq -w 1 3000); do ln Tests/Fixtures/motion-photo-v1.jpeg "$work/www/photos/PXL_$i.jpg"; done
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$work/nginx.conf" <<CONF
daemon off; master_process off; worker_processes 1;
pid $work/nginx.pid; error_log $work/error.log;
events { worker_connections 512; }
http {
  log_format plain '\$request_method \$uri \$status';
  access_log $work/access.log plain;
  client_body_temp_path $work/cb; proxy_temp_path $work/px; fastcgi_temp_path $work/fc; uwsgi_temp_path $work/uw; scgi_temp_path $work/sc;
  types { text/html html; image/jpeg jpg; }
  server { listen 127.0.0.1:$port; root $work/www; location /huge/ { index index.html; } location /photos/ { autoindex on; } }
}
CONF
timeout -s KILL 1800 /usr/sbin/nginx -p "$work" -c "$work/nginx.conf" &
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/photos/" && break; sleep 0.1; done
: > "$work/access.log"
echo "BENCH listing: $(stat -c %s "$work/www/huge/index.html") bytes, 1000000 names (huge); 3000 photos (photos)"

requests() { wc -l < "$work/access.log"; }
peak_mb() { awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$1"; }

# scan: every kept entry is probed (a 404 each here), the listing cut at 200,000 entries. SKIP_SCAN=1 skips it.
if [ "${SKIP_SCAN:-0}" != 1 ]; then
before=$(requests)
start=$(date +%s.%N)
/usr/bin/time -v -o "$work/scan-time.txt" env XDG_CACHE_HOME="$work/cache" NETRC=/dev/null \
  "$binary" scan "http://127.0.0.1:$port/huge/" > "$work/scan-err.txt" 2>&1 || true
echo "BENCH scan huge: peak $(peak_mb "$work/scan-time.txt") MB, $(( $(requests) - before )) requests," \
     "$(python3 -c "import sys,time; print('%.1f' % (time.time() - float(sys.argv[1])))" "$start") s ·" \
     "$(grep -o 'lists more than [0-9]* entries' "$work/scan-err.txt" || echo 'no cut message')"
fi

# The browser: requests when the names appear, when the screen has settled (no request for 3 s), items shown.
browse() {
  local name=$1 url=$2 pattern=$3
  : > "$work/access.log"
  tmux -L "$sock" -f /dev/null new-session -d -s b -x 160 -y 50 \
    "/usr/bin/time -v -o '$work/browse-time.txt' env XDG_CACHE_HOME='$work/cache-$name' XDG_CONFIG_HOME='$work/config' NETRC=/dev/null TERM=tmux-256color '$binary' '$url'"
  local start names_at="" first_paint_requests="" last_count=-1 still_since now count
  start=$(date +%s.%N)
  while :; do
    now=$(date +%s.%N)
    if [ -z "$names_at" ] && tmux -L "$sock" capture-pane -p -t b | grep -Eq "$pattern"; then
      names_at=$(python3 -c "import sys; print('%.2f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$start" "$now")
      first_paint_requests=$(requests)
      still_since=$now
    fi
    if [ -n "$names_at" ]; then
      count=$(requests)
      if [ "$count" != "$last_count" ]; then last_count=$count; still_since=$now; fi
      python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) - float(sys.argv[2]) > 3 else 1)" "$now" "$still_since" && break
    fi
    python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) - float(sys.argv[2]) > 120 else 1)" "$now" "$start" && break
    sleep 0.1
  done
  local shown
  shown=$(tmux -L "$sock" capture-pane -p -t b | grep -Eo "$pattern" | sort -u | wc -l)
  local files
  files=$(awk '$2 ~ /\.jpg$/ { print $2 }' "$work/access.log" | sort -u | wc -l)
  tmux -L "$sock" send-keys -t b q
  for _ in $(seq 100); do [ -s "$work/browse-time.txt" ] && break; sleep 0.1; done
  tmux -L "$sock" kill-server 2>/dev/null || true
  echo "BENCH browse $name: names on screen ${names_at:-never} s after ${first_paint_requests:-?} requests;" \
       "settled after $(requests) requests for $files distinct files; $shown items on screen;" \
       "peak $(peak_mb "$work/browse-time.txt") MB"
}
browse huge "http://127.0.0.1:$port/huge/" '[0-9]{6}\.jpg'
browse photos "http://127.0.0.1:$port/photos/" 'PXL_[0-9]{4}\.jpg'
