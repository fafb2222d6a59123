#!/usr/bin/env bash
# Bytes of the first screen per pixel protocol (issue 28.2-3): livegrid on a recording pty
# (Benchmarks/fake-terminal.py, 10x20 px cells) over a library of real photos, until the grid is complete
# and the output has been quiet for a second; counts the pictures sent (each should go once) and compares
# with chafa 1.12 and timg on the same pictures at the same cell size, run in the same minutes.
#   picture-bytes.sh [LIVEGRID] [COLUMNS ROWS]     (LIBRARY=dir: that folder's photos instead, e.g. the slow-link
#   benchmark's screen; its movies are skipped by the peers)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
livegrid="${1:-$here/.build/debug/livegrid}"
columns="${2:-120}"; rows="${3:-52}"
fixtures="$here/../shared/fixtures"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
library="$work/library"; mkdir -p "$library"
# Real photos: the stills of ../shared/fixtures, twice under new names (16 pictures, all on the first
# screen at 120x52).
photos=()
for f in "$fixtures"/train.jpg "$fixtures"/limitpoint/keyPhoto.jpg "$fixtures"/samsung-still.jpeg \
         "$fixtures"/microvideo-v1.jpeg "$fixtures"/motion-photo-v1.jpeg "$fixtures"/IMG_2927.HEIC \
         "$fixtures"/iphone-se-still.heic "$fixtures"/motion-photo.heic; do
    [ -f "$f" ] && photos+=("$f")
done
[ ${#photos[@]} -gt 0 ] || { echo "no photos in $fixtures" >&2; exit 1; }
for copy in 1 2; do
    for f in "${photos[@]}"; do
        name="$(basename "$f")"; cp "$f" "$library/${copy}-${name}"
    done
done
if [ -n "${LIBRARY:-}" ]; then library="$LIBRARY"; fi
count() { python3 -c "import sys; print(open(sys.argv[1],'rb').read().count(sys.argv[2].encode().decode('unicode_escape').encode('latin1')))" "$1" "$2"; }
for mode in symbols sixels kitty iterm; do
    out="$work/$mode.bytes"; trace="$work/$mode.trace"; : > "$out"; : > "$trace"
    XDG_CACHE_HOME="$work/cache-$mode" LIVEGRID_TRACE="$trace" LIVEGRID_GRAPHICS="$mode" TERM=xterm-256color COLORTERM=truecolor \
        python3 "$here/Benchmarks/fake-terminal.py" "$out" "$columns" "$rows" "$livegrid" "$library" < /dev/null &
    pid=$!
    for _ in $(seq 600); do grep -q grid-complete "$trace" && break; sleep 0.1; done
    # Quiet for a second: every picture of the screen was written.
    last=-1; while [ "$(stat -c %s "$out")" != "$last" ]; do last="$(stat -c %s "$out")"; sleep 1; done
    pkill -TERM -P "$pid" || true; wait "$pid" 2>/dev/null || true
    case $mode in
        sixels) images=$(count "$out" '\x1bP0;1;0q'); [ "$images" = 0 ] && images=$(count "$out" 'q"1;1;') ;;
        kitty) images=$(count "$out" 'a=T') ;;
        iterm) images=$(count "$out" '1337;File=') ;;
        symbols) images=0 ;;
    esac
    pictures="$(python3 -c "
import re, sys
b = open(sys.argv[1], 'rb').read()
# Symbol pictures are written between save and restore cursor (DirectCellOutput); the rest is curses' UI.
pattern = {'sixels': rb'\x1bP[0-9;]*q.*?\x1b\\\\', 'kitty': rb'\x1b_G.*?\x1b\\\\', 'iterm': rb'\x1b\]1337;.*?\x07',
           'symbols': rb'\x1b7.*?\x1b8'}[sys.argv[2]]
print(sum(len(m) for m in re.findall(pattern, b, re.S)))" "$out" "$mode")"
    printf '%-7s livegrid first screen %dx%d: %9d bytes (%d in pictures), %3d images\n' "$mode" "$columns" "$rows" \
        "$(stat -c %s "$out")" "$pictures" "$images"
    cp "$out" "$work/last-$mode.bytes"
done
# The peers on the same pictures at the grid's cell size (kitty's c=/r= of the widest picture), on the same
# recording pty (10x20 px cells), each picture once per copy.
# (A picture gives only the cells it fills, c= or r=, kitty deriving the other: the widest and the tallest.)
cells="$(python3 -c "import re,sys; b=open(sys.argv[1],'rb').read(); print('%dx%d' % (max(map(int, re.findall(rb'[,;]c=(\d+)',b))), max(map(int, re.findall(rb'[,;]r=(\d+)',b)))))" "$work/last-kitty.bytes")"
peer() {   # name, command...: total bytes over every photo of the library
    local name="$1"; shift; local total=0
    for f in "$library"/*; do
        case $f in *.mov|*.MOV) continue ;; esac
        : > "$work/peer"
        TERM=xterm-256color COLORTERM=truecolor python3 "$here/Benchmarks/fake-terminal.py" "$work/peer" "$columns" "$rows" "$@" "$f" < /dev/null
        total=$((total + $(stat -c %s "$work/peer")))
    done
    printf '%-7s %-26s %9d bytes (cells %s)\n' "${name%% *}" "${name#* }" "$total" "$cells"
}
peer "symbols timg -pq" timg -pq -g"$cells"
peer "symbols chafa" chafa -f symbols --size "$cells"
peer "sixels chafa $(chafa --version | head -1 | awk '{print $3}')" chafa -f sixel --size "$cells"
peer "kitty chafa" chafa -f kitty --size "$cells"
peer "kitty timg --compress" timg -pk --compress -g"$cells"
peer "iterm chafa" chafa -f iterm --size "$cells"
peer "iterm timg" timg -pi -g"$cells"
