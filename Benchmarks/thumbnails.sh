#!/usr/bin/env bash
# Thumbnail and `show` throughput of a release build, on hard links of the shared fixtures.
#   Benchmarks/thumbnails.sh [N]      (N photos per set, default 100)
# Needs ../shared/fixtures, chafa and timg. "cold" = empty freedesktop thumbnail cache (the OS page cache
# is warm for every tool alike: the fixtures are read once before timing).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-100}
BIN=.build/release/livegrid
FIX=../shared/fixtures
[ -x "$BIN" ] || swift build -c release >/dev/null
[ -d "$FIX" ] || { echo "thumbnails.sh: $FIX is absent" >&2; exit 1; }

WORK=$(mktemp -d /tmp/livegrid-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
link_set() { # name fixture...
    local dir="$WORK/$1"; shift; mkdir -p "$dir"; local i=0
    while [ $i -lt "$N" ]; do
        for f in "$@"; do [ $i -lt "$N" ] || break; ln "$FIX/$f" "$dir/$(printf %03d $i)-$(basename "$f")"; i=$((i+1)); done
    done
    cat "$dir"/* >/dev/null
}
now() { date +%s.%N; }
rate() { # label seconds count
    awk -v l="$1" -v s="$2" -v n="$3" 'BEGIN { printf "%-46s %7.2f s  %8.1f /s\n", l, s, n / s }'
}
timed() { # label count command...
    local label=$1 count=$2; shift 2
    local t0 t1; t0=$(now); "$@" >/dev/null 2>"$WORK/err" || true; t1=$(now)
    rate "$label" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$count"
}

link_set jpeg train.jpg
link_set heic-thumb iphone-se-still.heic
link_set heic-grid IMG_2927.HEIC
link_set mixed train.jpg samsung-still.jpeg microvideo-v1.jpeg motion-photo-v1.jpeg limitpoint/keyPhoto.jpg
link_set camera train.jpg microvideo-v1.jpeg motion-photo-v1.jpeg iphone-se-still.heic
link_set heic-mixed iphone-se-still.heic IMG_2927.HEIC motion-photo.heic
mkdir -p "$WORK/out"

echo "== thumbnails (single thread, 128 px box, $N files each)"
timed "12 MP JPEG, full decode"           "$N" "$BIN" thumbnail --force --size 128 --full-decode "$WORK"/jpeg/* -o "$WORK/out"
timed "12 MP JPEG, DCT-scaled decode"     "$N" "$BIN" thumbnail --force --size 128 --no-embedded "$WORK"/jpeg/* -o "$WORK/out"
timed "12 MP JPEG, Exif thumbnail"        "$N" "$BIN" thumbnail --force --size 128 "$WORK"/jpeg/* -o "$WORK/out"
timed "12 MP HEIC, full decode"           "$N" "$BIN" thumbnail --force --size 128 --no-embedded "$WORK"/heic-thumb/* -o "$WORK/out"
timed "12 MP HEIC, thumbnail item"        "$N" "$BIN" thumbnail --force --size 128 "$WORK"/heic-thumb/* -o "$WORK/out"
timed "12 MP HEIC grid (no thumbnail item)" "$N" "$BIN" thumbnail --force --size 128 "$WORK"/heic-grid/* -o "$WORK/out"

echo "== freedesktop cache (large 256 px), cold then warm"
export XDG_CACHE_HOME="$WORK/cache"
for set in jpeg heic-thumb; do
    timed "$set, cold cache" "$N" "$BIN" thumbnail --force --cache --size 256 "$WORK/$set"/* -o "$WORK/out"
    timed "$set, warm cache" "$N" "$BIN" thumbnail --force --cache --size 256 "$WORK/$set"/* -o "$WORK/out"
done

# The same files through chafa, timg and livegrid show at grid size (24x8 cells, symbols, truecolour), cold
# thumbnail cache (show reads fresh freedesktop thumbnails; the cache here is empty: --no-cache to be sure).
export TERM=xterm-256color COLORTERM=truecolor
compare() { # label set
    local label=$1 set=$2 T CHAFA TIMG LG
    echo "== $label: $N files at 24x8 cells, symbols, truecolour, cold cache"
    T=$(now); chafa --size 24x8 --format symbols "$WORK/$set"/* >/dev/null 2>&1 || true; CHAFA=$(awk -v a="$T" -v b="$(now)" 'BEGIN{print b-a}')
    T=$(now); timg -g24x8 -pq "$WORK/$set"/* >/dev/null 2>&1 || true; TIMG=$(awk -v a="$T" -v b="$(now)" 'BEGIN{print b-a}')
    T=$(now); "$BIN" show --no-cache --size 24x8 --format symbols --colors full "$WORK/$set"/* >/dev/null; LG=$(awk -v a="$T" -v b="$(now)" 'BEGIN{print b-a}')
    rate "chafa $(chafa --version | head -1 | awk '{print $NF}')" "$CHAFA" "$N"
    rate "timg" "$TIMG" "$N"
    rate "livegrid show" "$LG" "$N"
    awk -v c="$CHAFA" -v t="$TIMG" -v l="$LG" 'BEGIN { printf "livegrid is %.1fx faster than chafa, %.1fx faster than timg\n", c / l, t / l }'
}
compare "mixed 12 MP JPEGs (40 % without an Exif thumbnail)" mixed
compare "camera roll as phones write it (JPEG/HEIC with embedded thumbnails)" camera
compare "12 MP HEIC (2 of 3 without a thumbnail item)" heic-mixed
