/// JPEG stills: segments, Exif (APP1), XMP (APP1, standard and extended), Motion Photo trailers.
///
/// Reads the first `headerProbeBytes` in one read; only segments lying past them, the trailer footer and
/// the first bytes of a claimed movie cost further (small) reads.
public enum JPEGProbe {
    static let exifSignature: [UInt8] = Array("Exif".utf8) + [0]
    static let xmpSignature: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    static let app1: UInt8 = 0xE1
    /// The longest APP1 signature told apart (extended XMP's).
    static let signatureBytes = max(exifSignature.count, xmpSignature.count, JPEGExtendedXMP.signature.count)

    /// What the segment walk collected.
    struct Header {
        var pixelWidth: Int?
        var pixelHeight: Int?
        var exif: (tiff: [UInt8], fileOffset: UInt64)?
        var xmp: [UInt8]?
        var extendedXMP = JPEGExtendedXMP()
        var problems: [ParseProblem] = []
    }

    public static func probe(_ source: any ByteSource, limits: ParseLimits,
                             path: ProbePath = .fast) throws(MediaError) -> MediaInfo {
        var info = MediaInfo(format: .jpeg)
        let window = try SourceWindow(source: source, initialBytes: limits.headerProbeBytes)
        let header = try readHeader(window, limits: limits)
        info.pixelWidth = header.pixelWidth
        info.pixelHeight = header.pixelHeight
        info.problems += header.problems
        if let exif = header.exif {
            ExifReader.parse(tiff: exif.tiff, fileOffset: exif.fileOffset, limits: limits).apply(to: &info)
        }
        var xmp: XMPSummary?
        if let packet = header.xmp {
            info.hasXMP = true
            var summary = XMPReader.parse(packet, limits: limits, path: path)
            if let extended = header.extendedXMP.assemble(guid: summary.extendedXMPGUID, problems: &info.problems) {
                summary.merge(extended: XMPReader.parse(extended, limits: limits, path: path))
            }
            info.problems += summary.problems
            info.hasGPS = info.hasGPS || summary.hasGPS
            if info.orientation == nil { info.orientation = summary.orientation }
            if info.contentIdentifier == nil, let id = summary.contentIdentifier {
                info.contentIdentifier = id
                info.contentIdentifierSource = "xmp"
            }
            xmp = summary
        }
        info.embeddedMovie = MotionPhotoLocator.locate(source, xmp: xmp, limits: limits, problems: &info.problems)
        // try?: an end that cannot be read here (a remote file's head range, where the read only records what
        // is missing) is not judged; the whole probe must not fail for it (the head's thumbnail serves).
        if info.embeddedMovie == nil, (try? isCutShort(source)) == true {
            info.problems.append(ParseProblem(.warning, "jpeg", "no end-of-image marker (FF D9) at the end: the file is truncated"))
        }
        return info
    }

    /// A JPEG whose last bytes hold no EOI was cut (EOI cannot occur in entropy-coded data, FF is stuffed
    /// there): the verdict the decoder reaches, so that `scan` says "ends early" where `show` does (issue
    /// 31.7.2). Only the last 64 bytes are read; trailing padding and short trailers are tolerated, and a file
    /// ending in a Samsung trailer or holding a Motion Photo's movie (the caller checks) is not judged.
    static func isCutShort(_ source: any ByteSource) throws(MediaError) -> Bool {
        let size = source.size
        guard size >= 4 else { return true }
        let count = Int(min(size, 64))
        let end = try source.readExactly(at: size - UInt64(count), count: count)
        if end.suffix(4).elementsEqual(SamsungTrailer.footerMagic) { return false }
        return !zip(end, end.dropFirst()).contains { $0 == 0xFF && $1 == 0xD9 }
    }

    static func readHeader(_ window: SourceWindow, limits: ParseLimits) throws(MediaError) -> Header {
        var header = Header()
        var walker = JPEGSegmentWalker(window: window, limits: limits)
        do {
            try walker.walk { (segment: JPEGSegment, window: inout SourceWindow) throws(MediaError) in
                try read(segment, from: &window, into: &header, limits: limits)
            }
        } catch .io(let path, let errno) {
            throw MediaError.io(path: path, errno: errno)
        } catch {
            header.problems.append(ParseProblem(.error, "jpeg", error.description))
        }
        header.problems = walker.problems + header.problems
        if header.pixelWidth == nil {
            header.problems.append(ParseProblem(.warning, "jpeg", "no frame header (SOF): pixel size unknown"))
        }
        return header
    }

    static func read(_ segment: JPEGSegment, from window: inout SourceWindow, into header: inout Header,
                     limits: ParseLimits) throws(MediaError) {
        if JPEGSegmentWalker.isStartOfFrame(segment.marker) {
            guard header.pixelWidth == nil else { return }
            var frame = ByteReader(try window.bytes(at: segment.payload.offset, count: min(5, Int(segment.payload.length))))
            try frame.skip(1)  // sample precision
            let height = Int(try frame.readU16())
            let width = Int(try frame.readU16())
            // Height 0 means "defined by DNL later": unknown rather than zero.
            header.pixelWidth = width > 0 ? width : nil
            header.pixelHeight = height > 0 ? height : nil
            return
        }
        guard segment.marker == app1 else { return }
        // The signature decides what the payload is; then only the part after it is copied, once.
        let length = Int(segment.payload.length)
        let signature = try window.bytes(at: segment.payload.offset, count: min(length, signatureBytes))
        func body(after count: Int) throws(MediaError) -> [UInt8] {
            try window.bytes(at: segment.payload.offset + UInt64(count), count: length - count)
        }
        if signature.starts(with: exifSignature), length >= 6 {
            guard header.exif == nil else {
                header.problems.append(ParseProblem(.info, "jpeg/APP1", "second Exif segment at \(segment.markerOffset) ignored"))
                return
            }
            header.exif = (try body(after: 6), segment.payload.offset + 6)
        } else if signature.starts(with: xmpSignature) {
            guard header.xmp == nil else {
                header.problems.append(ParseProblem(.info, "jpeg/APP1", "second XMP packet at \(segment.markerOffset) ignored"))
                return
            }
            header.xmp = try body(after: xmpSignature.count)
        } else if signature.starts(with: JPEGExtendedXMP.signature) {
            header.extendedXMP.add(try body(after: JPEGExtendedXMP.signature.count), limits: limits,
                                   problems: &header.problems)
        }
    }
}
