/// A MakerNote tag worth reading, described as data so new tags are one line, not new code.
public struct MakerNoteTagInfo: Sendable, Hashable {
    public let tag: UInt16
    public let name: String
    /// Where the meaning comes from (so nobody has to rediscover it).
    public let source: String
}

/// Apple's MakerNote: `Apple iOS\0`, a 2-byte version, `MM`/`II`, then an IFD whose offsets count from the
/// MakerNote's first byte (not from the TIFF header), in the MakerNote's own byte order.
public enum AppleMakerNote {
    public static let signature: [UInt8] = Array("Apple iOS".utf8) + [0]

    public static let contentIdentifier = MakerNoteTagInfo(tag: 0x0011, name: "ContentIdentifier",
        source: "Live Photo pairing key; exiftool 12.19-12.64 call it MediaGroupUUID (FIELD-NOTES)")
    public static let livePhotoVideoIndex = MakerNoteTagInfo(tag: 0x0017, name: "LivePhotoVideoIndex",
        source: "key frame of the paired movie (exiftool Apple.pm)")
    public static let imageCaptureRequestID = MakerNoteTagInfo(tag: 0x0020, name: "ImageCaptureRequestID",
        source: "another UUID: NOT the pairing key (train.jpg has a different value here)")
    public static let photoIdentifier = MakerNoteTagInfo(tag: 0x002B, name: "PhotoIdentifier",
        source: "another UUID: NOT the pairing key (train.jpg has a different value here)")

    /// The tags the reader keeps; everything else in the MakerNote is ignored.
    public static let tags: [MakerNoteTagInfo] = [contentIdentifier, livePhotoVideoIndex, imageCaptureRequestID, photoIdentifier]

    /// `tags` as numbers, made once (the reader runs for every probed Apple still).
    static let wantedTags: [UInt16] = tags.map(\.tag)

    /// Entries of the known tags, or nil when the bytes at `start` are not an Apple MakerNote.
    static func read(tiff: [UInt8], start: Int, length: Int, limits: ParseLimits,
                     problems: inout [ParseProblem]) -> (TIFFDirectoryReader, [UInt16: TIFFEntry])? {
        let context = "exif/MakerNote(Apple)"
        guard length >= 16, let head = ByteReader(tiff).slice(start, 16),
              Array(head.prefix(signature.count)) == signature else { return nil }
        let orderMark = Array(head.dropFirst(12).prefix(2))
        let order: ByteOrder
        switch orderMark {
        case [0x4D, 0x4D]: order = .bigEndian
        case [0x49, 0x49]: order = .littleEndian
        default:
            problems.append(ParseProblem(.warning, context, "unknown byte-order mark after the Apple iOS header"))
            return nil
        }
        let reader = TIFFDirectoryReader(buffer: tiff, byteOrder: order, base: start, limits: limits)
        do {
            let directory = try reader.readDirectory(at: 14, context: context, problems: &problems)
            var known: [UInt16: TIFFEntry] = [:]
            let wanted = wantedTags
            for entry in directory.entries where wanted.contains(entry.tag) && known[entry.tag] == nil {
                known[entry.tag] = entry
            }
            return (reader, known)
        } catch {
            problems.append(ParseProblem(.warning, context, error.description))
            return nil
        }
    }
}
