#!/usr/bin/env bash
# Changes the running link's shaping: shape.sh RATE_BITS [DELAY_S BUF_BYTES]. linkemu.py reads the control file
# every 0.5 s; this waits a second so the next measurement runs on the new shape.
set -euo pipefail
STATE=${STATE:-/tmp/livegrid-slow-link}
echo "$1 ${2:-0.025} ${3:-$(( $1 / 80 ))}" > "$STATE/link.ctl"
sleep 1
