#!/bin/bash
# Playback and picture bytes against timg and chafa, side by side in one run (issue 18.1-2).
#
#   Benchmarks/playback.sh [BINARY]
#
# 1. `livegrid play` and `timg -V` on the same movie at the same size, alternating, 3 rounds each; CPU is the
#    whole process's user+system time (/usr/bin/time) divided by the movie's frame count (timg decodes every
#    frame; livegrid counts dropped ones too), the median of the rounds. Movies: train.mov (1440x1080 VFR
#    H.264, 22 frames) and generated testsrc2 1080p30 (8 s) and 1080p60 (4 s) H.264 clips. Symbols,
#    COLORTERM=truecolor, output to /dev/null. Dropped frames, bytes per frame and the first-frame latency
#    come from `livegrid play --stats`.
# 2. Press-to-first-frame in the browser at 160x48 (tmux, LIVEGRID_TRACE "key play press" -> "first-frame-drawn").
# 3. Bytes of the browser's pictures in a 160x48 tmux pane (pipe-pane counts every byte the program writes):
#    a full paint of a screen of cached thumbnails and one-row scrolls, picture cells written directly
#    against LIVEGRID_CURSES_PICTURES=1 (curses draws them), in one run.
# 4. Bytes against chafa's own printer on the same canvas (same cells, same colour depth): the figures of
#    CellScreenWriterAgainstChafaTests (swift test, debug build).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$here/.build/release/livegrid}
[ -x "$binary" ] || { echo "build first: swift build -c release (no $binary)" >&2; exit 1; }
for tool in ffmpeg ffprobe timg tmux /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "$tool is not installed (make bench-deps)" >&2; exit 1; }
done
work=$(mktemp -d /tmp/livegrid-playback.XXXXXX)
socket="livegrid-playback-$$"
cleanup() { tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT INT TERM

fixtures=$here/../shared/fixtures
[ -f "$fixtures/train.mov" ] || fixtures=$here/Tests/Fixtures
ffmpeg -loglevel error -f lavfi -i testsrc2=size=1920x1080:rate=30:duration=8 -c:v libx264 -pix_fmt yuv420p -preset veryfast "$work/1080p30.mp4"
ffmpeg -loglevel error -f lavfi -i testsrc2=size=1920x1080:rate=60:duration=4 -c:v libx264 -pix_fmt yuv420p -preset veryfast "$work/1080p60.mp4"
movies="$fixtures/train.mov $work/1080p30.mp4 $work/1080p60.mp4"

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
cpu_of() { awk '{ printf "%.4f\n", $1 + $2 }' "$1"; }

echo "== playback, symbols, truecolor: livegrid play vs timg -V (alternating, median of 3; load $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%-12s %-7s %9s %9s %6s %10s %11s %11s\n' movie cells "lg ms/f" "timg ms/f" ratio dropped "bytes/frame" "first frame"
for movie in $movies; do
    frames=$(ffprobe -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$movie")
    for size in 80x24 160x48 200x60; do
        : > "$work/lg"; : > "$work/timg"; : > "$work/dropped"
        for round in 1 2 3; do
            COLORTERM=truecolor /usr/bin/time -f '%U %S' -o "$work/t" "$binary" play "$movie" --size "$size" --format symbols --stats \
                >/dev/null 2>"$work/stats"
            cpu_of "$work/t" >> "$work/lg"
            cp "$work/stats" "$work/stats.txt"
            awk '/frames shown/ { d=$5 } END { print d }' "$work/stats.txt" >> "$work/dropped"
            COLORTERM=truecolor /usr/bin/time -f '%U %S' -o "$work/t" timg -g"$size" -V "$movie" >/dev/null 2>&1
            cpu_of "$work/t" >> "$work/timg"
        done
        lg=$(median < "$work/lg"); tg=$(median < "$work/timg")
        bytes=$(awk '/bytes per frame/ { print $4 }' "$work/stats.txt")
        first=$(awk '/first frame after/ { print $4 " ms" }' "$work/stats.txt")
        printf '%-12s %-7s %9.2f %9.2f %5.2fx %10s %11s %11s\n' "$(basename "$movie" | cut -c1-12)" "$size" \
            "$(awk -v c="$lg" -v n="$frames" 'BEGIN { print c * 1000 / n }')" \
            "$(awk -v c="$tg" -v n="$frames" 'BEGIN { print c * 1000 / n }')" \
            "$(awk -v a="$lg" -v b="$tg" 'BEGIN { print (b > 0 ? a / b : 0) }')" \
            "$(paste -sd/ "$work/dropped")/$frames" "$bytes" "$first"
    done
done

tmuxq() { tmux -L "$socket" -f /dev/null "$@"; }
mkdir -p "$work/library" "$work/cache" "$work/config"
cp "$fixtures/train.jpg" "$fixtures/train.mov" "$work/library/"
echo "== browser press-to-first-frame, 160x48 pane, train.jpg + train.mov, 5 holds"
tmuxq new-session -d -s ui -x 160 -y 48 \
    "env LIVEGRID_TRACE='$work/trace' XDG_CACHE_HOME='$work/cache' XDG_CONFIG_HOME='$work/config' TERM=tmux-256color COLORTERM=truecolor '$binary' --no-motion '$work/library'"
sleep 3
for hold in 1 2 3 4 5; do
    i=0; while [ $i -lt 20 ]; do tmuxq send-keys -t ui Space; sleep 0.03; i=$((i + 1)); done
    sleep 1.5
done
tmuxq send-keys -t ui q; sleep 0.5; tmuxq kill-server 2>/dev/null
awk '/key play press/ { last=$1 } /playback-start hold/ { pressed=last; waiting=1 }
     /first-frame-drawn/ { if (waiting) { ms=($1-pressed)*1000; printf " %.0f", ms; sum+=ms; n++; waiting=0 } }
     /playback-end/ { if (match($0, /shown [0-9]+, dropped [0-9]+/)) d=d " [" substr($0, RSTART, RLENGTH) "]"; waiting=0 }
     END { if (n) printf " ms: mean %.0f ms over %d holds;%s\n", sum/n, n, d; else print "  no first frame traced" }' "$work/trace"

echo "== browser picture bytes, 160x48 pane, 72 cached thumbnails (4 camera stills repeated), truecolor"
mkdir -p "$work/grid"
i=0
for n in $(seq 1 18); do
    for f in train.jpg samsung-still.jpeg microvideo-v1.jpeg apple-no-identifier.jpg; do
        [ -f "$fixtures/$f" ] && cp "$fixtures/$f" "$work/grid/p$(printf %03d $i).${f##*.}"; i=$((i + 1))
    done
done
for mode in direct curses; do
    extra=""; [ $mode = curses ] && extra="LIVEGRID_CURSES_PICTURES=1"
    for pass in warm measure; do
        rm -f "$work/bytes"
        tmuxq new-session -d -s ui -x 160 -y 48 "sleep 0.3; env $extra XDG_CACHE_HOME='$work/cache' XDG_CONFIG_HOME='$work/config' TERM=tmux-256color COLORTERM=truecolor '$binary' --no-motion '$work/grid'"
        tmuxq pipe-pane -o -t ui "cat >> '$work/bytes'"
        sleep 6
        first=$(stat -c %s "$work/bytes")
        line="$mode: first paint $first B;"
        for key in Down Down Down Down Down; do
            before=$(stat -c %s "$work/bytes"); tmuxq send-keys -t ui "$key"; sleep 1.2
            line="$line $key +$(( $(stat -c %s "$work/bytes") - before ))"
        done
        tmuxq send-keys -t ui q; sleep 0.5; tmuxq kill-server 2>/dev/null
    done
    echo "  $line B (the 4th and 5th Down scroll the grid by one row of pictures)"
done

echo "== against chafa's printer on the same canvas (CellScreenWriterAgainstChafaTests)"
(cd "$here" && swift test --disable-swift-testing --filter 'TerminalGraphicsTests.CellScreenWriterAgainstChafaTests' 2>&1 | grep -E '^bytes|Executed' | sort -u)
