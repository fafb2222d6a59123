// libFuzzer entry point for the media core's parsers. Not a SwiftPM target: Benchmarks/fuzz.sh compiles
// this file together with Sources/MediaFormats/*.swift using
// `swiftc -sanitize=fuzzer,address -parse-as-library`, so the parsers are instrumented directly.

/// Every input goes through the same door as a real file: sniffing, then the format's probe.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var limits = ParseLimits()
    // Small limits make the fuzzer reach the "limit exceeded" paths with small inputs too.
    limits.maxEntries = 256
    let fast = MediaProbe.probe(MemoryByteSource(bytes), limits: limits)
    // The probe-only walks must answer exactly as the full parsers (compared as text too: a NaN frame rate
    // is unequal to itself on both paths alike).
    let full = MediaProbe.probe(MemoryByteSource(bytes), limits: limits, path: .full)
    if fast != full, String(reflecting: fast) != String(reflecting: full) {
        fatalError("fast and full probes differ:\n\(fast)\n\(full)")
    }
    // How much is prefetched changes only the reads, never the answer: a 16-byte head makes every ISO BMFF
    // header past it take the top-level walk's tail read (`ISOBMFFTopLevel.tail`) and the JPEG walk refill.
    var smallHead = limits
    smallHead.headerProbeBytes = 16
    let tailed = MediaProbe.probe(MemoryByteSource(bytes), limits: smallHead)
    if tailed != fast, String(reflecting: tailed) != String(reflecting: fast) {
        fatalError("the probe depends on the prefetched head:\n\(tailed)\n\(fast)")
    }
    // The shared readers are also entered directly: HEIF hands them raw Exif and XMP items.
    _ = ExifReader.parse(tiff: bytes, fileOffset: 0, limits: limits)
    _ = XMPReader.parse(bytes, limits: limits)
    return 0
}
