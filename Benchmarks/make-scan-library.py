#!/usr/bin/env python3
"""Makes a directory of N distinct media files for the scan benchmark.

Each file is a real fixture's head and tail (where all metadata lives: JPEG segments, HEIF meta, a MOV's
moov at the end, Motion Photo trailers) around a sparse hole, so 10,000 files cost little disk yet are
distinct inodes: a cold-cache run really reads every file.
SCAN_CLONE_HEAD / SCAN_CLONE_TAIL (bytes, default 262144 each) keep less of each fixture: 100,000 files with
24 KiB heads and 8 KiB tails (where the probes look: Exif, MakerNote, HEIF meta, a MOV's moov) take ~3 GB.
SCAN_FOLDERS=N spreads the files over N folders YYYY/MM (a pair stays in one folder), and gives each file a
capture date in its folder's month (the Exif and XMP dates of a still, the QuickTime creation date of a
movie, rewritten in place at the same length): a timeline of distinct files over N months, as a real
library's (issue 17 item 3), not 100,000 photos taken in the same second.
"""
import os, re, sys, uuid

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
FOLDERS = int(os.environ.get("SCAN_FOLDERS", 0))
EXIF_DATE = re.compile(rb"(?<![0-9])(19|20)[0-9]{2}:[0-9]{2}:[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}")
ISO_DATE = re.compile(rb"(?<![0-9])(19|20)[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}")

def redated(data, when):
    """`data` with every Exif-style and ISO-style date replaced by `when` (year, month, day, h, m, s)."""
    if when is None:
        return data
    y, mo, d, h, mi, se = when
    data = EXIF_DATE.sub(b"%04d:%02d:%02d %02d:%02d:%02d" % when, data)
    return ISO_DATE.sub(b"%04d-%02d-%02dT%02d:%02d:%02d" % when, data)

def clone(src, dst, identifier=None, when=None):
    size = os.path.getsize(src)
    with open(src, "rb") as f:
        if size <= HEAD + TAIL:
            data = f.read()
            with open(dst, "wb") as o:
                o.write(redated(data.replace(TRAIN_ID, identifier) if identifier else data, when))
            return
        head = f.read(HEAD)
        f.seek(size - TAIL)
        tail = f.read(TAIL)
    if identifier:
        # A real library has one identifier per pair: give each cloned pair its own (same length).
        head, tail = head.replace(TRAIN_ID, identifier), tail.replace(TRAIN_ID, identifier)
    head, tail = redated(head, when), redated(tail, when)
    with open(dst, "wb") as o:
        o.write(head)
        o.seek(size - TAIL)
        o.write(tail)

def main():
    dest, count = sys.argv[1], int(sys.argv[2])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    pairs, singles = sources(root)
    os.makedirs(dest, exist_ok=True)
    done = os.path.join(dest, ".complete")
    if os.path.exists(done) or not FOLDERS and len([n for n in os.listdir(dest) if not n.startswith(".")]) >= count:
        return
    made = i = 0
    while made < count:
        folder, when = dest, None
        if FOLDERS:
            f = i % FOLDERS
            folder = os.path.join(dest, "%04d/%02d" % (2000 + f // 12, 1 + f % 12))
            os.makedirs(folder, exist_ok=True)
            step = i // FOLDERS
            when = (2000 + f // 12, 1 + f % 12, 1 + step % 28, step // 28 % 24, step % 60, (step * 7) % 60)
        if i % 3 != 2 and made + 2 <= count:
            still, movie = pairs[i % len(pairs)]
            ident = str(uuid.uuid4()).upper().encode()
            clone(still, os.path.join(folder, "IMG_%05d%s" % (i, os.path.splitext(still)[1].upper())), ident, when)
            clone(movie, os.path.join(folder, "IMG_%05d.MOV" % i), ident, when)
            made += 2
        else:
            src = singles[i % len(singles)]
            clone(src, os.path.join(folder, "PIC_%05d%s" % (i, os.path.splitext(src)[1])), None, when)
            made += 1
        i += 1
    open(done, "w").close()

if __name__ == "__main__":
    main()
