#!/usr/bin/env bash
# sftp:// against http:// on loopback for the same 500-photo library (hard links of Tests/Fixtures/train.jpg):
# time to the names, to all items paired and to the first thumbnail of `livegrid URL` in a 160x50 tmux pane
# (Benchmarks/remote-first-paint.py), and the bytes `livegrid scan URL` receives for the whole library. Bytes are
# counted on the wire by Benchmarks/byte-relay.py, a TCP relay between livegrid and each server (SSH framing, key
# exchange and SFTP read-ahead included; nginx's $bytes_sent is printed beside it as a cross-check).
# Target: sftp within 1.5x of http (the "ratio" line).
# Needs nginx, sshd (openssh-server), tmux. CONFIG=release|debug (default release, as `make bench` builds).
set -euo pipefail
cd "$(dirname "$0")/.."
CONFIG=${CONFIG:-release}
RUNS=${RUNS:-3}   # BROWSE=0: only the scan bytes
for tool in tmux /usr/sbin/nginx /usr/sbin/sshd; do
  command -v "$tool" >/dev/null || [ -x "$tool" ] || { echo "remote-sftp.sh: $tool missing (make test-deps)"; exit 0; }
done
[ -x ".build/$CONFIG/livegrid" ] || swift build -c "$CONFIG" >/dev/null
work=$(mktemp -d /tmp/livegrid-sftp-bench.XXXXXX)
cleanup() {
  kill -9 "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true
  [ -n "${relay_http:-}" ] && kill "$relay_http" 2>/dev/null || true
  [ -n "${relay_sftp:-}" ] && kill "$relay_sftp" 2>/dev/null || true
  [ -n "${sshd_pid:-}" ] && kill -9 -- "-$sshd_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
[ -n "${KEEP_LOG:-}" ] && trap 'cp "$work/sshd.log" "$KEEP_LOG"; cleanup' EXIT
mkdir -p "$work/www/grid500" /run/sshd
for i in $(seq -w 1 500); do ln Tests/Fixtures/train.jpg "$work/www/grid500/IMG_$i.jpg"; done
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

http_port=$(free_port)
cat > "$work/nginx.conf" <<CONF
daemon off; master_process off; worker_processes 1;
pid $work/nginx.pid; error_log $work/error.log;
events { worker_connections 512; }
http {
  log_format bytes '\$bytes_sent';
  access_log $work/access.log bytes;
  client_body_temp_path $work/cb; proxy_temp_path $work/px; fastcgi_temp_path $work/fc; uwsgi_temp_path $work/uw; scgi_temp_path $work/sc;
  sendfile on;
  server { listen 127.0.0.1:$http_port; root $work/www; location / { autoindex on; } }
}
CONF
timeout -s KILL 900 /usr/sbin/nginx -p "$work" -c "$work/nginx.conf" &

ssh_port=$(free_port)
ssh-keygen -q -t ed25519 -N '' -f "$work/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$work/client_key"
cp "$work/client_key.pub" "$work/authorized_keys"
echo "[127.0.0.1]:$ssh_port $(cut -d' ' -f1,2 "$work/host_key.pub")" > "$work/known_hosts"
cat > "$work/sshd_config" <<CONF
Port $ssh_port
ListenAddress 127.0.0.1
HostKey $work/host_key
AuthorizedKeysFile $work/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
StrictModes no
UsePAM no
PidFile $work/sshd.pid
MaxStartups 30:30:60
Subsystem sftp internal-sftp -l INFO
CONF
# livegrid talks to the relays; the relays to nginx and sshd.
relay_http_port=$(free_port)
relay_ssh_port=$(free_port)
python3 Benchmarks/byte-relay.py "$relay_http_port" "$http_port" "$work/http.count" & relay_http=$!
python3 Benchmarks/byte-relay.py "$relay_ssh_port" "$ssh_port" "$work/sftp.count" & relay_sftp=$!
echo "[127.0.0.1]:$relay_ssh_port $(cut -d' ' -f1,2 "$work/host_key.pub")" >> "$work/known_hosts"
cat > "$work/ssh_config" <<CONF
Host benchhost
  HostName 127.0.0.1
  Port $relay_ssh_port
  User $(id -un)
  IdentityFile $work/client_key
  UserKnownHostsFile $work/known_hosts
CONF
mkdir -p "$work/home"
setsid timeout -s KILL 900 /usr/sbin/sshd -f "$work/sshd_config" -D -E "$work/sshd.log" &
sshd_pid=$!
for _ in $(seq 100); do
  curl -s -o /dev/null "http://127.0.0.1:$http_port/" && (exec 3<>/dev/tcp/127.0.0.1/$ssh_port) 2>/dev/null \
    && [ -s "$work/http.count" ] && [ -s "$work/sftp.count" ] && break
  sleep 0.1
done

sum_http() { awk '{ s += $1 } END { print s + 0 }' "$work/access.log"; }
# Bytes the relay passed to the client so far (first field of its count file).
received() { cut -d' ' -f1 "$work/$1.count"; }
connections() { cut -d' ' -f3 "$work/$1.count"; }
# The relay rewrites its count file when a connection closes: wait until the client's last one did.
settle() { sleep 0.5; }
http_url="http://127.0.0.1:$relay_http_port/grid500/"
sftp_url="sftp://benchhost$work/www/grid500/"
scan_env=(env -u SSH_AUTH_SOCK HOME="$work/home" XDG_CACHE_HOME="$work/home/cache" NETRC=/dev/null LIVEGRID_SSH_CONFIG="$work/ssh_config")
for run in $(seq "$RUNS"); do
  # `livegrid scan`: every file of the library probed, the JSON report written.
  before=$(received http); before_log=$(sum_http)
  "${scan_env[@]}" ".build/$CONFIG/livegrid" scan "$http_url" > "$work/scan-http.json"
  settle
  http_bytes=$(( $(received http) - before ))
  echo "BENCH scan http run $run: client received $http_bytes bytes (nginx \$bytes_sent $(( $(sum_http) - before_log )))"
  before=$(received sftp); before_conn=$(connections sftp)
  "${scan_env[@]}" ".build/$CONFIG/livegrid" scan "$sftp_url" > "$work/scan-sftp.json"
  settle
  sftp_bytes=$(( $(received sftp) - before ))
  echo "BENCH scan sftp run $run: client received $sftp_bytes bytes over $(( $(connections sftp) - before_conn )) SSH connections"
  python3 -c "import sys; h, s = int(sys.argv[1]), int(sys.argv[2]); print('BENCH scan ratio run %s: sftp/http = %.2f (target <= 1.5)' % (sys.argv[3], s / h))" \
    "$http_bytes" "$sftp_bytes" "$run"

  # The browser: time to names, pairing and the first thumbnail, and the bytes received until it quit.
  [ "${BROWSE:-1}" = 1 ] || continue
  before=$(received http)
  out=$(RUNS=1 python3 Benchmarks/remote-first-paint.py ".build/$CONFIG/livegrid" "$http_url" 500 1)
  settle
  echo "BENCH browse http run $run: ${out#*: } · client received $(( $(received http) - before )) bytes"
  before=$(received sftp)
  out=$(EXTRA_ENV="HOME=$work/home LIVEGRID_SSH_CONFIG=$work/ssh_config" \
        python3 Benchmarks/remote-first-paint.py ".build/$CONFIG/livegrid" "$sftp_url" 500 1)
  settle
  echo "BENCH browse sftp run $run: ${out#*: } · client received $(( $(received sftp) - before )) bytes"
done
