#!/usr/bin/env bash
# A shaped link on one machine: two network namespaces (lgsrv 192.0.2.1, lgcli 192.0.2.2) joined by linkemu.py
# (this kernel has no sch_netem, so tc cannot delay). The addresses exist only inside the two namespaces:
# nothing leaves the machine. Needs root and /dev/net/tun.
#   RATE=20000000 DELAY=0.025 BUF=250000 Benchmarks/slow-link/up.sh    (bits/s, seconds each way, drop-tail bytes)
# Change the shaping live with Benchmarks/slow-link/shape.sh RATE [DELAY BUF]; always end with down.sh (the
# benchmark does it from a trap, also on failure).
# Adapted from ../shared/tools/slow-link (the audit's copy): it fails if the namespaces already exist rather than
# reusing someone else's, keeps its state under $STATE, and waits for "ready" or reports the emulator's log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
STATE=${STATE:-/tmp/livegrid-slow-link}
RATE=${RATE:-20000000}; DELAY=${DELAY:-0.025}; BUF=${BUF:-250000}
[ "$(id -u)" = 0 ] || { echo "slow-link: needs root (network namespaces, TUN devices)" >&2; exit 2; }
[ -c /dev/net/tun ] || { echo "slow-link: /dev/net/tun is missing" >&2; exit 2; }
for ns in lgsrv lgcli; do
  if ip netns list | grep -qw "$ns"; then echo "slow-link: namespace $ns exists (another run? down.sh removes it)" >&2; exit 2; fi
done
mkdir -p "$STATE"
ip netns add lgsrv; ip netns add lgcli
for ns in lgsrv lgcli; do ip -n "$ns" link set lo up; done
echo "$RATE $DELAY $BUF" > "$STATE/link.ctl"
setsid python3 "$here/linkemu.py" "$RATE" "$DELAY" "$BUF" "$STATE/link.ctl" > "$STATE/linkemu.log" 2>&1 &
echo $! > "$STATE/linkemu.pid"
for _ in $(seq 100); do grep -q ready "$STATE/linkemu.log" 2>/dev/null && break; sleep 0.1; done
grep -q ready "$STATE/linkemu.log" || { echo "slow-link: the emulator did not start:" >&2; cat "$STATE/linkemu.log" >&2; exit 1; }
