/// The marker segments of a JPEG up to its first scan, as ranges: what the writers need to replace one
/// segment and copy everything else (the entropy-coded data and any trailer) as source ranges.
///
/// Writer-side and minimal on purpose: the JPEG parser (formats-jpeg) interprets segments; this only
/// locates them. Stops at SOS, so a 20 MB scan is never read.
struct JPEGSegmentList {
    struct Segment {
        var marker: UInt8
        /// The whole segment, from the 0xFF marker byte to the end of its payload.
        var range: ByteRange
        /// The payload after the 2-byte length.
        var payload: ByteRange
    }
    var segments: [Segment] = []
    /// Where the SOS marker starts: everything from here on is copied untouched.
    var scanStart: UInt64

    static let exifSignature: [UInt8] = Array("Exif".utf8) + [0, 0]
    static let xmpSignature: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    /// Located by the parser's `JPEGSegmentWalker` (fill bytes, standalone markers, limits): the writer only
    /// keeps the ranges. Bytes the walker skips stay where they are, copied as part of the source ranges.
    init(_ source: any ByteSource, limits: ParseLimits = .default) throws(MediaError) {
        guard try source.read(at: 0, count: 2) == [0xFF, 0xD8] else { throw MediaError.unsupported("not a JPEG file (no SOI marker)") }
        let window = try SourceWindow(source: source, initialBytes: limits.headerProbeBytes)
        var walker = JPEGSegmentWalker(window: window, limits: limits)
        var found: [Segment] = []
        try walker.walk { segment, _ throws(MediaError) in
            found.append(Segment(marker: segment.marker,
                                 range: ByteRange(offset: segment.markerOffset, length: segment.payload.end - segment.markerOffset),
                                 payload: segment.payload))
        }
        guard let scanStart = walker.startOfScan else {
            let why = walker.problems.first.map { ": \($0.message)" } ?? ""
            throw MediaError.invalid("JPEG without image data (no SOS marker)\(why)")
        }
        self.segments = found
        self.scanStart = scanStart
    }

    /// The first APPn segment whose payload starts with `signature`, with its payload bytes.
    func first(marker: UInt8, signature: [UInt8], in source: any ByteSource) throws(MediaError) -> (Segment, [UInt8])? {
        for segment in segments where segment.marker == marker && segment.payload.length >= UInt64(signature.count) {
            let head = try source.readExactly(at: segment.payload.offset, count: signature.count)
            if head == signature {
                return (segment, try source.readExactly(at: segment.payload.offset, count: Int(segment.payload.length)))
            }
        }
        return nil
    }

    /// Where a new APP1 goes when the file has none: after SOI and any APP0 (JFIF/JFXX must come first).
    var insertionOffsetForAPP1: UInt64 {
        var offset: UInt64 = 2
        for segment in segments {
            guard segment.marker == 0xE0 else { break }
            offset = segment.range.end
        }
        return offset
    }

    /// A complete segment (marker, length, payload); throws when the payload exceeds the 64 KiB limit.
    static func segment(marker: UInt8, payload: [UInt8]) throws(MediaError) -> [UInt8] {
        guard payload.count <= 65533 else {
            throw MediaError.limitExceeded("a JPEG segment holds at most 65533 bytes; this one needs \(payload.count)")
        }
        return [0xFF, marker] + BigEndian.u16(UInt16(payload.count + 2)) + payload
    }

    /// The file with `replacing` segment swapped for `newSegment` (nil range = insert at `at`).
    static func assembly(source: any ByteSource, replacing range: ByteRange?, at insertion: UInt64,
                         with newSegment: [UInt8]) -> ByteAssembly {
        var assembly = ByteAssembly()
        let cut = range ?? ByteRange(offset: insertion, length: 0)
        assembly.append(range: ByteRange(offset: 0, length: cut.offset))
        assembly.append(newSegment)
        assembly.append(range: ByteRange(offset: cut.end, length: source.size - cut.end))
        return assembly
    }
}
