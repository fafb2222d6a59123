#ifndef LIVEGRID_CALLOCATOR_SHIM_H
#define LIVEGRID_CALLOCATOR_SHIM_H
// glibc's allocator tuning (mallopt), which Swift's Glibc module does not include.
#include <malloc.h>

// 1 when set, 0 when this C library has no such setting.
static inline int lg_fix_mmap_threshold(int bytes) {
#ifdef M_MMAP_THRESHOLD
    return mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void)bytes;
    return 0;
#endif
}
#endif
