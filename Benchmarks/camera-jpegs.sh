#!/usr/bin/env bash
# CPU of livegrid show against timg and chafa on 100 camera-like 12 MP JPEGs (Benchmarks/make-camera-jpegs.sh:
# 160x120 Exif thumbnails, 10 progressive), at 24x12 and 40x20 cells, symbols and sixels, cold thumbnail cache.
#   Benchmarks/camera-jpegs.sh [ROUNDS]      (default 3; the tools alternate within each round)
# CPU = user + sys of the tool and its threads (/usr/bin/time), one invocation over all 100 files; the
# figure per tool is the median over the rounds, and the ratio is timg's (chafa's) CPU over livegrid's.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
BIN=.build/release/livegrid
[ -x "$BIN" ] || swift build -c release >/dev/null
for tool in timg chafa /usr/bin/time; do
    command -v $tool >/dev/null || { echo "camera-jpegs.sh: $tool is missing (make bench-deps)" >&2; exit 1; }
done
SET=.build/bench-camera-jpegs
Benchmarks/make-camera-jpegs.sh "$SET"
files=("$SET"/IMG_*.jpg)
cat "${files[@]}" >/dev/null    # the page cache is warm for every tool alike
WORK=$(mktemp -d /tmp/livegrid-camera.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
# No freedesktop thumbnails (show only reads them; an empty cache keeps every run cold).
export XDG_CACHE_HOME="$WORK/cache" TERM=xterm-256color COLORTERM=truecolor

cpu() { # command... -> prints user+sys seconds
    /usr/bin/time -f "%U %S" -o "$WORK/time" "$@" >"$WORK/out" 2>/dev/null || true
    awk '{ printf "%.3f\n", $1 + $2 }' "$WORK/time"
}
run_tool() { # tool cells format
    local tool=$1 cells=$2 format=$3
    case $tool in
        livegrid) cpu "$BIN" show --size "$cells" --format "$format" --colors full "${files[@]}" ;;
        timg)     cpu timg -g"$cells" -p"$([ "$format" = symbols ] && echo q || echo s)" "${files[@]}" ;;
        chafa)    cpu chafa --size "$cells" --format "$format" "${files[@]}" ;;
    esac
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "== ${#files[@]} camera-like 12 MP JPEGs ($(du -sh "$SET" | cut -f1)), 160x120 Exif thumbnails, cold cache"
echo "   CPU = user+sys for all files in one invocation, median of $ROUNDS alternating rounds; $(nproc) cores"
printf "%-8s %-8s %10s %10s %10s %12s %12s\n" cells format livegrid timg chafa "timg/lg" "chafa/lg"
for cells in 24x12 40x20; do
    for format in symbols sixels; do
        : >"$WORK/livegrid" ; : >"$WORK/timg"; : >"$WORK/chafa"
        for round in $(seq 1 "$ROUNDS"); do
            # Rotate the order each round so no tool always runs first (after another's cache use).
            case $((round % 3)) in
                1) order="livegrid timg chafa" ;; 2) order="timg chafa livegrid" ;; 0) order="chafa livegrid timg" ;;
            esac
            for tool in $order; do run_tool "$tool" "$cells" "$format" >>"$WORK/$tool"; done
        done
        lg=$(median <"$WORK/livegrid"); tg=$(median <"$WORK/timg"); ch=$(median <"$WORK/chafa")
        awk -v c="$cells" -v f="$format" -v l="$lg" -v t="$tg" -v h="$ch" \
            'BEGIN { printf "%-8s %-8s %9.2fs %9.2fs %9.2fs %11.1fx %11.1fx\n", c, f, l, t, h, t / l, h / l }'
    done
done
