#!/usr/bin/env bash
# Live Photo studio (issue 20): wall time of each edit and effect from the camera's 1440x1080 train pair
# (1.23 s, 22 frames) and from a generated 3 s 3840x2160 30 fps H.264 Live Photo (testsrc2 + sine, made by
# ffmpeg and make-live), with the release build; each figure is the median of RUNS runs (default 3).
set -euo pipefail
cd "$(dirname "$0")/.."
LIVEGRID=${LIVEGRID:-.build/release/livegrid}
RUNS=${RUNS:-3}
[ -x "$LIVEGRID" ] || { echo "studio bench: build first (make release)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/train" "$work/4k"
if [ -f ../shared/fixtures/train.jpg ]; then
  cp ../shared/fixtures/train.jpg ../shared/fixtures/train.mov "$work/train/"
else
  echo "studio bench: ../shared/fixtures absent, the train pair is skipped"
fi
ffmpeg -v error -f lavfi -i testsrc2=size=3840x2160:rate=30:duration=3 -f lavfi -i sine=duration=3 \
  -c:v libx264 -preset veryfast -g 30 -bf 0 -pix_fmt yuv420p -c:a aac -shortest -y "$work/4k/clip.mov"
ffmpeg -v error -ss 1.5 -i "$work/4k/clip.mov" -frames:v 1 -q:v 2 -y "$work/4k/clip.jpg"
"$LIVEGRID" make-live "$work/4k/clip.jpg" "$work/4k/clip.mov" --still-time 1.5 >/dev/null
rm "$work/4k/clip.jpg" "$work/4k/clip.mov"

# median wall seconds of RUNS runs of "$@" (outputs removed between runs)
median() {
  local times=()
  for _ in $(seq 1 "$RUNS"); do
    rm -rf "$work/out"; mkdir "$work/out"
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc)")
  done
  printf "%.2f\n" "$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p")"
}

printf '%-28s %10s %10s\n' "operation" "train" "4K 3 s"
row() {
  local label=$1; shift
  local a="-" b="-"
  [ -f "$work/train/train.jpg" ] && a=$(median "$@" "$work/train/train.jpg")
  b=$(median "$@" "$work/4k/clip-live.JPG")
  printf '%-28s %10s %10s\n' "$label" "$a" "$b"
}
row "edit --key-photo-at 0.5"   "$LIVEGRID" edit -o "$work/out" --key-photo-at 0.5
row "edit --trim 0:1 (copy)"    "$LIVEGRID" edit -o "$work/out" --trim 0:1
row "edit --trim 0.5:1 (enc)"   "$LIVEGRID" edit -o "$work/out" --trim 0.5:1 --exposure 0.01
row "edit --mute"               "$LIVEGRID" edit -o "$work/out" --mute
row "edit --crop 1:1 --exposure" "$LIVEGRID" edit -o "$work/out" --crop 1:1 --exposure 0.5
row "export --as loop"          "$LIVEGRID" export --to "$work/out" --as loop
row "export --as bounce"        "$LIVEGRID" export --to "$work/out" --as bounce
row "export --as gif"           "$LIVEGRID" export --to "$work/out" --as gif
row "export --as long-exposure" "$LIVEGRID" export --to "$work/out" --as long-exposure
echo "(seconds, median of $RUNS, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
