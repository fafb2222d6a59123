#!/bin/sh
# Movie playback in the terminal: frame rate, drops, bytes and CPU per frame, and press-to-first-frame latency.
#
#   Benchmarks/video.sh [BINARY]
#
# Uses `livegrid play --stats` (release build by default) on
#   - Tests/Fixtures/train.mov (H.264 1440x1080, VFR, 22 frames, ~10.65 fps average, 1.23 s), and
#   - a generated 1080p30 5 s H.264 movie (ffmpeg -f lavfi testsrc2), made once per run,
# at 80x24 and 200x60 cells in symbols and at 80x24 in sixels, writing to /dev/null (the cost of livegrid
# alone) and, for realism, into a 200x60 tmux pane (the terminal parses every byte).
# Then the latency from a Space press to the first movie frame drawn in the browser, from the
# LIVEGRID_TRACE log ("key play press" -> "first-frame-drawn", both CLOCK_MONOTONIC), over 5 holds.
# Needs ffmpeg and tmux (the parts that need a missing tool are skipped with a note).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$here/.build/release/livegrid}
[ -x "$binary" ] || { echo "build first: swift build -c release (no $binary)" >&2; exit 1; }

work=$(mktemp -d /tmp/livegrid-video.XXXXXX)
socket="livegrid-video-$$"
cleanup() { tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT INT TERM

movies="$here/Tests/Fixtures/train.mov"
if command -v ffmpeg >/dev/null; then
    ffmpeg -loglevel error -f lavfi -i testsrc2=size=1920x1080:rate=30:duration=5 \
        -c:v libx264 -pix_fmt yuv420p -preset veryfast "$work/testsrc2-1080p30.mp4"
    movies="$movies $work/testsrc2-1080p30.mp4"
else
    echo "ffmpeg is not installed: only train.mov is measured"
fi

summary() {
    # One line from the --stats block: shown, dropped, fps, bytes/frame, cpu/frame, first frame.
    awk '
        /frames shown/ { shown=$3; sub(",", "", shown); dropped=$5; pct=$6 }
        /source fps/ { src=$3; sub(",", "", src); ach=$6 }
        /bytes per frame/ { bytes=$4 }
        /cpu per frame/ { cpu=$4 }
        /first frame after/ { first=$4 }
        END { printf "shown %s dropped %s %s%% | source %s fps achieved %s fps | %s B/frame | cpu %s ms/frame | first frame %s ms\n", shown, dropped, pct, src, ach, bytes, cpu, first }
    ' | tr -d '()'
}

echo "== livegrid play -> /dev/null (COLORTERM=truecolor)"
for movie in $movies; do
    for case in "80x24 symbols" "200x60 symbols" "80x24 sixels"; do
        set -- $case
        printf '%-24s %-7s %-8s ' "$(basename "$movie")" "$1" "$2"
        COLORTERM=truecolor "$binary" play "$movie" --size "$1" --format "$2" --stats 2>&1 >/dev/null | summary
    done
done

if ! command -v tmux >/dev/null; then echo "tmux is not installed: no pane or latency figures"; exit 0; fi
tmuxq() { tmux -L "$socket" -f /dev/null "$@"; }

echo "== livegrid play in a 200x60 tmux pane (TERM=tmux-256color, symbols)"
for movie in $movies; do
    for size in 80x24 200x60; do
        printf '%-24s %-7s %-8s ' "$(basename "$movie")" "$size" symbols
        tmuxq new-session -d -s play -x 200 -y 61 \
            "'$binary' play '$movie' --size $size --format symbols --stats 2>'$work/stats.txt'; tmux -L '$socket' wait-for -S played"
        tmuxq wait-for played
        tmuxq kill-session -t play 2>/dev/null || true
        summary < "$work/stats.txt"
    done
done

echo "== press-to-first-frame latency in the browser (120x40 pane, train.jpg + train.mov, 5 holds)"
mkdir -p "$work/library" "$work/cache" "$work/config"
cp "$here/Tests/Fixtures/train.jpg" "$here/Tests/Fixtures/train.mov" "$work/library/"
tmuxq new-session -d -s ui -x 120 -y 40 \
    "env LIVEGRID_TRACE='$work/trace' XDG_CACHE_HOME='$work/cache' XDG_CONFIG_HOME='$work/config' TERM=tmux-256color '$binary' --no-motion '$work/library'"
sleep 2
for hold in 1 2 3 4 5; do
    i=0
    while [ $i -lt 20 ]; do tmuxq send-keys -t ui Space; sleep 0.03; i=$((i + 1)); done
    sleep 1.5
done
tmuxq send-keys -t ui q
sleep 0.3
awk '
    /key play press/ { last=$1 }
    /playback-start hold/ { pressed=last; waiting=1 }
    /first-frame-drawn/ { if (waiting) { ms=($1-pressed)*1000; printf "  hold: %.1f ms\n", ms; sum+=ms; n++; if (ms>max) max=ms; waiting=0 } }
    /playback-end/ { waiting=0 }
    END { if (n) printf "  mean %.1f ms, max %.1f ms over %d holds\n", sum/n, max, n; else print "  no first frame traced" }
' "$work/trace"
grep -m1 '^[0-9.]* input' "$work/trace" | sed 's/^[0-9.]* /  hold source: /'
