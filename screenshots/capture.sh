#!/bin/sh
# Regenerates the text screenshots (tmux capture-pane -e: colours kept as ANSI escapes; view with `cat`).
#   screenshots/capture.sh [BINARY]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$here/.build/debug/livegrid}
work=$(mktemp -d /tmp/livegrid-shots.XXXXXX)
socket="livegrid-shots-$$"
trap 'tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/library"
for f in train.jpg train.mov motion-photo-v1.jpeg; do ln "$here/Tests/Fixtures/$f" "$work/library/$f"; done
printf '\377\330\377\341garbage' > "$work/library/broken.jpg"
t() { tmux -L "$socket" -f /dev/null "$@"; }
shot() { sleep "${2:-0.6}"; t capture-pane -e -p -t s > "$here/screenshots/$1.txt"; }
t new-session -d -s s -x 120 -y 40 "env XDG_CACHE_HOME='$work/cache' XDG_CONFIG_HOME='$work/config' TERM=tmux-256color '$binary' '$work/library'"
shot grid-120x40 2
t send-keys -t s l; shot grid-selection-moved 0.4
t send-keys -t s Enter; shot viewer 1.5
t send-keys -t s i; shot viewer-info 0.6
t send-keys -t s Escape; sleep 0.2; t send-keys -t s Escape; sleep 0.2; t send-keys -t s '?'; shot help 0.5
t send-keys -t s Escape; t resize-window -t s -x 60 -y 30; shot grid-60x30 1.5
t resize-window -t s -x 40 -y 12; shot grid-40x12 1.2
t resize-window -t s -x 30 -y 8; shot list-30x8 0.6
t send-keys -t s q
