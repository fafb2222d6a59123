#!/usr/bin/env bash
# Makes the library `make run` opens for a newcomer: every kind of item livegrid knows, generated
# deterministically (fixed sources, seeds, identifiers and timestamps) from ffmpeg test sources, the committed
# fixtures, and livegrid's own `make-live` and `convert`:
#   Live Photos with JPEG and HEIC stills, JPEG and HEIC Motion Photos, LIVE OFF stills (movie missing),
#   plain stills in four Exif orientations, a PNG, videos, damaged (truncated) files, and a subfolder; and
#   real photographs the project may ship (a Live Photo, a Samsung JPEG, an iPhone HEIC; without location).
# With ../shared/fixtures beside the project (and DEMO_SHARED not 0) its real-world files are linked into
# `real-world/`. Nothing outside DIR is written; the committed fixtures are hard-linked or copied, never changed.
#
# usage: make-demo-library.sh DIR      (LIVEGRID=path/to/livegrid, default: the release build, else debug)
set -euo pipefail
dest="${1:?usage: make-demo-library.sh DIR}"
root="$(cd "$(dirname "$0")/.." && pwd)"
livegrid="${LIVEGRID:-}"
if [ -z "$livegrid" ]; then
  for candidate in "$root/.build/release/livegrid" "$root/.build/debug/livegrid"; do
    [ -x "$candidate" ] && { livegrid="$candidate"; break; }
  done
fi
[ -x "$livegrid" ] || { echo "make-demo-library: no livegrid binary (run swift build, or set LIVEGRID)" >&2; exit 1; }
for tool in ffmpeg heif-enc exiftool; do
  command -v "$tool" >/dev/null || { echo "make-demo-library: $tool is missing (make test-deps installs it)" >&2; exit 1; }
done

# Up to date when made by this very script from these fixtures: `make run` starts at once.
stamp="$(cat "$0" "$root"/Tests/Fixtures/* "$root"/Resources/demo/* | sha256sum | cut -c1-16)"
stamp+="-shared-$([ "${DEMO_SHARED:-1}" != 0 ] && [ -d "$root/../shared/fixtures" ] && echo yes || echo no)"
if [ "$(cat "$dest/.demo-library" 2>/dev/null)" = "$stamp" ]; then
  echo "demo library: $dest (up to date)"
  exit 0
fi
# DEST is replaced at the end: refuse anything that is not an earlier demo library (or empty).
if [ -e "$dest" ] && [ ! -f "$dest/.demo-library" ] && [ -n "$(ls -A "$dest" 2>/dev/null)" ]; then
  echo "make-demo-library: $dest exists and is not a demo library; not replacing it" >&2
  exit 1
fi

started=$SECONDS
work="$(mktemp -d "${TMPDIR:-/tmp}/livegrid-demo.XXXXXX")"
trap 'rm -rf "$work"' EXIT
lib="$work/library"            # built here, then moved into place: a half-made demo is never left at DEST
src="$work/sources"
mkdir -p "$lib/Holiday 2024" "$src"

# ffmpeg bit-exact: no encoder/version strings that change between machines' builds or runs.
ff() { ffmpeg -nostdin -hide_banner -v error -y "$@"; }
x264=(-c:v libx264 -preset veryfast -crf 26 -pix_fmt yuv420p -tag:v avc1 -fflags +bitexact -flags:v +bitexact -map_metadata -1)

# The pictures: ffmpeg's generative sources (never flat colours). life/cellauto are drawn small with fixed
# seeds and scaled up without smoothing so their cells stay crisp.
source_filter() {  # NAME W H
  local w=$2 h=$3
  case "$1" in
    testsrc2)   echo "testsrc2=s=${w}x${h}:r=30" ;;
    testsrc2b)  echo "testsrc2=s=${w}x${h}:r=30,hue=h=140:s=1.3" ;;
    mandelbrot) echo "mandelbrot=s=${w}x${h}:r=30:maxiter=128:start_scale=2.5:end_scale=0.6:end_pts=60" ;;
    mandelzoom) echo "mandelbrot=s=${w}x${h}:r=30:maxiter=300:start_x=-0.7453:start_y=0.1127:start_scale=0.02:end_scale=0.004:end_pts=60:outer=normalized_iteration_count" ;;
    life)       echo "life=s=$((w/6))x$((h/6)):r=30:seed=1907:ratio=0.3:mold=12:life_color=#ffd84d:death_color=#c02040:mold_color=#203060,scale=${w}:${h}:flags=neighbor" ;;
    lifeb)      echo "life=s=$((w/4))x$((h/4)):r=30:seed=42:ratio=0.12:mold=25:life_color=#7cf2ff:death_color=#3050ff:mold_color=#101018,scale=${w}:${h}:flags=neighbor" ;;
    cellauto)   echo "cellauto=s=$((w/4))x$((h/4)):r=30:rule=30:seed=7:random_fill_ratio=0.4:scroll=1:full=1,format=rgb24,lutrgb=r=val*0.95:g=val*0.55+40:b=val*0.2+70,scale=${w}:${h}:flags=neighbor" ;;
    cellautob)  echo "cellauto=s=$((w/4))x$((h/4)):r=30:rule=110:seed=3:random_fill_ratio=0.5:full=1,format=rgb24,lutrgb=r=val*0.2+30:g=val*0.8+20:b=val*0.6+60,scale=${w}:${h}:flags=neighbor" ;;
    *) echo "unknown source $1" >&2; return 1 ;;
  esac
}

# A 2-second camera-like movie, and its middle frame as a PNG (the still of a Live Photo shows that moment).
make_clip() {  # NAME SOURCE W H
  local name=$1 filter
  filter="$(source_filter "$2" "$3" "$4")"
  ff -f lavfi -i "$filter" -t 2 "${x264[@]}" "$src/$name.mov"
  ff -ss 1 -i "$src/$name.mov" -frames:v 1 -fflags +bitexact "$src/$name.png"
}
# A still only (no movie): frame FRAME of a source (life needs a few generations to look alive).
make_picture() {  # NAME SOURCE W H FRAME TRANSFORM
  local filter
  filter="$(source_filter "$2" "$3" "$4")"
  ff -f lavfi -i "$filter,trim=start_frame=$5:end_frame=$(($5 + 1))${6:+,$6}" -frames:v 1 -fflags +bitexact "$src/$1.png"
}
jpeg() { ff -i "$src/$1.png" -q:v 3 -fflags +bitexact "$src/$1.jpg"; }
heic() { heif-enc -q 55 "$src/$1.png" -o "$src/$1.heic" >/dev/null; }

# Runs the generation steps one per core (deterministic: each writes only its own files). Every job is
# waited for by its pid, so a failing step stops the script (set -e) instead of leaving a file out.
pids=()
cores="$(nproc)"
spawn() {
  "$@" &
  pids+=("$!")
  if [ "${#pids[@]}" -ge "$cores" ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
}
finish() { for pid in "${pids[@]}"; do wait "$pid"; done; pids=(); }

# --- sources -----------------------------------------------------------------------------------------------
spawn make_clip live1 testsrc2   720 540
spawn make_clip live2 mandelbrot 720 540
spawn make_clip live3 life       720 540
spawn make_clip live4 cellauto   720 540
spawn make_clip live5 testsrc2b  540 720      # portrait
spawn make_clip heic1 mandelzoom 720 540
spawn make_clip heic2 lifeb      540 720
spawn make_clip mot1  cellautob  720 540
spawn make_clip mot2  mandelbrot 540 720
spawn make_clip moth1 life       720 540
spawn make_clip moth2 testsrc2b  720 540
spawn make_clip hol1  lifeb      720 540
spawn make_clip hol2  mandelbrot 540 720
spawn make_clip hol3  cellautob  720 540
# Plain stills, stored the way a camera held sideways stores them: pixels turned, Exif Orientation says how
# to turn them back (6 = 90° clockwise to show, 8 = 90° counter-clockwise, 3 = 180°). Shown upright.
spawn make_picture still1 testsrc2   1600 1200 0  ""
spawn make_picture still6 mandelzoom 1200 1600 0  "transpose=cclock"
spawn make_picture still8 life       1200 1600 20 "transpose=clock"
spawn make_picture still3 cellautob  1600 1200 20 "hflip,vflip"
spawn make_picture png1   lifeb      1280 800  20 ""
spawn make_picture heicp  mandelbrot 1280 960  0  ""
spawn make_picture hol4   testsrc2b  1600 1200 0  ""
spawn make_picture off1   lifeb      720  540  20 ""      # LIVE OFF stills: their movie is deleted below
spawn make_picture off2   cellauto   720  540  20 ""
# A video (not a Live Photo: no identifier, longer, one with sound) in each folder.
# Both inputs cut at 4 s (not -shortest, whose cut depends on which input thread runs ahead).
spawn ff -t 4 -f lavfi -i "$(source_filter testsrc2 960 540)" -t 4 -f lavfi -i "sine=frequency=440:sample_rate=48000" \
  "${x264[@]}" -c:a aac -b:a 96k -flags:a +bitexact "$lib/VID_0601.mp4"
spawn ff -f lavfi -i "$(source_filter life 768 432)" -t 3 "${x264[@]}" "$lib/Holiday 2024/VID_0901.mp4"
finish

for n in live1 live2 live3 live4 live5 mot1 mot2 off1 hol1 hol2 hol3 still1 still6 still8 still3 hol4; do spawn jpeg "$n"; done
for n in heic1 heic2 moth1 moth2 off2 heicp; do spawn heic "$n"; done
finish

# Exif: capture dates (the grid and the info panel show them) and the plain stills' orientations, one exiftool
# run for all (perl starts once).
exif_args=()
i=0
for n in live1 live2 live3 live4 live5 mot1 mot2 off1 hol1 hol2 hol3 still1 still6 still8 still3 hol4; do
  i=$((i + 1))
  exif_args+=(-execute "-DateTimeOriginal=2024:06:$(printf %02d $((i % 28 + 1))) 1$((i % 10)):2$((i % 10)):00" "$src/$n.jpg")
done
exiftool -Orientation#=6 "$src/still6.jpg" -execute -Orientation#=8 "$src/still8.jpg" \
  -execute -Orientation#=3 "$src/still3.jpg" -execute -Orientation#=1 "$src/still1.jpg" "${exif_args[@]}" \
  -common_args -q -overwrite_original

# --- Live Photos (livegrid make-live: MakerNote + QuickTime content identifier, still-image-time track) -----
live() {  # STILL MOVIE OUTDIR NAME IDENTIFIER
  local ext="${1##*.}" stage="$work/stage-$4"
  mkdir -p "$stage"
  cp "$1" "$stage/$4.$ext"
  "$livegrid" make-live "$stage/$4.$ext" "$2" -o "$stage" --identifier "$5" >/dev/null
  mv "$stage/$4-live.${ext^^}" "$3/$4.${ext^^}"
  mv "$stage/$4-live.MOV" "$3/$4.MOV"
}
uuid() { printf '1C0FFEE0-DE30-4000-8000-%012d' "$1"; }
live "$src/live1.jpg"  "$src/live1.mov"  "$lib" IMG_0101 "$(uuid 101)"
live "$src/live2.jpg"  "$src/live2.mov"  "$lib" IMG_0102 "$(uuid 102)"
live "$src/live3.jpg"  "$src/live3.mov"  "$lib" IMG_0103 "$(uuid 103)"
live "$src/live4.jpg"  "$src/live4.mov"  "$lib" IMG_0104 "$(uuid 104)"
live "$src/live5.jpg"  "$src/live5.mov"  "$lib" IMG_0105 "$(uuid 105)"
live "$src/heic1.heic" "$src/heic1.mov"  "$lib" IMG_0201 "$(uuid 201)"
live "$src/heic2.heic" "$src/heic2.mov"  "$lib" IMG_0202 "$(uuid 202)"
live "$src/hol1.jpg"   "$src/hol1.mov"   "$lib/Holiday 2024" IMG_0801 "$(uuid 801)"
live "$src/hol2.jpg"   "$src/hol2.mov"   "$lib/Holiday 2024" IMG_0802 "$(uuid 802)"
# A real iPhone Live Photo (committed fixture, MIT), copied by livegrid's own export without its location
# (the fixture keeps it: tests read it). Never linked: the timestamps below must not reach committed files.
"$livegrid" export --strip-location --to "$lib" "$root/Tests/Fixtures/train.jpg" >/dev/null
# Real photographs to judge sharpness on (MIT, location already removed: Resources/demo/NOTICE.md).
cp "$root/Resources/demo/samsung-still.jpeg" "$root/Resources/demo/iphone-se-still.heic" "$lib/"

# --- LIVE OFF: a Live Photo still whose movie is gone ------------------------------------------------------
live "$src/off1.jpg"  "$src/live1.mov" "$lib" IMG_0401 "$(uuid 401)"
live "$src/off2.heic" "$src/live1.mov" "$lib" IMG_0402 "$(uuid 402)"
rm "$lib/IMG_0401.MOV" "$lib/IMG_0402.MOV"

# --- Motion Photos (livegrid convert --to motion: Google Motion Photo XMP, movie appended / in mpvd) --------
motion() {  # STILL MOVIE OUTDIR NAME IDENTIFIER
  local ext="${1##*.}" stage="$work/motion-$4"
  mkdir -p "$stage"
  live "$1" "$2" "$stage" "$4" "$5"
  "$livegrid" convert "$stage/$4.${ext^^}" --to motion -o "$stage" >/dev/null
  mv "$stage/$4-motion.$ext" "$3/$4.MP.${ext}"
}
motion "$src/mot1.jpg"   "$src/mot1.mov"  "$lib" PXL_20240612_0301 "$(uuid 301)"
motion "$src/mot2.jpg"   "$src/mot2.mov"  "$lib" PXL_20240612_0302 "$(uuid 302)"
motion "$src/moth1.heic" "$src/moth1.mov" "$lib" PXL_20240613_0311 "$(uuid 311)"
motion "$src/moth2.heic" "$src/moth2.mov" "$lib" PXL_20240613_0312 "$(uuid 312)"
motion "$src/hol3.jpg"   "$src/hol3.mov"  "$lib/Holiday 2024" PXL_20240720_0803 "$(uuid 803)"
cp "$root/Tests/Fixtures/motion-photo-v1.jpeg" "$lib/motion-photo-v1.jpeg"   # Apache-2.0, Google

# --- plain stills --------------------------------------------------------------------------------------------
mv "$src/still1.jpg" "$lib/IMG_0501.JPG"          # landscape, Orientation 1
mv "$src/still6.jpg" "$lib/IMG_0502.JPG"          # portrait, stored sideways (Orientation 6)
mv "$src/still8.jpg" "$lib/IMG_0503.JPG"          # portrait, stored sideways (Orientation 8)
mv "$src/still3.jpg" "$lib/IMG_0504.JPG"          # landscape, stored upside down (Orientation 3)
mv "$src/heicp.heic" "$lib/IMG_0505.HEIC"
mv "$src/png1.png"   "$lib/Screenshot 2024-06-14.png"
mv "$src/hol4.jpg"   "$lib/Holiday 2024/IMG_0804.JPG"

# --- damaged: files cut off, as an interrupted copy leaves them ---------------------------------------------
# The JPEG's headers are whole (scan sees nothing; the viewer draws the top half and marks it damaged); the
# HEIC loses its picture data, which scan already reports.
head -c "$(( $(stat -c %s "$src/live1.jpg") / 2 ))" "$src/live1.jpg" > "$lib/IMG_0701.JPG"
head -c "$(( $(stat -c %s "$lib/IMG_0505.HEIC") / 3 ))" "$lib/IMG_0505.HEIC" > "$lib/IMG_0702.HEIC"

# --- real-world fixtures, when ../shared is beside the project ----------------------------------------------
shared="$root/../shared/fixtures"
if [ "${DEMO_SHARED:-1}" != 0 ] && [ -d "$shared" ]; then
  mkdir -p "$lib/real-world"
  link() { ln -f "$1" "$2" 2>/dev/null || cp -f "$1" "$2"; }   # not touched below: links are fine
  for f in "$shared"/*.{jpg,jpeg,JPG,mov,MOV,heic,HEIC} "$shared"/limitpoint/*; do
    [ -f "$f" ] && link "$f" "$lib/real-world/$(basename "$f")"
  done
fi

# Fixed timestamps, one minute apart in name order, so every run (and every machine) makes the same library.
minute=0
while IFS= read -r -d '' f; do
  case "$f" in "$lib/real-world/"*) continue ;; esac
  minute=$((minute + 1))
  touch -h -d "2024-06-01 08:00:00 UTC + $minute minutes" "$f"
done < <(find "$lib" -mindepth 1 -not -name '.*' -print0 | LC_ALL=C sort -z)

echo "$stamp" > "$lib/.demo-library"
rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
mv "$lib" "$dest"
files=$(find "$dest" -type f -not -name '.*' | wc -l)
echo "demo library: $dest ($files files, made in $((SECONDS - started)) s)"
