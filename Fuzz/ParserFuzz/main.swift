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
    _ = MediaProbe.probe(MemoryByteSource(bytes), limits: limits)
    // The shared readers are also entered directly: HEIF hands them raw Exif and XMP items.
    _ = ExifReader.parse(tiff: bytes, fileOffset: 0, limits: limits)
    _ = XMPReader.parse(bytes, limits: limits)
    return 0
}
