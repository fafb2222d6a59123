#!/bin/sh
# CPU used by an idle browser: the event loop must sleep in poll() until something happens (issue 16.1).
#
#   Benchmarks/idle-cpu.sh [BINARY] [LIBRARY] [SECONDS]     (IDLE_ARGS: extra livegrid options, e.g. --graphics sixel)
#
# Opens LIBRARY (default: the demo library of `make demo-library`, recursively; else Tests/Fixtures) at
# 120x40 in a private tmux server, waits for the first complete grid (LIVEGRID_TRACE `grid-complete`) and
# for the screen to settle, then reads the process's utime+stime (and its waited-for children's) from
# /proc/PID/stat before and after SECONDS (default 60) of no input. Reports the CPU share and how often the
# loop woke meanwhile (LIVEGRID_TRACE `loop-wake` lines), plus the CPU of the helper processes livegrid keeps
# running (its children alive at the start of the window) and of the private tmux server. Goal: < 0.1 %.
# Pixel pictures inside tmux: IDLE_ARGS='--graphics sixel' (the tmux redraw watch runs then).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$here/.build/release/livegrid}
library=${2:-}
seconds=${3:-60}
[ -x "$binary" ] || { echo "build first: swift build -c release (no $binary)" >&2; exit 1; }
command -v tmux >/dev/null || { echo "tmux is not installed" >&2; exit 1; }
[ -r /proc/self/stat ] || { echo "needs /proc (Linux)" >&2; exit 1; }
recursive=""
if [ -z "$library" ]; then
    if [ -d "$here/.build/demo-library" ]; then library="$here/.build/demo-library"; recursive="--recursive"
    else library="$here/Tests/Fixtures"; fi
fi

work=$(mktemp -d /tmp/livegrid-idle.XXXXXX)
socket="livegrid-idle-$$"
cleanup() { tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT INT TERM
tmuxq() { tmux -L "$socket" -f /dev/null "$@"; }

trace="$work/trace.log"
tmuxq new-session -d -s idle -x 120 -y 40 \
    "env LIVEGRID_TRACE='$trace' XDG_CACHE_HOME='$work/cache' XDG_CONFIG_HOME='$work/config' TERM=tmux-256color '$binary' ${IDLE_ARGS:-} $recursive '$library'"
pid=$(tmuxq display-message -p -t idle '#{pane_pid}')
waited=0
until grep -q ' grid-complete' "$trace" 2>/dev/null; do
    sleep 0.1; waited=$((waited + 1))
    [ "$waited" -lt 600 ] || { echo "no complete grid within 60 s" >&2; exit 1; }
done
# Settle: the next page's pictures and any hint of movement finish before the window starts.
previous=""
while :; do
    sleep 2
    now=$(wc -l < "$trace")
    [ "$now" = "$previous" ] && break
    previous=$now
done

# /proc/PID/stat fields after "(comm)", which may hold spaces ("(tmux: client)"): state is $1, ppid $2,
# utime+stime+cutime+cstime $12-$15.
fields() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null; }
ticks() { fields "$1" | awk '{print $12 + $13 + $14 + $15} END { if (NR == 0) print 0 }'; }
# Helpers livegrid keeps running (the tmux watch's control-mode clients): their own CPU, per pid.
helpers() { for dir in /proc/[0-9]*; do [ "$(fields "${dir#/proc/}" | awk '{print $2}')" = "$pid" ] && echo "${dir#/proc/}"; done; true; }
helper_ticks() { total=0; for child in $1; do total=$((total + $(ticks "$child"))); done; echo "$total"; }
server=$(tmuxq display-message -p '#{pid}')
hz=$(getconf CLK_TCK)
children=$(helpers)
before=$(ticks "$pid"); helpers_before=$(helper_ticks "$children"); server_before=$(ticks "$server")
wakes_before=$(grep -c ' loop-wake ' "$trace" || true)
sleep "$seconds"
after=$(ticks "$pid"); helpers_after=$(helper_ticks "$children"); server_after=$(ticks "$server")
wakes_after=$(grep -c ' loop-wake ' "$trace" || true)
tmuxq send-keys -t idle q

echo "livegrid idle CPU: $library${recursive:+ (recursive)} ${IDLE_ARGS:-}, 120x40 tmux pane, $seconds s without input after the grid completed"
awk -v b="$before" -v a="$after" -v hz="$hz" -v s="$seconds" -v w=$((wakes_after - wakes_before)) \
    'BEGIN { printf "  cpu %d ticks of 1/%d s = %.3f %% of one core; loop wake-ups: %d\n", a - b, hz, (a - b) / hz / s * 100, w }'
awk -v b="$helpers_before" -v a="$helpers_after" -v hz="$hz" -v s="$seconds" -v n="$(echo $children | wc -w)" \
    'BEGIN { printf "  helper processes (%d, e.g. tmux -C): %d ticks = %.3f %%\n", n, a - b, (a - b) / hz / s * 100 }'
awk -v b="$server_before" -v a="$server_after" -v hz="$hz" -v s="$seconds" \
    'BEGIN { printf "  tmux server (answering livegrid): %d ticks = %.3f %%\n", a - b, (a - b) / hz / s * 100 }'
