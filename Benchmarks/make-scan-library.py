#!/usr/bin/env python3
"""Makes a directory of N distinct media files for the scan benchmark.

Each file is a real fixture's head and tail (where all metadata lives: JPEG segments, HEIF meta, a MOV's
moov at the end, Motion Photo trailers) around a sparse hole, so 10,000 files cost little disk yet are
distinct inodes: a cold-cache run really reads every file.
SCAN_CLONE_HEAD / SCAN_CLONE_TAIL (bytes, default 262144 each) keep less of each fixture: 100,000 files with
24 KiB heads and 8 KiB tails (where the probes look: Exif, MakerNote, HEIF meta, a MOV's moov) take ~3 GB.
"""
import os, sys, uuid

HEAD = int(os.environ.get("SCAN_CLONE_HEAD", 256 * 1024))
TAIL = int(os.environ.get("SCAN_CLONE_TAIL", 256 * 1024))

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

TRAIN_ID = b"E905E6C6-C747-4805-942F-9904A0281F02"

def clone(src, dst, identifier=None):
    size = os.path.getsize(src)
    with open(src, "rb") as f:
        if size <= HEAD + TAIL:
            data = f.read()
            with open(dst, "wb") as o:
                o.write(data.replace(TRAIN_ID, identifier) if identifier else data)
            return
        head = f.read(HEAD)
        f.seek(size - TAIL)
        tail = f.read(TAIL)
    if identifier:
        # A real library has one identifier per pair: give each cloned pair its own (same length).
        head, tail = head.replace(TRAIN_ID, identifier), tail.replace(TRAIN_ID, identifier)
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
            ident = str(uuid.uuid4()).upper().encode()
            clone(still, os.path.join(dest, "IMG_%05d%s" % (i, os.path.splitext(still)[1].upper())), ident)
            clone(movie, os.path.join(dest, "IMG_%05d.MOV" % i), ident)
            made += 2
        else:
            src = singles[i % len(singles)]
            clone(src, os.path.join(dest, "PIC_%05d%s" % (i, os.path.splitext(src)[1])))
            made += 1
        i += 1

if __name__ == "__main__":
    main()
