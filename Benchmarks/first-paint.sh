#!/bin/sh
# Time to the first complete grid and bytes sent to the terminal, measured through a real tmux pane.
#
#   Benchmarks/first-paint.sh [BINARY] [COUNT]
#
# Builds a directory of COUNT (default 1000) hard links to Tests/Fixtures/train.jpg (one inode, COUNT paths:
# every path is its own library item and its own thumbnail), runs livegrid at 120x40 in a private tmux
# server and reports:
#   - cold: empty thumbnail cache; warm: the same cache on a second run (freedesktop thumbnails on disk);
#     "first complete grid" = header shows every item and no visible cell still has its placeholder;
#   - bytes the program wrote for a full repaint (Ctrl-L) and for a one-row scroll (j on the last row),
#     recorded with `tmux pipe-pane -o`.
# Needs tmux; times are wall clock from launching the command, polled every 20 ms.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$here/.build/release/livegrid}
count=${2:-1000}
[ -x "$binary" ] || { echo "build first: swift build -c release (no $binary)" >&2; exit 1; }
command -v tmux >/dev/null || { echo "tmux is not installed" >&2; exit 1; }

work=$(mktemp -d /tmp/livegrid-bench.XXXXXX)
socket="livegrid-bench-$$"
cleanup() { tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT INT TERM
mkdir -p "$work/library" "$work/cache" "$work/config"
i=0
while [ "$i" -lt "$count" ]; do
    ln "$here/Tests/Fixtures/train.jpg" "$work/library/$(printf 'IMG_%04d.JPG' "$i")"
    i=$((i + 1))
done

now_ms() { date +%s%3N; }
tmuxq() { tmux -L "$socket" -f /dev/null "$@"; }

# Polls until the grid is complete; prints the elapsed milliseconds.
run_until_complete() {
    # CLOCK_MONOTONIC, the clock of LIVEGRID_TRACE: launch -> grid-complete without the 20 ms polling step.
    python3 -c 'import time; print(time.monotonic())' > "$work/launch-$1"
    start=$(now_ms)
    tmuxq new-session -d -s bench -x 120 -y 40 \
        "env LIVEGRID_TRACE='$work/trace-$1.log' XDG_CACHE_HOME='$work/cache' XDG_CONFIG_HOME='$work/config' TERM=tmux-256color '$binary' '$work/library'"
    while :; do
        screen=$(tmuxq capture-pane -p -t bench 2>/dev/null || true)
        if printf '%s' "$screen" | head -1 | grep -q "$count items" && ! printf '%s' "$screen" | grep -q '┌'; then
            break
        fi
        if [ $(( $(now_ms) - start )) -gt 60000 ]; then echo "timeout" >&2; break; fi
        sleep 0.02
    done
    echo $(( $(now_ms) - start ))
}

cold=$(run_until_complete cold)
tmuxq send-keys -t bench q; sleep 0.3; tmuxq kill-server 2>/dev/null || true
warm=$(run_until_complete warm)

# Bytes for a full repaint and a one-row scroll, from the warm session.
tmuxq pipe-pane -o -t bench "cat > '$work/redraw.bytes'"
tmuxq send-keys -t bench C-l; sleep 0.5
tmuxq pipe-pane -t bench
rows=$(tmuxq capture-pane -p -t bench | grep -c '▸\|^ IMG_\| IMG_' || true)
# Walk to the last visible row of the grid, then record one more step down (the grid scrolls one row).
tmuxq send-keys -t bench j; sleep 0.2; tmuxq send-keys -t bench j; sleep 0.2
tmuxq send-keys -t bench j; sleep 0.3
tmuxq pipe-pane -o -t bench "cat > '$work/scroll.bytes'"
tmuxq send-keys -t bench j; sleep 0.5
tmuxq pipe-pane -t bench
status=$(tmuxq capture-pane -p -t bench | tail -1 | sed 's/  */ /g')
tmuxq send-keys -t bench q

redraw=$(wc -c < "$work/redraw.bytes")
# Inside the program (LIVEGRID_TRACE): from the UI's start to the scan's end and to the first complete grid.
inside() { awk '$2=="ui-start"{s=$1} $2=="scan-finished"{f=$1} $2=="grid-complete"{g=$1}
               END { if (s && g) printf "scan %.0f ms, complete grid %.0f ms", (f-s)*1000, (g-s)*1000; else printf "n/a" }' "$1"; }
# From launching tmux to the trace's grid-complete (tmux's own start-up included).
launched() { awk -v l="$(cat "$work/launch-$1")" '$2=="grid-complete"{printf "%.0f ms", ($1-l)*1000}' "$work/trace-$1.log"; }
# --help: what every run pays before main (the codec libraries are opened later, on first decode).
startup=$( { /usr/bin/env time -f "%e" "$binary" --help >/dev/null; } 2>&1 | awk '{printf "%.0f", $1*1000}')
scroll=$(wc -c < "$work/scroll.bytes")
echo "livegrid first paint, $count photos (hard links to train.jpg), 120x40 tmux pane"
echo "  first complete grid, cold cache: ${cold} ms"
echo "  first complete grid, warm cache: ${warm} ms"
echo "    (launch to the trace's grid-complete, no polling step: cold $(launched cold), warm $(launched warm))"
echo "    (wall clock from launching tmux, polled every 20 ms; inside the program from its UI start:"
echo "     cold: $(inside "$work/trace-cold.log"); warm: $(inside "$work/trace-warm.log");"
echo "     process start-up (livegrid --help): ${startup} ms)"
echo "  full repaint (Ctrl-L): ${redraw} bytes"
echo "  one-row scroll (j past the last row): ${scroll} bytes"
echo "  (status after the scroll:${status})"
