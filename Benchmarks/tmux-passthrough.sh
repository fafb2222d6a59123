#!/bin/sh
# Bytes of pixel pictures through tmux passthrough against symbols: a first paint and a one-row scroll.
#
#   Benchmarks/tmux-passthrough.sh [BINARY] [COUNT]
#
# COUNT (default 100) hard links to Tests/Fixtures/train.jpg; livegrid runs at 120x40 in a tmux pane
# (private server, allow-passthrough on) whose client runs in Benchmarks/fake-terminal.py: a pty with
# 10x20 px cells that records every byte and answers the probe like xterm -ti vt340 (DA1 with sixel,
# CSI 16 t), so `--graphics auto` really detects sixels through passthrough. Two byte counts:
#   - written: what livegrid writes to its pane (`tmux pipe-pane -O`): sequences wrapped for passthrough;
#   - received: what tmux sends its client, i.e. the terminal outside tmux (or the SSH link to it).
# Rows: auto (sixels through passthrough), --graphics kitty (forced: the recorder is no kitty), --graphics
# symbols, and for comparison auto sixels straight to the recorder without tmux.
# First paint = launch until LIVEGRID_TRACE logs grid-complete (every visible picture ready) and no byte
# arrived for 1.5 s; scroll = one more `j` once the selection is on the grid's last visible row.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$here/.build/release/livegrid}
count=${2:-100}
[ -x "$binary" ] || { echo "build first: swift build -c release (no $binary)" >&2; exit 1; }
for tool in tmux python3; do
    command -v "$tool" >/dev/null || { echo "$tool is not installed" >&2; exit 1; }
done

work=$(mktemp -d /tmp/livegrid-bench-tmux.XXXXXX)
socket=""
terminal_pid=""
cleanup() {
    [ -n "$terminal_pid" ] && kill "$terminal_pid" 2>/dev/null || true
    [ -n "$socket" ] && tmux -L "$socket" kill-server 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
mkdir -p "$work/library"
i=0
while [ "$i" -lt "$count" ]; do
    ln "$here/Tests/Fixtures/train.jpg" "$work/library/$(printf 'IMG_%04d.JPG' "$i")"
    i=$((i + 1))
done
printf 'set -g allow-passthrough on\n' > "$work/tmux.conf"
t() { tmux -L "$socket" "$@" 2>/dev/null; }
size() { if [ -f "$1" ]; then wc -c < "$1"; else echo 0; fi; }

# Waits until file $1 has not grown for 1.5 s (at most 90 s).
settle() {
    last=-1; same=0; waited=0
    while [ "$same" -lt 15 ] && [ "$waited" -lt 900 ]; do
        now=$(size "$1")
        if [ "$now" = "$last" ]; then same=$((same + 1)); else same=0; last=$now; fi
        sleep 0.1; waited=$((waited + 1))
    done
}

# measure LABEL GRAPHICS tmux|direct
measure() {
    label=$1; graphics=$2; via=$3
    name=$(echo "$label" | tr -c 'a-z0-9\n' '-')
    socket="livegrid-bench-tmux-$$-$name"
    received="$work/received-$name"; written="$work/written-$name"; trace="$work/trace-$name"
    run="env XDG_CACHE_HOME='$work/cache-$name' XDG_CONFIG_HOME='$work/config' LIVEGRID_TRACE='$trace'"
    run="$run '$binary' --graphics $graphics '$work/library'"
    if [ "$via" = tmux ]; then
        t -f "$work/tmux.conf" new-session -d -s bench -x 120 -y 40 "PS1='$ ' sh"
        env -u TMUX TERM=xterm-256color python3 "$here/Benchmarks/fake-terminal.py" "$received" 120 41 \
            tmux -L "$socket" attach -t bench </dev/null >/dev/null 2>&1 &
        terminal_pid=$!
        for _ in $(seq 100); do [ "$(t display -p -t bench '#{session_attached}')" = 1 ] && break; sleep 0.1; done
        t pipe-pane -O -t bench "cat > '$written'"
        sleep 0.5
        received0=$(size "$received")
        t send-keys -t bench "clear; exec $run" Enter
    else
        # No tmux: a detached tmux only types the keys; the recorder is livegrid's terminal.
        t -f /dev/null new-session -d -s bench -x 120 -y 41 \
            "env -u TMUX TERM=xterm-256color python3 '$here/Benchmarks/fake-terminal.py' '$received' 120 40 sh -c \"$run\""
        received0=0
    fi
    for _ in $(seq 1200); do grep -q grid-complete "$trace" 2>/dev/null && break; sleep 0.1; done
    settle "$received"
    first_received=$(( $(size "$received") - received0 ))
    first_written=$(size "$written"); [ "$via" = tmux ] || first_written=$first_received
    [ "$via" = tmux ] && status=$(t capture-pane -p -t bench | tail -1 | cut -c1-110) || status="(no tmux: not captured)"
    # Down to the last visible grid row (rows of captions), then one more step: the grid scrolls by one row.
    rows=$(( (40 - 2) / 11 ))
    [ "$via" = tmux ] && rows=$(t capture-pane -p -t bench | grep -c 'IMG_' || true)
    j=1
    while [ "$j" -lt "$rows" ]; do t send-keys -t bench j; sleep 0.3; j=$((j + 1)); done
    settle "$received"
    written0=$(size "$written"); received0=$(size "$received")
    t send-keys -t bench j
    sleep 0.3
    settle "$received"
    scroll_received=$(( $(size "$received") - received0 ))
    scroll_written=$(( $(size "$written") - written0 )); [ "$via" = tmux ] || scroll_written=$scroll_received
    # And back up: the grid scrolls back by one row to pictures sent before (kitty: placed by id; sixel:
    # the encoded picture is reused, the bytes sent again).
    received0=$(size "$received")
    # (Counted from the layout: the pane's capture also shows the selected name in the status bar.)
    back=$(( (40 - 2) / 11 )); j=0
    while [ "$j" -lt "$back" ]; do t send-keys -t bench k; sleep 0.3; j=$((j + 1)); done
    settle "$received"
    back_received=$(( $(size "$received") - received0 ))
    printf '  %-22s first paint: %9s written, %9s received;  one-row scroll: %8s written, %8s received; back: %8s received\n' \
        "$label" "$first_written" "$first_received" "$scroll_written" "$scroll_received" "$back_received"
    printf '      status: %s\n' "$status"
    t send-keys -t bench q
    sleep 0.5
    [ -n "$terminal_pid" ] && kill "$terminal_pid" 2>/dev/null || true
    terminal_pid=""
    t kill-server || true
    # A server that ended with its last session may leave its socket file behind.
    rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$socket"
    socket=""
}

echo "livegrid through tmux $(tmux -V | cut -d' ' -f2) passthrough, $count photos (hard links to train.jpg),"
echo "120x40 pane, 10x20 px cells, cold thumbnail cache; bytes livegrid wrote / bytes the outer terminal received"
measure "tmux, auto (sixels)" auto tmux
measure "tmux, kitty (forced)" kitty tmux
measure "tmux, symbols" symbols tmux
measure "no tmux, auto (sixels)" auto direct
measure "no tmux, kitty (forced)" kitty direct
measure "no tmux, symbols" symbols direct
