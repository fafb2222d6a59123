#!/usr/bin/env bash
# Issue 15.6's goal, measured: over a generated set of damaged files (cuts at 10..95 % and byte flips of
# generated JPEG/PNG/GIF/WebP/HEIC pictures and of the small fixtures), every file ImageMagick's `convert`
# reads should get a picture from `livegrid thumbnail`. Prints the counts and lists any file ImageMagick
# reads that livegrid refuses (exit status 1 when there is one).
#   LIVEGRID  the binary (default .build/release/livegrid, else .build/debug/livegrid)
set -euo pipefail
cd "$(dirname "$0")/.."
livegrid="${LIVEGRID:-$( [ -x .build/release/livegrid ] && echo .build/release/livegrid || echo .build/debug/livegrid )}"
convert=$(command -v convert-im6.q16 || command -v convert)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/whole" "$work/broken"
ff() { ffmpeg -v error -y "$@" </dev/null; }
src=(-f lavfi -i "testsrc2=size=640x480")
ff "${src[@]}" -frames:v 1 -q:v 3 "$work/whole/gen.jpg"
ff "${src[@]}" -frames:v 1 "$work/whole/gen.png"
ff "${src[@]}" -frames:v 1 "$work/whole/gen.gif"
ff "${src[@]}" -frames:v 1 "$work/whole/gen.webp"
heif-enc -q 50 "$work/whole/gen.png" -o "$work/whole/gen.heic" >/dev/null 2>&1 || true
"$convert" "$work/whole/gen.png" -interlace JPEG "$work/whole/gen-im-progressive.jpg"
for f in Tests/Fixtures/motion-photo-v1.jpeg ../shared/fixtures/apple-no-identifier.jpg ../shared/fixtures/limitpoint/keyPhoto.jpg; do
    [ -f "$f" ] && cp "$f" "$work/whole/"
done
python3 - "$work/whole" "$work/broken" <<'PY'
import os, random, sys
whole, broken = sys.argv[1], sys.argv[2]
rng = random.Random(156)
for name in sorted(os.listdir(whole)):
    data = open(os.path.join(whole, name), "rb").read()
    for percent in range(10, 100, 5):
        open(os.path.join(broken, f"cut{percent:02d}-{name}"), "wb").write(data[: len(data) * percent // 100])
    for variant in range(8):
        flipped = bytearray(data)
        for _ in range(1 + variant):
            i = rng.randrange(64, len(flipped))
            flipped[i] = rng.randrange(256)
        open(os.path.join(broken, f"flip{variant}-{name}"), "wb").write(bytes(flipped))
PY
total=0; magick=0; shown=0; shown_damaged=0; both=0; missed=()
for f in "$work"/broken/*; do
    total=$((total + 1))
    im=0; lg=0
    # ImageMagick may warn and still write a picture: "reads" means it wrote one of at least 1x1 pixels (for
    # a JPEG cut inside its header it writes an empty 0x0 one).
    head=$("$convert" "$f[0]" ppm:- 2>/dev/null | head -c 24 | tr -d '\0' | tr '\n' ' ' || true)
    case "$head" in P6\ [1-9]*) im=1 ;; esac
    if "$livegrid" thumbnail "$f" -o "$work/out.png" --size 128 2>/dev/null; then lg=1; fi
    magick=$((magick + im)); shown=$((shown + lg))
    [ $im = 1 ] && [ $lg = 1 ] && both=$((both + 1))
    [ $im = 1 ] && [ $lg = 0 ] && missed+=("$(basename "$f")")
done
echo "damaged files: $total; ImageMagick reads $magick; livegrid shows $shown; read by both $both"
echo "read by ImageMagick but refused by livegrid: ${#missed[@]}"
for m in "${missed[@]}"; do echo "  $m"; done
[ ${#missed[@]} = 0 ]
