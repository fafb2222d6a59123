#!/usr/bin/env python3
"""Evicts files from the page cache (posix_fadvise DONTNEED) so the next read is cold. No root needed."""
import os, sys
for root in sys.argv[1:]:
    for dirpath, _, names in os.walk(root):
        for n in names:
            try:
                fd = os.open(os.path.join(dirpath, n), os.O_RDONLY)
                os.fsync(fd) if False else None
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                os.close(fd)
            except OSError:
                pass
