import MediaFormats

/// A compact binary form of `MediaInfo` for the index: JSON through Codable cost about 30 µs per record,
/// which a 100,000-file library pays on every open; this is a plain tagged byte layout decoded in about 1 µs.
/// Layout: version byte, then each field as a tag byte and its value, in any order; unknown tags end the
/// decode with nil (the row is then probed again, never trusted half-read).
public enum ProbeRecord {
    static let version: UInt8 = 1

    private enum Tag: UInt8 {
        case format = 1, pixelWidth, pixelHeight, orientation, rotation, mirrored, contentIdentifier,
             contentIdentifierSource, livePhotoVideoIndex, cameraMake, cameraModel, captureDate, captureTimeZone,
             hasGPS, lensMake, lensModel, exposureTime, fNumber, iso, focalLength, focalLengthIn35mm, duration,
             videoCodec, audioCodec, frameCount, frameRate, stillImageTime, vitalityScore, exifThumbnail,
             thumbnailWidth, thumbnailHeight, embeddedMovie, hasXMP, problem
    }

    public static func encode(_ info: MediaInfo) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(info, appendingTo: &bytes)
        return bytes
    }

    /// The record appended to `bytes` (a scan snapshot writes 100,000 of them into one buffer).
    public static func encode(_ info: MediaInfo, appendingTo bytes: inout [UInt8]) {
        var w = Writer(bytes: bytes)
        bytes = []
        defer { bytes = w.bytes }
        w.bytes.append(version)
        w.tag(.format); w.string(info.format.rawValue)
        if let v = info.pixelWidth { w.tag(.pixelWidth); w.int(v) }
        if let v = info.pixelHeight { w.tag(.pixelHeight); w.int(v) }
        if let v = info.orientation { w.tag(.orientation); w.int(v) }
        if let v = info.rotation { w.tag(.rotation); w.int(v) }
        if let v = info.mirrored { w.tag(.mirrored); w.bytes.append(v ? 1 : 0) }
        if let v = info.contentIdentifier { w.tag(.contentIdentifier); w.string(v) }
        if let v = info.contentIdentifierSource { w.tag(.contentIdentifierSource); w.string(v) }
        if let v = info.livePhotoVideoIndex { w.tag(.livePhotoVideoIndex); w.u64(v) }
        if let v = info.cameraMake { w.tag(.cameraMake); w.string(v) }
        if let v = info.cameraModel { w.tag(.cameraModel); w.string(v) }
        if let v = info.captureDate { w.tag(.captureDate); w.string(v) }
        if let v = info.captureTimeZone { w.tag(.captureTimeZone); w.string(v) }
        if info.hasGPS { w.tag(.hasGPS) }
        if let v = info.lensMake { w.tag(.lensMake); w.string(v) }
        if let v = info.lensModel { w.tag(.lensModel); w.string(v) }
        if let v = info.exposureTime { w.tag(.exposureTime); w.rational(v) }
        if let v = info.fNumber { w.tag(.fNumber); w.rational(v) }
        if let v = info.iso { w.tag(.iso); w.int(v) }
        if let v = info.focalLength { w.tag(.focalLength); w.rational(v) }
        if let v = info.focalLengthIn35mm { w.tag(.focalLengthIn35mm); w.int(v) }
        if let v = info.duration { w.tag(.duration); w.double(v) }
        if let v = info.videoCodec { w.tag(.videoCodec); w.string(v) }
        if let v = info.audioCodec { w.tag(.audioCodec); w.string(v) }
        if let v = info.frameCount { w.tag(.frameCount); w.int(v) }
        if let v = info.frameRate { w.tag(.frameRate); w.double(v) }
        if let v = info.stillImageTime { w.tag(.stillImageTime); w.double(v) }
        if let v = info.vitalityScore { w.tag(.vitalityScore); w.double(v) }
        if let v = info.exifThumbnail { w.tag(.exifThumbnail); w.u64(v.offset); w.u64(v.length) }
        if let v = info.thumbnailWidth { w.tag(.thumbnailWidth); w.int(v) }
        if let v = info.thumbnailHeight { w.tag(.thumbnailHeight); w.int(v) }
        if let v = info.embeddedMovie {
            w.tag(.embeddedMovie); w.string(v.kind.rawValue); w.u64(v.range.offset); w.u64(v.range.length)
            w.bytes.append(v.presentationTimestampUs == nil ? 0 : 1)
            w.u64(UInt64(bitPattern: v.presentationTimestampUs ?? 0))
        }
        if info.hasXMP { w.tag(.hasXMP) }
        for problem in info.problems {
            w.tag(.problem); w.string(problem.severity.rawValue); w.string(problem.context); w.string(problem.message)
        }
    }

    static func decode(_ bytes: UnsafeRawBufferPointer) -> MediaInfo? {
        var memo = SharedNamesMemo()
        return decode(bytes, memo: &memo)
    }

    /// `memo`: the name boxes the records decoded before this one set (a folder's files repeat them).
    public static func decode(_ bytes: UnsafeRawBufferPointer, memo: inout SharedNamesMemo) -> MediaInfo? {
        var r = Reader(bytes: bytes)
        guard r.byte() == version else { return nil }
        // Straight into the library's compact form (`MediaInfo.CompactBuilder`): no full box per record, and
        // an identifier or a date never becomes a heap string (issue 17 items 3 and 4). The shared names are
        // set once at the end: one look-up per record, not one per name.
        var info = MediaInfo.CompactBuilder()
        while !r.atEnd {
            guard let raw = r.byte(), let tag = Tag(rawValue: raw) else { return nil }
            switch tag {
            case .format:
                guard let v = r.string().flatMap(ContainerFormat.init(rawValue:)) else { return nil }
                info.setFormat(v)
            case .pixelWidth: r.int().map { info.setInt(.pixelWidth, $0) }
            case .pixelHeight: r.int().map { info.setInt(.pixelHeight, $0) }
            case .orientation: r.int().map { info.setInt(.orientation, $0) }
            case .rotation: r.int().map { info.setInt(.rotation, $0) }
            case .mirrored: r.byte().map { info.setMirrored($0 != 0) }
            case .contentIdentifier: r.textBytes().map { info.setContentIdentifier(utf8: $0) }
            case .contentIdentifierSource: info.names.contentIdentifierSource = r.string()
            case .livePhotoVideoIndex: r.u64().map { info.setWord(.livePhotoVideoIndex, $0) }
            case .cameraMake: info.names.cameraMake = r.string()
            case .cameraModel: info.names.cameraModel = r.string()
            case .captureDate: r.textBytes().map { info.setCaptureDate(utf8: $0) }
            case .captureTimeZone: info.names.captureTimeZone = r.string()
            case .hasGPS: info.setHasGPS()
            case .lensMake: info.names.lensMake = r.string()
            case .lensModel: info.names.lensModel = r.string()
            case .exposureTime: r.rational().map { info.setRational(.exposureTime, $0) }
            case .fNumber: r.rational().map { info.setRational(.fNumber, $0) }
            case .iso: r.int().map { info.setInt(.iso, $0) }
            case .focalLength: r.rational().map { info.setRational(.focalLength, $0) }
            case .focalLengthIn35mm: r.int().map { info.setInt(.focalLengthIn35mm, $0) }
            case .duration: r.double().map { info.setDouble(.duration, $0) }
            case .videoCodec: info.names.videoCodec = r.string()
            case .audioCodec: info.names.audioCodec = r.string()
            case .frameCount: r.int().map { info.setInt(.frameCount, $0) }
            case .frameRate: r.double().map { info.setDouble(.frameRate, $0) }
            case .stillImageTime: r.double().map { info.setDouble(.stillImageTime, $0) }
            case .vitalityScore: r.double().map { info.setDouble(.vitalityScore, $0) }
            case .exifThumbnail:
                guard let offset = r.u64(), let length = r.u64() else { return nil }
                info.setExifThumbnail(ByteRange(offset: offset, length: length))
            case .thumbnailWidth: r.int().map { info.setInt(.thumbnailWidth, $0) }
            case .thumbnailHeight: r.int().map { info.setInt(.thumbnailHeight, $0) }
            case .embeddedMovie:
                guard let kind = r.string().flatMap(EmbeddedMovieKind.init(rawValue:)), let offset = r.u64(),
                      let length = r.u64(), let hasTime = r.byte(), let time = r.u64() else { return nil }
                info.embeddedMovie = EmbeddedMovie(kind: kind, range: ByteRange(offset: offset, length: length),
                                                   presentationTimestampUs: hasTime == 0 ? nil : Int64(bitPattern: time))
            case .hasXMP: info.setHasXMP()
            case .problem:
                guard let severity = r.string().flatMap(ParseProblem.Severity.init(rawValue:)), let context = r.string(),
                      let message = r.string() else { return nil }
                info.problems.append(ParseProblem(severity, context, message))
            }
            if r.failed { return nil }
        }
        return info.build(memo: &memo)
    }

    private struct Writer {
        var bytes: [UInt8] = []
        mutating func tag(_ t: Tag) { bytes.append(t.rawValue) }
        mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
        mutating func int(_ v: Int) { u64(UInt64(bitPattern: Int64(v))) }
        mutating func double(_ v: Double) { u64(v.bitPattern) }
        mutating func rational(_ v: ExifRational) { u64(UInt64(v.numerator) << 32 | UInt64(v.denominator)) }
        mutating func string(_ s: String) {
            let utf8 = Array(s.utf8)
            u64(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0
        var failed = false
        var atEnd: Bool { index >= bytes.count }
        mutating func byte() -> UInt8? {
            guard index < bytes.count else { failed = true; return nil }
            defer { index += 1 }
            return bytes[index]
        }
        mutating func u64() -> UInt64? {
            guard bytes.count - index >= 8 else { failed = true; return nil }
            let v = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            index += 8
            return v
        }
        mutating func int() -> Int? { u64().map { Int(truncatingIfNeeded: Int64(bitPattern: $0)) } }
        mutating func double() -> Double? { u64().map(Double.init(bitPattern:)) }
        mutating func rational() -> ExifRational? {
            u64().map { ExifRational(UInt32(truncatingIfNeeded: $0 >> 32), UInt32(truncatingIfNeeded: $0)) }
        }
        /// A stored text's bytes, in place.
        mutating func textBytes() -> UnsafeRawBufferPointer? {
            guard let count = u64(), count <= UInt64(bytes.count - index) else { failed = true; return nil }
            let n = Int(count)
            defer { index += n }
            return UnsafeRawBufferPointer(rebasing: bytes[index..<(index + n)])
        }
        mutating func string() -> String? {
            guard let count = u64(), count <= UInt64(bytes.count - index) else { failed = true; return nil }
            let n = Int(count)
            // Paths and names may hold raw bytes kept as scalars by PathBytes; they were valid UTF-8 when written.
            let s = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + n)]), as: UTF8.self)
            index += n
            return s
        }
    }
}
