#!/usr/bin/env python3
"""Makes a directory of N distinct media files for the scan benchmark.

Each file is a real fixture's head and tail (where all metadata lives: JPEG segments, HEIF meta, a MOV's
moov at the end, Motion Photo trailers) around a sparse hole, so 10,000 files cost little disk yet are
distinct inodes: a cold-cache run really reads every file.
"""
import os, sys

HEAD = TAIL = 256 * 1024

def sources(root):
    committed = os.path.join(root, "Tests", "Fixtures")
    shared = os.path.join(root, "..", "shared", "fixtures")
    pairs = [(os.path.join(committed, "train.jpg"), os.path.join(committed, "train.mov"))]
    singles = [os.path.join(committed, "motion-photo-v1.jpeg")]
    for name in ["IMG_2927.HEIC", "iphone-se-still.heic", "samsung-still.jpeg", "microvideo-v1.jpeg",
                 "motion-photo.heic", "apple-no-identifier.jpg"]:
        p = os.path.join(shared, name)
        if os.path.exists(p):
            singles.append(p)
    return pairs, singles

def clone(src, dst):
    size = os.path.getsize(src)
    with open(src, "rb") as f:
        if size <= HEAD + TAIL:
            data = f.read()
            with open(dst, "wb") as o:
                o.write(data)
            return
        head = f.read(HEAD)
        f.seek(size - TAIL)
        tail = f.read(TAIL)
    with open(dst, "wb") as o:
        o.write(head)
        o.seek(size - TAIL)
        o.write(tail)

def main():
    dest, count = sys.argv[1], int(sys.argv[2])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    pairs, singles = sources(root)
    os.makedirs(dest, exist_ok=True)
    if len([n for n in os.listdir(dest) if not n.startswith(".")]) >= count:
        return
    made = i = 0
    while made < count:
        if i % 3 != 2 and made + 2 <= count:
            still, movie = pairs[i % len(pairs)]
            clone(still, os.path.join(dest, "IMG_%05d%s" % (i, os.path.splitext(still)[1].upper())))
            clone(movie, os.path.join(dest, "IMG_%05d.MOV" % i))
            made += 2
        else:
            src = singles[i % len(singles)]
            clone(src, os.path.join(dest, "PIC_%05d%s" % (i, os.path.splitext(src)[1])))
            made += 1
        i += 1

if __name__ == "__main__":
    main()
