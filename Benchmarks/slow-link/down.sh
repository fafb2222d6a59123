#!/usr/bin/env bash
# Stops linkemu.py (by the pid up.sh recorded) and removes the two namespaces. Safe to run twice.
STATE=${STATE:-/tmp/livegrid-slow-link}
if [ -f "$STATE/linkemu.pid" ]; then kill "$(cat "$STATE/linkemu.pid")" 2>/dev/null; rm -f "$STATE/linkemu.pid"; fi
ip netns del lgcli 2>/dev/null
ip netns del lgsrv 2>/dev/null
true
