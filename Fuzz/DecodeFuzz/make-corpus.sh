#!/usr/bin/env bash
# Seeds for the decode fuzzer (Benchmarks/fuzz-decode.sh): small pictures and movies generated with ffmpeg
# and heif-enc (fast to decode, so the fuzzer runs many inputs per second), small re-encodings of every
# fixture, then truncations and byte flips of all of these and of every fixture in Tests/Fixtures and
# ../shared/fixtures (fixtures larger than MAX_LEN contribute their first MAX_LEN bytes and their cuts).
#   make-corpus.sh OUT_DIR [MAX_LEN]
set -euo pipefail
cd "$(dirname "$0")/../.."
out="$1"
maxlen="${2:-65536}"
work="$out.work"
rm -rf "$out" "$work"
mkdir -p "$out" "$work"

have() { command -v "$1" >/dev/null 2>&1; }
if have ffmpeg; then
    ff() { ffmpeg -v error -y "$@" </dev/null; }
    src=(-f lavfi -i "testsrc2=size=64x48:rate=10")
    ff "${src[@]}" -frames:v 1 "$work/gen-64x48.jpg"
    ff "${src[@]}" -frames:v 1 -pix_fmt yuvj444p "$work/gen-444.jpg"
    ff "${src[@]}" -frames:v 1 -pix_fmt gray "$work/gen-gray.jpg"
    ff "${src[@]}" -frames:v 1 "$work/gen-64x48.png"
    ff "${src[@]}" -frames:v 1 -pix_fmt rgba "$work/gen-rgba.png"
    ff "${src[@]}" -frames:v 1 -pix_fmt pal8 "$work/gen-pal8.png"
    ff "${src[@]}" -frames:v 3 "$work/gen-anim.gif"
    ff "${src[@]}" -frames:v 1 "$work/gen-64x48.webp"
    ff "${src[@]}" -frames:v 1 -lossless 1 "$work/gen-lossless.webp"
    ff "${src[@]}" -frames:v 1 "$work/gen-64x48.tiff"
    ff "${src[@]}" -frames:v 1 "$work/gen-64x48.bmp"
    ff "${src[@]}" -frames:v 5 -c:v libx264 -pix_fmt yuv420p "$work/gen-h264.mov"
    ff "${src[@]}" -frames:v 5 -c:v libx264 -pix_fmt yuv420p "$work/gen-h264.mp4"
    ff "${src[@]}" -frames:v 3 -c:v libx265 -x265-params log-level=none -tag:v hvc1 "$work/gen-hevc.mov" || true
    # The fixtures, small: the same codecs and camera settings at a fuzzable size.
    for f in Tests/Fixtures/*.jpg Tests/Fixtures/*.jpeg ../shared/fixtures/*.jpg ../shared/fixtures/*.jpeg; do
        [ -f "$f" ] && ff -i "$f" -vf scale=80:-2 -frames:v 1 "$work/small-$(basename "$f" | tr . -).jpg" || true
    done
    for f in Tests/Fixtures/*.mov ../shared/fixtures/*.mov ../shared/fixtures/limitpoint/*.mov; do
        [ -f "$f" ] && ff -i "$f" -vf scale=64:-2 -frames:v 3 -an -c:v libx264 "$work/small-$(basename "$f" | tr . -).mov" || true
    done
fi
# Progressive JPEGs (one DC scan per component, then the AC scans; also 4:4:4 and grey) for CJPEGScans, the
# buffered-image path that stops after the DC scans: ffmpeg's encoder writes baseline only.
if have convert && [ -f "$work/gen-64x48.png" ]; then
    convert "$work/gen-64x48.png" -interlace Plane -quality 80 "$work/prog-420.jpg" || true
    convert "$work/gen-64x48.png" -interlace Plane -sampling-factor 1x1 "$work/prog-444.jpg" || true
    convert "$work/gen-64x48.png" -interlace Plane -colorspace Gray "$work/prog-gray.jpg" || true
    convert "$work/gen-64x48.png" -resize 160x120 -interlace Plane "$work/prog-160.jpg" || true
fi
if have heif-enc && [ -f "$work/gen-64x48.png" ]; then
    heif-enc -q 50 "$work/gen-64x48.png" -o "$work/gen-64x48.heic" >/dev/null 2>&1 || true
    heif-enc -q 50 --thumb 32 "$work/gen-64x48.png" -o "$work/gen-thumb.heic" >/dev/null 2>&1 || true
fi

python3 - "$out" "$maxlen" "$work"/* Tests/Fixtures/* ../shared/fixtures/* ../shared/fixtures/*/* <<'PY'
import os, random, sys
out, maxlen, paths = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
rng = random.Random(15)  # reproducible corpus
count = 0
def put(name, data):
    global count
    if data:
        with open(os.path.join(out, name), "wb") as f:
            f.write(data[:maxlen])
        count += 1
for path in paths:
    if not os.path.isfile(path) or path.endswith(".md"):
        continue
    data = open(path, "rb").read()
    name = os.path.basename(path).replace(" ", "_")
    put(f"whole-{name}", data)
    # Truncations: at fractions of the file (or of its first MAX_LEN bytes) and just after the header.
    length = min(len(data), maxlen)
    for percent in (5, 25, 50, 60, 75, 90, 99):
        put(f"cut{percent}-{name}", data[: max(1, length * percent // 100)])
    put(f"cut-1-{name}", data[: length - 1])
    # Byte flips: a few bytes each, in the header (first 1 KiB) and anywhere.
    for variant in range(4):
        flipped = bytearray(data[:length])
        window = min(len(flipped), 1024) if variant % 2 == 0 else len(flipped)
        for _ in range(1 + variant):
            i = rng.randrange(window)
            flipped[i] ^= 1 << rng.randrange(8)
        put(f"flip{variant}-{name}", bytes(flipped))
print(f"make-corpus: {count} seeds in {out}")
PY
rm -rf "$work"
