#!/usr/bin/env bash
# sftp:// against http:// on loopback for the same 500-photo library (hard links of Tests/Fixtures/train.jpg):
# time to the names, to all items paired and to the first thumbnail of `livegrid URL` in a 160x50 tmux pane
# (Benchmarks/remote-first-paint.py), and for http the bytes nginx sent until then ($bytes_sent). sshd logs
# no byte counts to its -E file (internal-sftp logs through syslog): sftp bytes are not counted yet.
# Target: sftp within 1.5x of http.
# Needs nginx, sshd (openssh-server), tmux. CONFIG=release|debug (default release, as `make bench` builds).
set -euo pipefail
cd "$(dirname "$0")/.."
CONFIG=${CONFIG:-release}
RUNS=${RUNS:-3}
for tool in tmux /usr/sbin/nginx /usr/sbin/sshd; do
  command -v "$tool" >/dev/null || [ -x "$tool" ] || { echo "remote-sftp.sh: $tool missing (make test-deps)"; exit 0; }
done
[ -x ".build/$CONFIG/livegrid" ] || swift build -c "$CONFIG" >/dev/null
work=$(mktemp -d /tmp/livegrid-sftp-bench.XXXXXX)
cleanup() {
  kill -9 "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true
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
cat > "$work/ssh_config" <<CONF
Host benchhost
  HostName 127.0.0.1
  Port $ssh_port
  User $(id -un)
  IdentityFile $work/client_key
  UserKnownHostsFile $work/known_hosts
CONF
mkdir -p "$work/home"
setsid timeout -s KILL 900 /usr/sbin/sshd -f "$work/sshd_config" -D -E "$work/sshd.log" &
sshd_pid=$!
for _ in $(seq 100); do
  curl -s -o /dev/null "http://127.0.0.1:$http_port/" && (exec 3<>/dev/tcp/127.0.0.1/$ssh_port) 2>/dev/null && break
  sleep 0.1
done

sum_http() { awk '{ s += $1 } END { print s + 0 }' "$work/access.log"; }
for run in $(seq "$RUNS"); do
  before_http=$(sum_http)
  out=$(RUNS=1 python3 Benchmarks/remote-first-paint.py ".build/$CONFIG/livegrid" "http://127.0.0.1:$http_port/grid500/" 500 1)
  echo "BENCH http  run $run: ${out#*: } · server sent $(( $(sum_http) - before_http )) bytes"
  out=$(EXTRA_ENV="HOME=$work/home LIVEGRID_SSH_CONFIG=$work/ssh_config" \
        python3 Benchmarks/remote-first-paint.py ".build/$CONFIG/livegrid" "sftp://benchhost$work/www/grid500/" 500 1)
  echo "BENCH sftp  run $run: ${out#*: } · bytes not counted (see header)"
done
