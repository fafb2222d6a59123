#!/usr/bin/env bash
# 100 camera-like JPEGs for Benchmarks/camera-jpegs.sh, generated (no download): 12 MP (4000x3000), 4:2:0,
# sensor-like noise so that they weigh what phone photos weigh (3-5 MB), each with a 160x120 Exif thumbnail
# inserted by exiftool as phones lay it out (IFD1), 10 of them progressive (jpegtran, lossless).
#   Benchmarks/make-camera-jpegs.sh DIR      (made once; kept while this script is unchanged)
set -euo pipefail
dir=$1
stamp="$dir/.made-by-$(md5sum "$0" | cut -c1-12)"
[ -f "$stamp" ] && exit 0
for tool in ffmpeg exiftool jpegtran; do
    command -v $tool >/dev/null || { echo "make-camera-jpegs.sh: $tool is missing (make bench-deps)" >&2; exit 1; }
done
rm -rf "$dir"; mkdir -p "$dir/thumbs"
# name prefix, count, lavfi source: three kinds of content, varied over time.
make_set() {
    local prefix=$1 count=$2 source=$3
    ffmpeg -v error -y -f lavfi -i "$source" -filter_complex \
        "[0]format=yuv420p,noise=alls=10:allf=t,split[a][b];[b]scale=160:120:flags=area[t]" \
        -map "[a]" -frames:v "$count" -q:v 3 "$dir/${prefix}%03d.jpg" \
        -map "[t]" -frames:v "$count" -q:v 5 "$dir/thumbs/${prefix}%03d.jpg"
}
make_set IMG_A 40 "testsrc2=size=4000x3000:rate=0.5"
make_set IMG_B 30 "mandelbrot=size=4000x3000:rate=2"
make_set IMG_C 30 "cellauto=size=4000x3000:rate=1:rule=110:random_fill_ratio=0.3,scale=4000x3000"
# A few progressive ones, as some apps and editors write them.
for f in "$dir"/IMG_A00{1,2,3,4}.jpg "$dir"/IMG_B00{1,2,3}.jpg "$dir"/IMG_C00{1,2,3}.jpg; do
    jpegtran -copy all -progressive -outfile "$f.tmp" "$f" && mv "$f.tmp" "$f"
done
exiftool -q -overwrite_original -Make=Generated -Model=Benchmark -Orientation=1 -n \
    '-ThumbnailImage<='"$dir"'/thumbs/%f.jpg' "$dir"/IMG_*.jpg
rm -rf "$dir/thumbs"
touch "$stamp"
