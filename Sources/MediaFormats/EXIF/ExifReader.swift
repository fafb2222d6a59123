/// TIFF/Exif reader: IFD0, the Exif and GPS sub-IFDs, IFD1's JPEG thumbnail and Apple's MakerNote.
///
/// Everything is read from one in-memory buffer (an APP1 payload or a HEIF Exif item); every offset and
/// count is checked against it, and IFD offsets already visited are refused, so loops end.
public enum ExifReader {
    enum Tag {
        static let imageWidth: UInt16 = 0x0100, imageHeight: UInt16 = 0x0101
        static let make: UInt16 = 0x010F, model: UInt16 = 0x0110, orientation: UInt16 = 0x0112
        static let thumbnailOffset: UInt16 = 0x0201, thumbnailLength: UInt16 = 0x0202
        static let exifIFD: UInt16 = 0x8769, gpsIFD: UInt16 = 0x8825
        static let dateTimeOriginal: UInt16 = 0x9003, createDate: UInt16 = 0x9004
        static let makerNote: UInt16 = 0x927C
        static let pixelXDimension: UInt16 = 0xA002, pixelYDimension: UInt16 = 0xA003
        static let gpsLatitudeRef: UInt16 = 0x0001, gpsLatitude: UInt16 = 0x0002
        static let gpsLongitudeRef: UInt16 = 0x0003, gpsLongitude: UInt16 = 0x0004
        static let gpsAltitudeRef: UInt16 = 0x0005, gpsAltitude: UInt16 = 0x0006
        static let exposureTime: UInt16 = 0x829A, fNumber: UInt16 = 0x829D, iso: UInt16 = 0x8827
        static let offsetTime: UInt16 = 0x9010, offsetTimeOriginal: UInt16 = 0x9011
        static let focalLength: UInt16 = 0x920A, focalLengthIn35mm: UInt16 = 0xA405
        static let lensMake: UInt16 = 0xA433, lensModel: UInt16 = 0xA434
    }

    /// Parses a TIFF structure (starting at "II*\0"/"MM\0*") located at `fileOffset` in the file.
    public static func parse(tiff: [UInt8], fileOffset: UInt64, limits: ParseLimits = .default) -> ExifSummary {
        var summary = ExifSummary()
        var header = ByteReader(tiff)
        let order: ByteOrder
        switch (header.peekU8(at: 0), header.peekU8(at: 1)) {
        case (0x4D, 0x4D): order = .bigEndian
        case (0x49, 0x49): order = .littleEndian
        default:
            summary.problems.append(ParseProblem(.error, "exif", "no TIFF byte-order mark at offset \(fileOffset)"))
            return summary
        }
        header.byteOrder = order
        // try?: a short header is the same "not TIFF" as a wrong magic (reported below).
        guard (try? header.skip(2)) != nil, let magic = try? header.readU16(), magic == 42,
              let ifd0Offset = try? header.readU32() else {
            summary.problems.append(ParseProblem(.error, "exif", "bad TIFF header at offset \(fileOffset)"))
            return summary
        }
        var walk = Walk(reader: TIFFDirectoryReader(buffer: tiff, byteOrder: order, base: 0, limits: limits),
                        fileOffset: fileOffset)
        walk.run(ifd0Offset: ifd0Offset, into: &summary)
        return summary
    }

    /// One pass over the IFD tree, remembering visited offsets.
    struct Walk {
        let reader: TIFFDirectoryReader
        let fileOffset: UInt64
        /// At most `maxDepth + 1` offsets: an array costs no hashing (this runs for every probed still).
        var visited: [UInt32] = []

        mutating func directory(at offset: UInt32, _ context: String, _ summary: inout ExifSummary) -> TIFFDirectory? {
            guard offset != 0 else { return nil }
            guard !visited.contains(offset) else {
                summary.problems.append(ParseProblem(.warning, context, "IFD offset \(offset) already read (loop) ignored"))
                return nil
            }
            visited.append(offset)
            guard visited.count <= reader.limits.maxDepth else {
                summary.problems.append(ParseProblem(.warning, context, "too many IFDs"))
                return nil
            }
            do {
                return try reader.readDirectory(at: offset, context: context, problems: &summary.problems)
            } catch {
                summary.problems.append(ParseProblem(.warning, context, error.description))
                return nil
            }
        }

        mutating func run(ifd0Offset: UInt32, into summary: inout ExifSummary) {
            guard let ifd0 = directory(at: ifd0Offset, "exif/IFD0", &summary) else {
                if ifd0Offset == 0 { summary.problems.append(ParseProblem(.warning, "exif/IFD0", "no IFD0")) }
                return
            }
            readIFD0(ifd0, into: &summary)
            if let pointer = ifd0.entries.first(where: { $0.tag == Tag.exifIFD }),
               let offset = reader.unsigned(pointer).flatMap(UInt32.init(exactly:)),
               let exif = directory(at: offset, "exif/ExifIFD", &summary) {
                readExifIFD(exif, into: &summary)
            }
            if let pointer = ifd0.entries.first(where: { $0.tag == Tag.gpsIFD }),
               let offset = reader.unsigned(pointer).flatMap(UInt32.init(exactly:)),
               let gps = directory(at: offset, "exif/GPS", &summary) {
                // The fact that a position exists goes into MediaInfo; the coordinates stay in the summary
                // (for LocationReader, when the user asks to see them).
                summary.hasGPS = gps.entries.contains { $0.tag == Tag.gpsLatitude || $0.tag == Tag.gpsLongitude }
                summary.location = readLocation(gps)
            }
            if let ifd1 = directory(at: ifd0.nextOffset, "exif/IFD1", &summary) {
                readIFD1(ifd1, into: &summary)
            }
        }

        func first(_ tag: UInt16, in directory: TIFFDirectory) -> TIFFEntry? {
            directory.entries.first { $0.tag == tag }
        }

        func readIFD0(_ ifd: TIFFDirectory, into summary: inout ExifSummary) {
            summary.cameraMake = first(Tag.make, in: ifd).flatMap { reader.string($0) }
            summary.cameraModel = first(Tag.model, in: ifd).flatMap { reader.string($0) }
            if let entry = first(Tag.orientation, in: ifd), let value = reader.unsigned(entry) {
                if (1...8).contains(value) {
                    summary.orientation = Int(value)
                } else {
                    summary.problems.append(ParseProblem(.warning, "exif/IFD0", "orientation \(value) outside 1...8 ignored"))
                }
            }
            // A TIFF file's own size; JPEG Exif rarely has it and the SOF wins there anyway.
            summary.pixelWidth = first(Tag.imageWidth, in: ifd).flatMap { reader.unsigned($0) }.flatMap(plausibleDimension)
            summary.pixelHeight = first(Tag.imageHeight, in: ifd).flatMap { reader.unsigned($0) }.flatMap(plausibleDimension)
        }

        mutating func readExifIFD(_ ifd: TIFFDirectory, into summary: inout ExifSummary) {
            summary.captureDate = (first(Tag.dateTimeOriginal, in: ifd) ?? first(Tag.createDate, in: ifd))
                .flatMap { reader.string($0, maxLength: 64) }
            if summary.pixelWidth == nil || summary.pixelHeight == nil,
               let w = first(Tag.pixelXDimension, in: ifd).flatMap({ reader.unsigned($0) }).flatMap(plausibleDimension),
               let h = first(Tag.pixelYDimension, in: ifd).flatMap({ reader.unsigned($0) }).flatMap(plausibleDimension) {
                summary.pixelWidth = w
                summary.pixelHeight = h
            }
            summary.captureTimeZone = (first(Tag.offsetTimeOriginal, in: ifd) ?? first(Tag.offsetTime, in: ifd))
                .flatMap { reader.string($0, maxLength: 16) }.flatMap(ExifReader.plausibleOffset)
            summary.exposureTime = first(Tag.exposureTime, in: ifd).flatMap { reader.rational($0) }
            summary.fNumber = first(Tag.fNumber, in: ifd).flatMap { reader.rational($0) }
            summary.iso = first(Tag.iso, in: ifd).flatMap { reader.unsigned($0) }.flatMap { $0 > 0 && $0 < 10_000_000 ? Int($0) : nil }
            summary.focalLength = first(Tag.focalLength, in: ifd).flatMap { reader.rational($0) }
            summary.focalLengthIn35mm = first(Tag.focalLengthIn35mm, in: ifd).flatMap { reader.unsigned($0) }
                .flatMap { $0 > 0 && $0 < 100_000 ? Int($0) : nil }
            summary.lensMake = first(Tag.lensMake, in: ifd).flatMap { reader.string($0, maxLength: 128) }
            summary.lensModel = first(Tag.lensModel, in: ifd).flatMap { reader.string($0, maxLength: 128) }
            if let note = first(Tag.makerNote, in: ifd) {
                readAppleMakerNote(note, into: &summary)
            }
        }

        func readAppleMakerNote(_ note: TIFFEntry, into summary: inout ExifSummary) {
            guard let (noteReader, entries) = AppleMakerNote.read(tiff: reader.buffer, start: note.valueIndex,
                                                                   length: note.byteCount, limits: reader.limits,
                                                                   problems: &summary.problems) else { return }
            if let entry = entries[AppleMakerNote.contentIdentifier.tag] {
                if entry.type == .ascii, let id = noteReader.string(entry, maxLength: 128) {
                    summary.contentIdentifier = id.uppercased()
                } else {
                    summary.problems.append(ParseProblem(.warning, "exif/MakerNote(Apple)",
                        "ContentIdentifier (0x0011) is not a string: ignored"))
                }
            }
            if let entry = entries[AppleMakerNote.livePhotoVideoIndex.tag] {
                summary.livePhotoVideoIndex = noteReader.unsigned(entry)
            }
        }

        /// Latitude/longitude (degrees, minutes, seconds as three RATIONALs) with their N/S and E/W refs.
        func readLocation(_ gps: TIFFDirectory) -> GeoLocation? {
            func degrees(_ tag: UInt16) -> Double? {
                guard let entry = first(tag, in: gps), entry.count >= 3,
                      let d = reader.rational(entry, index: 0)?.value, let m = reader.rational(entry, index: 1)?.value,
                      let s = reader.rational(entry, index: 2)?.value else { return nil }
                return d + m / 60 + s / 3600
            }
            guard var latitude = degrees(Tag.gpsLatitude), var longitude = degrees(Tag.gpsLongitude),
                  latitude <= 90, longitude <= 180 else { return nil }
            if first(Tag.gpsLatitudeRef, in: gps).flatMap({ reader.string($0, maxLength: 4) }) == "S" { latitude = -latitude }
            if first(Tag.gpsLongitudeRef, in: gps).flatMap({ reader.string($0, maxLength: 4) }) == "W" { longitude = -longitude }
            var altitude = first(Tag.gpsAltitude, in: gps).flatMap { reader.rational($0)?.value }
            if let below = first(Tag.gpsAltitudeRef, in: gps).flatMap({ reader.unsigned($0) }), below == 1 {
                altitude = altitude.map { -$0 }
            }
            return GeoLocation(latitude: latitude, longitude: longitude, altitude: altitude)
        }

        func readIFD1(_ ifd: TIFFDirectory, into summary: inout ExifSummary) {
            guard let offsetEntry = first(Tag.thumbnailOffset, in: ifd),
                  let lengthEntry = first(Tag.thumbnailLength, in: ifd),
                  let offset = reader.unsigned(offsetEntry), let length = reader.unsigned(lengthEntry) else { return }
            let range = ByteRange(offset: offset, length: length)
            guard length > 0, range.fits(in: UInt64(reader.buffer.count)) else {
                summary.problems.append(ParseProblem(.warning, "exif/IFD1",
                    "thumbnail \(range) lies outside the \(reader.buffer.count)-byte Exif data"))
                return
            }
            summary.thumbnail = ByteRange(offset: fileOffset + offset, length: length)
        }
    }

    /// "+01:00" / "-05:30" / "Z"-less Exif offsets; anything else (blank "   :  ") is dropped.
    static func plausibleOffset(_ text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 6, scalars[0] == "+" || scalars[0] == "-", scalars[3] == ":",
              [1, 2, 4, 5].allSatisfy({ ("0"..."9").contains(scalars[$0]) }) else { return nil }
        return text
    }

    /// Dimensions beyond 1..<2^20 are corrupt values, not pictures.
    static func plausibleDimension(_ value: UInt64) -> Int? {
        value > 0 && value < 1 << 20 ? Int(value) : nil
    }
}
