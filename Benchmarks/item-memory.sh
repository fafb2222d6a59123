#!/bin/sh
# Memory per library item (issue 17 item 4): peak RSS of `livegrid scan -r` over N hard links to real camera
# stills in F folders, minus the peak RSS of the same command on an empty folder, divided by N.
#   Benchmarks/item-memory.sh [BINARY] [N] [F]
# The browser's peak RSS for the same library is in Benchmarks/library-first-paint.py (100000x1000).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/.build/release/livegrid}
count=${2:-100000}
folders=${3:-1000}
work=${BENCH_DIR:-$here/.build/bench/item-memory}
lib=$work/lib-$count-$folders
if [ ! -f "$lib/.complete" ]; then
  rm -rf "$lib"; mkdir -p "$lib" "$work/src"
  python3 - "$here" "$lib" "$count" "$folders" "$work/src" <<'PY'
import os, shutil, sys
here, root, count, folders, own = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
srcs = [os.path.join(here, "Tests/Fixtures/train.jpg"), os.path.join(here, "Tests/Fixtures/motion-photo-v1.jpeg")]
for name in ["IMG_2927.HEIC", "samsung-still.jpeg", "iphone-se-still.heic"]:
    p = os.path.join(here, "..", "shared", "fixtures", name)
    if os.path.exists(p): srcs.append(p)
copies = []
for s in srcs:
    c = os.path.join(own, os.path.basename(s)); shutil.copyfile(s, c); copies.append(c)
for i in range(count):
    src = copies[i % len(copies)]
    folder = os.path.join(root, "%04d/%02d" % (2000 + (i % folders) // 12, 1 + (i % folders) % 12))
    os.makedirs(folder, exist_ok=True)
    os.link(src, os.path.join(folder, "IMG_%06d%s" % (i, os.path.splitext(src)[1])))
open(os.path.join(root, ".complete"), "w").close()
PY
fi
mkdir -p "$work/empty"
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
peak() { XDG_CACHE_HOME=$cache /usr/bin/time -f %M "$bin" scan -r "$@" 2>&1 >/dev/null | tail -1; }
empty=$(peak --no-index "$work/empty")
probed=$(peak --no-index "$lib")
peak "$lib" >/dev/null   # fills the index
indexed=$(peak "$lib")
echo "item memory, $count files in $folders folders ($bin):"
echo "  empty folder            ${empty} KiB peak RSS"
echo "  every file probed       ${probed} KiB  -> $(( (probed - empty) * 1024 / count )) bytes per item"
echo "  from the index          ${indexed} KiB  -> $(( (indexed - empty) * 1024 / count )) bytes per item"
