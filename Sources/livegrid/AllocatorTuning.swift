import CAllocator

/// glibc's allocator, set for a browser that frees big buffers all the time (whole-file reads of camera
/// JPEGs, decoded and scaled frames, a scan snapshot's sections) while it holds many small ones (a library's
/// facts, ~130 bytes per file).
///
/// glibc serves blocks of 128 KB and more with their own mmap, but raises that threshold to the size of any
/// such block that is freed (up to 32 MB), so after the first thumbnail the big buffers come from the heap,
/// between the library's small blocks, and the pages they leave stay resident. Fixing the threshold at its
/// usual 128 KB keeps big buffers out of the heap: on 100,000 files in 1,000 folders (60,000 items) the
/// browser's peak RSS went from 118-129 MB to 113-114 MB, and its spread with it (DECISIONS.md, "Memory per
/// item, fifth pass"). A user's own `MALLOC_MMAP_THRESHOLD_` wins.
enum AllocatorTuning {
    static let mmapThreshold: Int32 = 128 * 1024

    static func apply(environment: [String: String]) {
        guard environment["MALLOC_MMAP_THRESHOLD_"] == nil else { return }
        _ = lg_fix_mmap_threshold(mmapThreshold)
    }
}
