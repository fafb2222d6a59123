import XCTest
@testable import MediaFormats

final class ExifReaderTests: XCTestCase {
    /// A little-endian TIFF whose ExifIFD holds a big-endian Apple MakerNote (offsets from the note's start).
    static func littleEndianTIFFWithBigEndianMakerNote(identifier: String = "e905e6c6-c747-4805-942f-9904a0281f02",
                                                        extraNoteEntries: [TIFFWriter.Entry] = []) -> [UInt8] {
        var note = TIFFWriter(order: .bigEndian, prefix: AppleMakerNote.signature + [0x00, 0x01] + Array("MM".utf8))
        note.appendIFD([
            note.ascii(0x0011, identifier),
            Entry(tag: 0x0017, type: 9, count: 1, data: TIFFWriter.u32(7, .bigEndian)),
            note.ascii(0x0020, "62E16BF5-4BFC-4898-893D-5A4CE6B5925F"),
            note.ascii(0x002B, "A1D9BEC5-45F2-4171-84C7-5B4E6293047B"),
        ] + extraNoteEntries)
        var tiff = TIFFWriter(order: .littleEndian)
        let exif = tiff.appendIFD([
            tiff.ascii(0x9003, "2021:04:10 11:44:00"),
            tiff.long(0xA002, 4032), tiff.long(0xA003, 3024),
            tiff.undefined(0x927C, note.bytes),
        ])
        let ifd0 = tiff.appendIFD([tiff.ascii(0x010F, "Apple"), tiff.ascii(0x0110, "iPhone 6s"),
                                   tiff.short(0x0112, 6), tiff.long(0x8769, exif)])
        tiff.setIFD0(ifd0)
        return tiff.bytes
    }
    typealias Entry = TIFFWriter.Entry

    func testLittleEndianTIFFAroundBigEndianMakerNote() {
        let summary = ExifReader.parse(tiff: Self.littleEndianTIFFWithBigEndianMakerNote(), fileOffset: 100)
        XCTAssertEqual(summary.contentIdentifier, "E905E6C6-C747-4805-942F-9904A0281F02")
        XCTAssertEqual(summary.livePhotoVideoIndex, 7)
        XCTAssertEqual(summary.cameraMake, "Apple")
        XCTAssertEqual(summary.cameraModel, "iPhone 6s")
        XCTAssertEqual(summary.orientation, 6)
        XCTAssertEqual(summary.captureDate, "2021:04:10 11:44:00")
        XCTAssertEqual(summary.pixelWidth, 4032)
        XCTAssertEqual(summary.pixelHeight, 3024)
        XCTAssertFalse(summary.hasGPS)
        XCTAssertEqual(summary.problems, [])
    }

    func testLong8AndTypeZeroEntriesAreSkippedSafely() {
        let extra = [
            Entry(tag: 0x0030, type: 16, count: 1, data: TIFFWriter.u64(1 << 40, .bigEndian)),
            Entry(tag: 0x0031, type: 0, count: 0xFFFF_FFFF, data: [1, 2, 3, 4]),
            Entry(tag: 0x0032, type: 17, count: 2, data: TIFFWriter.u64(5, .bigEndian) + TIFFWriter.u64(6, .bigEndian)),
            Entry(tag: 0x0033, type: 18, count: 1, data: TIFFWriter.u64(9, .bigEndian)),
            Entry(tag: 0x0034, type: 99, count: 3, data: [0, 0, 0, 0]),
        ]
        let summary = ExifReader.parse(tiff: Self.littleEndianTIFFWithBigEndianMakerNote(extraNoteEntries: extra), fileOffset: 0)
        XCTAssertEqual(summary.contentIdentifier, "E905E6C6-C747-4805-942F-9904A0281F02")
        XCTAssertEqual(summary.problems.filter { $0.message.contains("unknown field type") }.count, 2)
    }

    func testLivePhotoVideoIndexAsLong8() {
        let tiffWriter = TIFFWriter(order: .bigEndian)
        var note = TIFFWriter(order: .bigEndian, prefix: AppleMakerNote.signature + [0, 1] + Array("MM".utf8))
        note.appendIFD([note.long8(0x0017, 1 << 33)])
        var tiff = tiffWriter
        let exif = tiff.appendIFD([tiff.undefined(0x927C, note.bytes)])
        tiff.setIFD0(tiff.appendIFD([tiff.long(0x8769, exif)]))
        let summary = ExifReader.parse(tiff: tiff.bytes, fileOffset: 0)
        XCTAssertEqual(summary.livePhotoVideoIndex, 1 << 33)
        XCTAssertNil(summary.contentIdentifier)
    }

    func testIFDThatPointsToItselfEnds() {
        var tiff = TIFFWriter(order: .bigEndian)
        // IFD0 at offset 8: its ExifIFD pointer and its next-IFD link both point back at itself.
        tiff.appendIFD([tiff.ascii(0x010F, "Loop"), tiff.long(0x8769, 8), tiff.long(0x8825, 8)], next: 8)
        let summary = ExifReader.parse(tiff: tiff.bytes, fileOffset: 0)
        XCTAssertEqual(summary.cameraMake, "Loop")
        XCTAssertTrue(summary.problems.contains { $0.message.contains("loop") })
    }

    func testHugeEntryAndValueCountsDoNotAllocate() {
        var tiff = TIFFWriter(order: .littleEndian)
        tiff.appendIFD([
            Entry(tag: 0x010F, type: 2, count: 0xFFFF_FFFF, data: [], rawField: 8),
            Entry(tag: 0x0110, type: 16, count: 0xFFFF_FFFF, data: [], rawField: 0xFFFF_FFF0),
            tiff.short(0x0112, 3),
        ])
        let summary = ExifReader.parse(tiff: tiff.bytes, fileOffset: 0)
        XCTAssertNil(summary.cameraMake)
        XCTAssertNil(summary.cameraModel)
        XCTAssertEqual(summary.orientation, 3)
        XCTAssertEqual(summary.problems.filter { $0.message.contains("outside") }.count, 2)

        // An IFD declaring 0xFFFF entries (the 16-bit maximum) is over the entry limit.
        var big = TIFFWriter(order: .bigEndian)
        big.appendIFD([big.short(0x0112, 1)], declaredCount: 0xFFFF)
        let refused = ExifReader.parse(tiff: big.bytes, fileOffset: 0)
        XCTAssertNil(refused.orientation)
        XCTAssertTrue(refused.problems.contains { $0.message.contains("limit") })

        // Declared entries that do not fit: the ones that do are read.
        var short = TIFFWriter(order: .bigEndian)
        short.appendIFD([short.short(0x0112, 8)], declaredCount: 40)
        XCTAssertEqual(ExifReader.parse(tiff: short.bytes, fileOffset: 0).orientation, 8)
    }

    func testThumbnailRangeInFileOffsetsAndChecked() {
        var tiff = TIFFWriter(order: .bigEndian)
        let ifd1 = tiff.appendIFD([tiff.long(0x0201, 8), tiff.long(0x0202, 10)])
        tiff.setIFD0(tiff.appendIFD([tiff.short(0x0112, 1)], next: ifd1))
        let summary = ExifReader.parse(tiff: tiff.bytes, fileOffset: 30)
        XCTAssertEqual(summary.thumbnail, ByteRange(offset: 38, length: 10))

        var bad = TIFFWriter(order: .bigEndian)
        let badIFD1 = bad.appendIFD([bad.long(0x0201, 8), bad.long(0x0202, 100_000)])
        bad.setIFD0(bad.appendIFD([bad.short(0x0112, 1)], next: badIFD1))
        let refused = ExifReader.parse(tiff: bad.bytes, fileOffset: 30)
        XCTAssertNil(refused.thumbnail)
        XCTAssertTrue(refused.problems.contains { $0.context == "exif/IFD1" })
    }

    func testGPSIsOnlyAFlag() {
        var tiff = TIFFWriter(order: .bigEndian)
        let gps = tiff.appendIFD([tiff.ascii(0x0001, "N"), Entry(tag: 0x0002, type: 5, count: 3, data: [UInt8](repeating: 1, count: 24))])
        tiff.setIFD0(tiff.appendIFD([tiff.long(0x8825, gps)]))
        XCTAssertTrue(ExifReader.parse(tiff: tiff.bytes, fileOffset: 0).hasGPS)
    }

    func testNotATIFF() {
        XCTAssertEqual(ExifReader.parse(tiff: [1, 2, 3], fileOffset: 0).problems.first?.severity, .error)
        XCTAssertEqual(ExifReader.parse(tiff: [], fileOffset: 0).problems.count, 1)
        XCTAssertEqual(ExifReader.parse(tiff: Array("MM\0*".utf8), fileOffset: 0).problems.count, 1)
    }

    func testNonStringIdentifierIsIgnored() {
        var note = TIFFWriter(order: .bigEndian, prefix: AppleMakerNote.signature + [0, 1] + Array("MM".utf8))
        note.appendIFD([note.long(0x0011, 5)])
        var tiff = TIFFWriter(order: .littleEndian)
        let exif = tiff.appendIFD([tiff.undefined(0x927C, note.bytes)])
        tiff.setIFD0(tiff.appendIFD([tiff.long(0x8769, exif)]))
        let summary = ExifReader.parse(tiff: tiff.bytes, fileOffset: 0)
        XCTAssertNil(summary.contentIdentifier)
        XCTAssertTrue(summary.problems.contains { $0.message.contains("not a string") })
    }

    func testTIFFFileGoesThroughTheSameReader() {
        var tiff = TIFFWriter(order: .littleEndian)
        tiff.appendIFD([tiff.long(0x0100, 640), tiff.long(0x0101, 480), tiff.short(0x0112, 3), tiff.ascii(0x010F, "Scanner")])
        let info = MediaProbe.probe(MemoryByteSource(tiff.bytes))
        XCTAssertEqual(info.format, .tiff)
        XCTAssertEqual(info.pixelWidth, 640)
        XCTAssertEqual(info.pixelHeight, 480)
        XCTAssertEqual(info.orientation, 3)
        XCTAssertEqual(info.cameraMake, "Scanner")
    }
}

/// `TIFFDirectoryReader.readDirectory` reads its entries by index; the reference below is the field-by-field
/// read it replaced (a throwing `ByteReader` read per field). Both must give the same entries, next-IFD link
/// and problems, or both throw, wherever an IFD is said to start and whatever the bytes.
final class TIFFDirectoryReadingTests: XCTestCase {
    private func reference(_ reader: TIFFDirectoryReader, at offset: UInt32, context: String,
                           problems: inout [ParseProblem]) throws(MediaError) -> TIFFDirectory {
        var r = ByteReader(reader.buffer, byteOrder: reader.byteOrder)
        try r.seek(to: reader.base + Int(offset))
        let declared = Int(try r.readU16())
        guard declared <= reader.limits.maxEntries else {
            throw MediaError.limitExceeded("\(context): \(declared) entries (limit \(reader.limits.maxEntries))")
        }
        let fitting = min(declared, r.remaining / 12)
        if fitting < declared {
            problems.append(ParseProblem(.warning, context, "IFD declares \(declared) entries but only \(fitting) fit in the data"))
        }
        var directory = TIFFDirectory()
        for _ in 0..<fitting {
            let tag = try r.readU16()
            let rawType = try r.readU16()
            let count = try r.readU32()
            let valueFieldIndex = r.position
            let inlineValue = try r.readU32()
            guard let type = TIFFFieldType(rawValue: rawType) else {
                problems.append(ParseProblem(.info, context, "tag 0x\(hex(tag)): unknown field type \(rawType) skipped"))
                continue
            }
            let byteCount = UInt64(count) * UInt64(type.unitSize)
            let valueIndex: UInt64 = byteCount <= 4 ? UInt64(valueFieldIndex) : UInt64(reader.base) + UInt64(inlineValue)
            guard valueIndex + byteCount <= UInt64(reader.buffer.count) else {
                problems.append(ParseProblem(.warning, context,
                    "tag 0x\(hex(tag)): \(count) value(s) at \(inlineValue) lie outside the \(reader.buffer.count)-byte data"))
                continue
            }
            directory.entries.append(TIFFEntry(tag: tag, type: type, count: Int(count), valueIndex: Int(valueIndex)))
        }
        if fitting == declared, let next = try? r.readU32() { directory.nextOffset = next }
        return directory
    }

    private func assertSameRead(_ buffer: [UInt8], base: Int, offset: UInt32, _ label: String) {
        for order in [ByteOrder.bigEndian, .littleEndian] {
            var limits = ParseLimits()
            limits.maxEntries = 200
            let reader = TIFFDirectoryReader(buffer: buffer, byteOrder: order, base: base, limits: limits)
            var problems: [ParseProblem] = [], expectedProblems: [ParseProblem] = []
            let read = try? reader.readDirectory(at: offset, context: "t", problems: &problems)
            let expected = try? reference(reader, at: offset, context: "t", problems: &expectedProblems)
            XCTAssertEqual(read?.entries, expected?.entries, "\(label) \(order)")
            XCTAssertEqual(read?.nextOffset, expected?.nextOffset, "\(label) \(order)")
            XCTAssertEqual(problems, expectedProblems, "\(label) \(order)")
        }
    }

    func testEntriesReadByIndexEqualTheFieldByFieldRead() {
        let tiff = ExifReaderTests.littleEndianTIFFWithBigEndianMakerNote()
        // Every offset as an IFD start (most are garbage: counts that do not fit, unknown types, far values).
        for offset in 0..<UInt32(tiff.count + 2) {
            assertSameRead(tiff, base: 0, offset: offset, "offset \(offset)")
            assertSameRead(tiff, base: 3, offset: offset, "base 3, offset \(offset)")
        }
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            var damaged = tiff
            for _ in 0..<3 {
                let at = Int.random(in: 0..<damaged.count, using: &generator)
                damaged[at] = UInt8.random(in: 0...255, using: &generator)
            }
            let cut = Array(damaged.prefix(Int.random(in: 0...damaged.count, using: &generator)))
            for offset: UInt32 in [0, 4, 8, UInt32.random(in: 0..<UInt32(tiff.count), using: &generator)] {
                assertSameRead(damaged, base: 0, offset: offset, "round \(round) offset \(offset)")
                assertSameRead(cut, base: 0, offset: offset, "round \(round) cut to \(cut.count), offset \(offset)")
            }
        }
    }
}

/// `TIFFDirectoryReader.unsigned`, `rational` and `string` read values in place; the references below are the
/// `ByteReader` reads they replaced. Both must agree for every type, position (in and out of the buffer),
/// count and index, in both byte orders.
final class TIFFValueReadingTests: XCTestCase {
    private func referenceUnsigned(_ reader: TIFFDirectoryReader, _ entry: TIFFEntry, index: Int) -> UInt64? {
        guard index >= 0, index < entry.count else { return nil }
        var r = ByteReader(reader.buffer, byteOrder: reader.byteOrder)
        let at = entry.valueIndex + index * entry.type.unitSize
        guard (try? r.seek(to: at)) != nil else { return nil }
        switch entry.type {
        case .byte, .undefined: return (try? r.readU8()).map(UInt64.init)
        case .short: return (try? r.readU16()).map(UInt64.init)
        case .long, .ifd: return (try? r.readU32()).map(UInt64.init)
        case .long8, .ifd8: return try? r.readU64()
        case .sbyte: return (try? r.readU8()).flatMap { UInt64(exactly: Int8(bitPattern: $0)) }
        case .sshort: return (try? r.readI16()).flatMap { UInt64(exactly: $0) }
        case .slong: return (try? r.readI32()).flatMap { UInt64(exactly: $0) }
        case .slong8: return (try? r.readI64()).flatMap { UInt64(exactly: $0) }
        case .ascii, .rational, .srational, .float, .double: return nil
        }
    }

    private func referenceRational(_ reader: TIFFDirectoryReader, _ entry: TIFFEntry, index: Int) -> ExifRational? {
        guard entry.type == .rational || entry.type == .srational, index >= 0, index < entry.count else { return nil }
        var r = ByteReader(reader.buffer, byteOrder: reader.byteOrder)
        guard (try? r.seek(to: entry.valueIndex + index * 8)) != nil,
              let numerator = try? r.readU32(), let denominator = try? r.readU32() else { return nil }
        if entry.type == .srational, Int32(bitPattern: numerator) < 0 || Int32(bitPattern: denominator) < 0 { return nil }
        return ExifRational(numerator, denominator)
    }

    private func referenceStringBytes(_ reader: TIFFDirectoryReader, _ entry: TIFFEntry, maxLength: Int) -> [UInt8]? {
        let length = min(entry.byteCount, maxLength)
        return ByteReader(reader.buffer).slice(entry.valueIndex, length).map(Array.init)
    }

    func testValuesReadInPlaceEqualTheByteReaderReads() {
        var generator = SystemRandomNumberGenerator()
        let types: [TIFFFieldType] = [.byte, .ascii, .short, .long, .rational, .sbyte, .undefined, .sshort, .slong,
                                      .srational, .float, .double, .ifd, .long8, .slong8, .ifd8]
        for round in 0..<40 {
            let size = round < 4 ? round : Int.random(in: 0...40, using: &generator)
            var buffer = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Text with spaces, NULs and high bytes, for the string reads.
            if round % 3 == 0 { buffer = buffer.map { [0x20, 0x00, 0x41, 0x09, 0xC3, 0xA9, 0x7A][Int($0) % 7] } }
            for order in [ByteOrder.bigEndian, .littleEndian] {
                let reader = TIFFDirectoryReader(buffer: buffer, byteOrder: order, base: 0, limits: ParseLimits())
                for type in types {
                    for valueIndex in 0...(size + 2) {
                        for count in [0, 1, 2, 3, 5] {
                            let entry = TIFFEntry(tag: 1, type: type, count: count, valueIndex: valueIndex)
                            let label = "size \(size) \(order) \(type) at \(valueIndex) count \(count)"
                            for index in -1...count {
                                XCTAssertEqual(reader.unsigned(entry, index: index), referenceUnsigned(reader, entry, index: index), label)
                                XCTAssertEqual(reader.rational(entry, index: index), referenceRational(reader, entry, index: index), label)
                            }
                            for maxLength in [0, 3, 1024] {
                                let expected = referenceStringBytes(reader, entry, maxLength: maxLength)
                                let text = reader.string(entry, maxLength: maxLength)
                                if expected == nil { XCTAssertNil(text, label) }
                                if text != nil { XCTAssertNotNil(expected, label) }
                            }
                        }
                    }
                }
            }
        }
    }
}
