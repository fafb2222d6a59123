#!/usr/bin/env bash
# `livegrid scan sftp://…` of one large folder on a loopback sshd (issue 32.9: 100,000 entries did not finish in
# 300 s). ENTRIES files (default 100,000): half tiny JPEG stills, half tiny QuickTime movies of the same base
# names (hard links of two files made by ffmpeg), so the figure is the cost per entry (listing, one header
# request per file, pairing), not bytes. Reports the wall time, the header requests, the SSH connections
# sshd accepted and the peak RSS, for a first scan and a second one (the library index keys local files by
# device and inode: remote probes are not kept, so the second costs the same).
# Target: well under 300 s for 100,000 entries. Needs sshd (openssh-server) and ffmpeg.
# CONFIG=release|debug (default release, as `make bench` builds); RUNS (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
CONFIG=${CONFIG:-release}
ENTRIES=${ENTRIES:-100000}
RUNS=${RUNS:-2}
for tool in /usr/sbin/sshd ffmpeg /usr/bin/time; do
  command -v "$tool" >/dev/null || [ -x "$tool" ] || { echo "remote-sftp-scan.sh: $tool missing (make bench-deps)"; exit 0; }
done
[ -x ".build/$CONFIG/livegrid" ] || swift build -c "$CONFIG" >/dev/null
work=$(mktemp -d /tmp/livegrid-sftp-scan.XXXXXX)
cleanup() {
  [ -n "${sshd_pid:-}" ] && kill -9 -- "-$sshd_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/many" "$work/home" /run/sshd

ffmpeg -loglevel error -f lavfi -i color=c=gray:s=64x48 -frames:v 1 -y "$work/small.jpg"
ffmpeg -loglevel error -f lavfi -i color=c=gray:s=64x48:d=0.2 -c:v mpeg4 -y "$work/small.mov"
python3 - "$work" "$ENTRIES" <<'PY'
import os, sys
work, entries = sys.argv[1], int(sys.argv[2])
for i in range(entries // 2):
    os.link(f"{work}/small.jpg", f"{work}/many/IMG_{i:06d}.JPG")
    os.link(f"{work}/small.mov", f"{work}/many/IMG_{i:06d}.MOV")
PY

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
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
LogLevel VERBOSE
Subsystem sftp internal-sftp
CONF
cat > "$work/ssh_config" <<CONF
Host benchhost
  HostName 127.0.0.1
  Port $ssh_port
  User $(id -un)
  IdentityFile $work/client_key
  UserKnownHostsFile $work/known_hosts
CONF
setsid timeout -s KILL 3600 /usr/sbin/sshd -f "$work/sshd_config" -D -E "$work/sshd.log" &
sshd_pid=$!
for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$ssh_port) 2>/dev/null && break; sleep 0.1; done

url="sftp://benchhost$work/many/"
for run in $(seq "$RUNS"); do
  logins_before=$(grep -c "Accepted publickey" "$work/sshd.log" || true)
  start=$(date +%s.%N)
  rm -f "$work/trace"
  env -u SSH_AUTH_SOCK LIVEGRID_TRACE="$work/trace" HOME="$work/home" XDG_CACHE_HOME="$work/home/cache" NETRC=/dev/null LIVEGRID_SSH_CONFIG="$work/ssh_config" \
    /usr/bin/time -f "%M" -o "$work/rss" timeout -s KILL 900 ".build/$CONFIG/livegrid" scan --stats "$url" \
    > "$work/scan.txt" 2> "$work/stats.txt" || { echo "BENCH sftp-scan run $run: FAILED"; tail -5 "$work/stats.txt"; exit 1; }
  seconds=$(python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$start" "$(date +%s.%N)")
  logins=$(( $(grep -c "Accepted publickey" "$work/sshd.log" || true) - logins_before ))
  reads=$(sed -n 's/.* \([0-9]*\) reads,.*/\1/p' "$work/stats.txt")
  cpu=$(sed -n 's/^.*scan CPU: \([0-9.]*\) s.*/\1/p' "$work/stats.txt")
  overlapped=$(sed -n 's/.*probes-while-listing=\([0-9]*\).*/\1/p' "$work/trace" | head -1)
  echo "BENCH sftp-scan run $run: $ENTRIES entries in $seconds s, $reads header requests (${overlapped:-?} begun while the listing arrived), $logins SSH logins," \
       "livegrid CPU $cpu s, peak RSS $(( $(cat "$work/rss") / 1024 )) MB, load $(cut -d' ' -f1 /proc/loadavg) · $(tail -1 "$work/scan.txt")"
done
