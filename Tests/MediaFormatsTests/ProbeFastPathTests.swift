import XCTest
import TestSupport
@testable import MediaFormats

/// The probe-only walks (`ProbePath.fast`) must give exactly the `MediaInfo` of the full parsers
/// (`ProbePath.full`): on real files, and on damaged copies of them (truncated at many offsets, bytes
/// flipped), where the walk either takes the shortcut or hands over to the full parser.
final class ProbeFastPathTests: XCTestCase {
    private typealias B = ISOBoxBuilder

    private func assertSame(_ source: any ByteSource, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        let fast = MediaProbe.probe(source, path: .fast)
        let full = MediaProbe.probe(source, path: .full)
        XCTAssertEqual(fast, full, "fast and full probes differ for \(label)", file: file, line: line)
    }

    private func files(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.sorted().map { directory + "/" + $0 }.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
                && !path.hasSuffix(".md")
        }
    }

    private func load(_ path: String) throws -> MemoryByteSource {
        MemoryByteSource(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    private func sharedFixturesDirectory() throws -> String {
        guard let dir = Fixtures.sharedDirectory else {
            throw XCTSkip("../shared/fixtures is absent (a fresh clone): the real-world half of the differential test is skipped")
        }
        return dir.path
    }

    /// The HEIF stills the walk is for: a synthetic one always, the real ones when ../shared is there.
    private func heifSources() throws -> [(String, MemoryByteSource)] {
        var sources = [("synthetic HEIC", MemoryByteSource(syntheticHEIC()))]
        if let dir = Fixtures.sharedDirectory?.path {
            for path in files(in: dir) where path.lowercased().hasSuffix(".heic") {
                sources.append((path, try load(path)))
            }
        }
        return sources
    }

    func testCommittedFixturesProbeTheSameBothWays() throws {
        let paths = files(in: Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures").path)
        XCTAssertGreaterThanOrEqual(paths.count, 3)
        for path in paths { assertSame(try load(path), path) }
    }

    func testSharedFixturesProbeTheSameBothWays() throws {
        let paths = files(in: try sharedFixturesDirectory())
        XCTAssertGreaterThanOrEqual(paths.count, 8)
        for path in paths { assertSame(try load(path), path) }
    }

    /// Without this the differential tests could pass with the walk never taken.
    func testTheWalkTakesTheShortcutOnWellFormedHEIF() throws {
        for (label, source) in try heifSources() {
            let topLevel = ISOBMFFTopLevel.scan(source, limits: .default)
            XCTAssertNotNil(HEIFProbe.probeMeta(topLevel, source: source, limits: .default), label)
        }
    }

    func testTruncatedHEIFProbesTheSameBothWays() throws {
        for (label, source) in try heifSources() {
            let topLevel = ISOBMFFTopLevel.scan(source, limits: .default)
            let meta = try XCTUnwrap(topLevel.first("meta"), label)
            let end = min(meta.range.end + 64, source.size)
            // Every offset through the meta box (where the walk reads), then a coarser sweep of the rest.
            var cuts = Array(stride(from: UInt64(0), to: end, by: 1))
            cuts += stride(from: end, to: source.size, by: max(1, Int(source.size / 200)))
            for cut in cuts {
                assertSame(SliceByteSource(base: source, range: ByteRange(offset: 0, length: cut)), "\(label) cut at \(cut)")
            }
        }
    }

    func testHEIFWithFlippedBytesProbesTheSameBothWays() throws {
        var shortcuts = 0, handovers = 0
        for (label, source) in try heifSources() {
            let topLevel = ISOBMFFTopLevel.scan(source, limits: .default)
            let meta = try XCTUnwrap(topLevel.first("meta"), label)
            // Every byte of a small meta box; about 600 spread over a large one (a debug build probes slowly).
            let step = max(1, Int(meta.range.length) / 600)
            for offset in stride(from: Int(meta.range.offset), to: Int(meta.range.end), by: step) {
                let original = source.bytes[offset]
                for value in [original ^ 0xFF, original &+ 1] {
                    let patched = PatchedSource(base: source, offset: offset, value: value)
                    assertSame(patched, "\(label) byte \(offset) = \(value)")
                    let walked = HEIFProbe.probeMeta(ISOBMFFTopLevel.scan(patched, limits: .default), source: patched,
                                                     limits: .default)
                    if walked == nil { handovers += 1 } else { shortcuts += 1 }
                }
            }
        }
        // Both sides of the walk's decision were exercised.
        XCTAssertGreaterThan(shortcuts, 0)
        XCTAssertGreaterThan(handovers, 0)
    }

    /// JPEGs take the XMP byte-scan shortcut on the fast path: cut and flipped through their headers.
    func testDamagedJPEGsProbeTheSameBothWays() throws {
        var paths = [Fixtures.committed("train.jpg"), Fixtures.committed("motion-photo-v1.jpeg")]
        if let dir = Fixtures.sharedDirectory?.path {
            paths += ["samsung-still.jpeg", "microvideo-v1.jpeg", "apple-no-identifier.jpg"].map { dir + "/" + $0 }
        }
        for path in paths where FileManager.default.fileExists(atPath: path) {
            let source = try load(path)
            // The segments before the image data, where the probe reads (capped for a debug build's speed).
            let header = min(source.size, 16 << 10)
            for cut in stride(from: UInt64(0), to: header, by: 13) {
                assertSame(SliceByteSource(base: source, range: ByteRange(offset: 0, length: cut)), "\(path) cut at \(cut)")
            }
            for offset in stride(from: 0, to: Int(header), by: 17) {
                let patched = PatchedSource(base: source, offset: offset, value: source.bytes[offset] ^ 0x20)
                assertSame(patched, "\(path) byte \(offset) flipped")
            }
        }
    }

    func testTightLimitsProbeTheSameBothWays() throws {
        for (label, source) in try heifSources() {
            for (depth, entries) in [(0, 4096), (1, 4096), (2, 4096), (16, 0), (16, 1), (16, 2), (16, 5)] {
                var limits = ParseLimits()
                limits.maxDepth = depth
                limits.maxEntries = entries
                let fast = MediaProbe.probe(source, limits: limits, path: .fast)
                let full = MediaProbe.probe(source, limits: limits, path: .full)
                XCTAssertEqual(fast, full, "\(label) with maxDepth \(depth), maxEntries \(entries)")
            }
        }
    }

    // MARK: the walk's own cases

    func testWalkKeepsOnlyWhatTheProbeAsksFor() throws {
        let source = MemoryByteSource(syntheticHEIC())
        let topLevel = ISOBMFFTopLevel.scan(source, limits: .default)
        let meta = try XCTUnwrap(HEIFProbe.probeMeta(topLevel, source: source, limits: .default))
        XCTAssertEqual(meta.primaryItemID, 1)
        XCTAssertEqual(meta.handlerType, "pict")
        // The primary, the Exif and the XMP items; not the thumbnail's hvc1 item.
        XCTAssertEqual(meta.items.map(\.id), [4, 1, 3])
        XCTAssertEqual(meta.items.first { $0.id == 4 }?.contentType, "application/rdf+xml")
        XCTAssertEqual(Set(meta.locations.keys), [1, 3, 4])
        XCTAssertEqual(meta.references.map(\.type), ["thmb", "cdsc"])
        XCTAssertEqual(meta.spatialExtent(of: 1)?.width, 640)
        XCTAssertEqual(meta.spatialExtent(of: 2)?.height, 120)
        XCTAssertEqual(HEIFProbe.displayTransform(meta.properties(of: 1))?.rotation, 90)
    }

    func testWalkHandsOverWhereTheFullParserWouldReport() throws {
        // An hvcC shorter than a decoder configuration record: the full parser warns, so no shortcut.
        let shortHVCC = syntheticHEIC(extraProperty: B.box("hvcC", [1, 2, 3]))
        let source = MemoryByteSource(shortHVCC)
        XCTAssertNil(HEIFProbe.probeMeta(ISOBMFFTopLevel.scan(source, limits: .default), source: source, limits: .default))
        let info = MediaProbe.probe(source)
        XCTAssertTrue(info.problems.contains { $0.context == "heif/ipco/hvcC" }, "\(info.problems)")
        assertSame(source, "short hvcC")
    }

    func testTreeCheckAgreesWithTheTreeParserOnLoops() {
        // A box that claims to be larger than its parent, and a nest deeper than the limit.
        let tooLarge = B.u32(64) + B.fourCC("moov") + B.u32(100) + B.fourCC("trak")
        var r = ByteReader(tooLarge)
        XCTAssertFalse(ISOTreeCheck.box(&r, depth: 0, limits: .default))
        var nest = B.box("free", [])
        for _ in 0..<20 { nest = B.container("moov", [nest]) }
        var limits = ParseLimits()
        var n = ByteReader(nest)
        XCTAssertFalse(ISOTreeCheck.box(&n, depth: 0, limits: limits))
        limits.maxDepth = 32
        n = ByteReader(nest)
        XCTAssertTrue(ISOTreeCheck.box(&n, depth: 0, limits: limits))
        XCTAssertEqual(n.remaining, 0)
    }

    /// True when the tree parser reads the box at `r`'s position without a problem (what the check answers).
    private func treeParsesCleanly(_ r: ByteReader, limits: ParseLimits = .default) -> Bool {
        var problems: [ParseProblem] = []
        guard (try? ISOStructure.parse(r, limits: limits, context: "moov", problems: &problems)) != nil else { return false }
        return problems.isEmpty
    }

    /// The check reads the bytes by index (`ISOTreeCheck.Walk`): it must answer as the tree parser does on a
    /// real moov and on damaged copies, also read through a window that starts and ends inside a larger
    /// buffer (the indices are the window's, and nothing past its end may be looked at).
    func testTreeCheckAgreesWithTheTreeParserOnDamagedMovies() throws {
        let movie = try load(Fixtures.committed("train.mov"))
        let top = ISOBMFFTopLevel.scan(movie, limits: .default)
        let box = try XCTUnwrap(top.first("moov"))
        let moov = try movie.readExactly(at: box.range.offset, count: Int(box.range.length))
        func agree(_ bytes: [UInt8], _ label: String, limits: ParseLimits = .default) {
            var r = ByteReader(bytes)
            let checked = ISOTreeCheck.box(&r, depth: 0, limits: limits)
            XCTAssertEqual(checked, treeParsesCleanly(ByteReader(bytes), limits: limits), label)
            // The same bytes inside a larger buffer, with bytes that would pass for boxes on both sides.
            let padding = B.box("free", Array(repeating: 0, count: 24))
            var outer = ByteReader(padding + bytes + padding)
            try? outer.skip(padding.count)
            guard var window = try? outer.subReader(bytes.count) else { return XCTFail(label) }
            XCTAssertEqual(ISOTreeCheck.box(&window, depth: 0, limits: limits), checked, "\(label) in a window")
            if checked { XCTAssertEqual(r.position, Int(Self.boxSize(bytes) ?? 0), label) }
        }
        agree(moov, "train.mov moov")
        var tight = ParseLimits()
        tight.maxDepth = 4
        agree(moov, "train.mov moov, depth 4", limits: tight)
        tight = ParseLimits()
        tight.maxEntries = 3
        agree(moov, "train.mov moov, 3 entries", limits: tight)
        for cut in stride(from: 0, to: moov.count, by: 97) { agree(Array(moov.prefix(cut)), "cut at \(cut)") }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<600 {
            var damaged = moov
            let offset = Int.random(in: 0..<moov.count, using: &generator)
            damaged[offset] = [0, 1, 0xFF, damaged[offset] ^ 0x08].randomElement(using: &generator)!
            agree(damaged, "byte \(offset) set to \(damaged[offset])")
        }
        // Large sizes, size 0 (to the end), uuid boxes, and QuickTime and ISO `meta` layouts.
        let uuid = B.u32(24 + 4) + B.fourCC("uuid") + Array(repeating: 7, count: 16) + B.u32(0)
        let large = B.u32(1) + B.fourCC("free") + B.u64(16 + 4) + B.u32(0)
        let toEnd = B.u32(0) + B.fourCC("free") + B.u32(9)
        let atomMeta = B.container("meta", [B.box("hdlr", Array(repeating: 0, count: 24)), B.box("keys", B.u32(0) + B.u32(0))])
        let isoMeta = B.box("meta", B.u32(0) + B.box("hdlr", Array(repeating: 0, count: 24)))
        let oddMeta = B.box("meta", B.u32(1) + B.box("hdlr", Array(repeating: 0, count: 24)))
        for (label, children) in [("uuid", [uuid]), ("largesize", [large]), ("size 0", [large, toEnd]),
                                  ("QuickTime meta", [atomMeta]), ("ISO meta", [isoMeta]), ("meta with flags", [oddMeta]),
                                  ("short meta", [B.box("meta", [0, 0])]), ("all", [uuid, large, atomMeta, isoMeta, toEnd])] {
            let bytes = B.container("moov", children)
            agree(bytes, label)
            for cut in 0..<bytes.count { agree(Array(bytes.prefix(cut)), "\(label) cut at \(cut)") }
        }
    }

    /// The size field of the box at the start of `bytes` (32-bit only), for where the check must stop.
    private static func boxSize(_ bytes: [UInt8]) -> UInt32? {
        guard bytes.count >= 4 else { return nil }
        let size = bytes.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return size == 0 ? UInt32(bytes.count) : size
    }

    /// A HEIC with a primary (ispe, irot, imir), a thumbnail, an Exif item and an XMP item.
    private func syntheticHEIC(extraProperty: [UInt8]? = nil) -> [UInt8] {
        let ftyp = B.box("ftyp", B.fourCC("heic") + B.u32(0) + B.fourCC("mif1") + B.fourCC("heic"))
        let image: [UInt8] = Array(repeating: 0x11, count: 64)
        let exif = B.u32(6) + B.fourCC("Exif") + [0, 0] + B.tinyTIFF()
        let packet = Array("<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF><rdf:Description xmlns:GCamera='http://ns.google.com/photos/1.0/camera/' GCamera:MotionPhoto='0'/></rdf:RDF></x:xmpmeta>".utf8)
        func meta(imageOffset: Int, exifOffset: Int) -> [UInt8] {
            var properties = [B.ispe(640, 480), B.ispe(160, 120), B.box("irot", [1]), B.box("imir", [0])]
            var primaryAssociations: [UInt8] = [0x81, 3, 4]
            if let extraProperty {
                properties.append(extraProperty)
                primaryAssociations.append(UInt8(properties.count))
            }
            return B.heifMeta(primary: 1, items: [
                .init(id: 4, type: "mime", contentType: "application/rdf+xml", offset: UInt32(exifOffset + exif.count + 8),
                      length: UInt32(packet.count)),
                .init(id: 1, type: "hvc1", offset: UInt32(imageOffset), length: UInt32(image.count)),
                .init(id: 2, type: "hvc1", offset: UInt32(imageOffset), length: 16),
                .init(id: 3, type: "Exif", offset: UInt32(exifOffset), length: UInt32(exif.count)),
            ], references: [("thmb", 2, [1]), ("cdsc", 3, [1]), ("dimg", 1, [2])],
            properties: properties, associations: [(1, primaryAssociations), (2, [0x82])])
        }
        let metaSize = meta(imageOffset: 0, exifOffset: 0).count
        let imageOffset = ftyp.count + metaSize + 8
        let exifOffset = imageOffset + image.count + 8
        return ftyp + meta(imageOffset: imageOffset, exifOffset: exifOffset) + B.box("mdat", image) + B.box("mdat", exif)
            + B.box("mdat", packet)
    }
}

/// `XMPReader.parse` skips tokenizing when a byte scan proves the packet holds nothing it reads; the answer
/// must be the tokenizing reader's.
final class XMPShortcutTests: XCTestCase {
    private func assertSame(_ packet: [UInt8], limits: ParseLimits = .default, _ label: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(XMPReader.parse(packet, limits: limits), XMPReader.parseFully(packet, limits: limits), label,
                       file: file, line: line)
    }

    private static let datesOnly = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
        <rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreateDate="2020-05-04T18:39:11.644"/>\
        </rdf:RDF></x:xmpmeta>
        """

    func testPacketsWithoutPropertiesSkipTheTokenizer() {
        XCTAssertFalse(XMPPropertyFilter.mayHoldProperties(Array(Self.datesOnly.utf8), limits: .default))
        XCTAssertEqual(XMPReader.parse(Array(Self.datesOnly.utf8)), XMPSummary())
        assertSame(Array(Self.datesOnly.utf8), "dates only")
    }

    func testEveryPropertyNameSendsThePacketToTheTokenizer() {
        for name in XMPPropertyFilter.localNames {
            let packet = Array(Self.datesOnly.utf8) + Array("<a:".utf8) + name + Array(">1</a:".utf8) + name + [UInt8(ascii: ">")]
            XCTAssertTrue(XMPPropertyFilter.mayHoldProperties(packet, limits: .default), String(decoding: name, as: UTF8.self))
            assertSame(packet, String(decoding: name, as: UTF8.self))
        }
        let orientation = Array("<x:xmpmeta xmlns:tiff='http://ns.adobe.com/tiff/1.0/'><r tiff:Orientation='6'/></x:xmpmeta>".utf8)
        XCTAssertEqual(XMPReader.parse(orientation).orientation, 6)
    }

    /// The scan reads eight bytes at a time through padding: a name or a `<` at any alignment is still seen.
    func testNamesAndOpeningsAreFoundAtEveryAlignment() {
        for shift in 0..<17 {
            let padding = Array(repeating: UInt8(ascii: " "), count: shift)
            XCTAssertTrue(XMPPropertyFilter.mayHoldProperties(padding + Array("Rating".utf8) + padding, limits: .default),
                          "shift \(shift)")
            XCTAssertFalse(XMPPropertyFilter.mayHoldProperties(padding + Array("rating".utf8) + padding, limits: .default))
            // 257 openings, each after `shift` spaces: one more than the nesting the reader follows.
            let openings = Array(repeating: padding + [UInt8(ascii: "<")], count: 257).flatMap { $0 }
            XCTAssertTrue(XMPPropertyFilter.mayHoldProperties(openings, limits: .default), "shift \(shift)")
            XCTAssertFalse(XMPPropertyFilter.mayHoldProperties(Array(openings.dropLast(shift + 1)), limits: .default))
        }
    }

    func testLimitsAreReportedTheSameWay() {
        let deep = Array((String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300)).utf8)
        XCTAssertTrue(XMPPropertyFilter.mayHoldProperties(deep, limits: .default))
        XCTAssertFalse(XMPReader.parse(deep).problems.isEmpty)
        assertSame(deep, "deep nesting")
        var tight = ParseLimits()
        tight.maxEntries = 1
        assertSame(Array(Self.datesOnly.utf8), limits: tight, "tight token limit")
        // 256 open elements (the deepest the reader follows without a report) and no end tags: 256 `<`.
        let justDeepEnough = Array(String(repeating: "<a>", count: 256).utf8)
        XCTAssertFalse(XMPPropertyFilter.mayHoldProperties(justDeepEnough, limits: .default))
        assertSame(justDeepEnough, "256 levels")
    }

    func testFixturePacketsAndTheirMutationsReadTheSameBothWays() throws {
        var packets: [[UInt8]] = [Array(Self.datesOnly.utf8)]
        var paths = [Fixtures.committed("motion-photo-v1.jpeg")]
        if let dir = Fixtures.sharedDirectory?.path {
            paths += ["samsung-still.jpeg", "IMG_2927.HEIC", "iphone-se-still.heic", "microvideo-v1.jpeg", "motion-photo.heic"]
                .map { dir + "/" + $0 }
        }
        for path in paths where FileManager.default.fileExists(atPath: path) {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            guard let start = bytes.firstIndex(of: Array("<x:xmpmeta".utf8)),
                  let end = bytes.firstIndex(of: Array("</x:xmpmeta>".utf8), from: start) else { continue }
            packets.append(Array(bytes[start..<end + 12]))
        }
        XCTAssertGreaterThanOrEqual(packets.count, 2)
        for (n, packet) in packets.enumerated() {
            assertSame(packet, "packet \(n)")
            for cut in stride(from: 0, to: packet.count, by: 3) { assertSame(Array(packet[..<cut]), "packet \(n) cut at \(cut)") }
            for offset in stride(from: 0, to: packet.count, by: 2) {
                var flipped = packet
                flipped[offset] ^= 0x20   // case flips turn names into others and back
                assertSame(flipped, "packet \(n) byte \(offset) flipped")
            }
        }
    }
}

/// Exif strings: ASCII values are trimmed as bytes; the result must be the String trim's.
final class ExifStringTrimTests: XCTestCase {
    func testByteTrimEqualsTheStringTrim() {
        let samples: [[UInt8]] = [
            Array("Apple".utf8), Array("  iPhone 11 Pro \r\n".utf8), Array("\t\n".utf8), [], Array("2020:05:04 18:39:11\0junk".utf8),
            Array(" \u{301}abc ".utf8), Array("abc\u{600} ".utf8), Array(" caf\u{E9} ".utf8), [0x20, 0xE2, 0x20], [0x0B, 0x41, 0x0B],
        ]
        for sample in samples {
            let reader = TIFFDirectoryReader(buffer: sample, byteOrder: .bigEndian, base: 0, limits: .default)
            let entry = TIFFEntry(tag: 0x010F, type: .ascii, count: sample.count, valueIndex: 0)
            let reference = String(decoding: sample.prefix { $0 != 0 }, as: UTF8.self).trimmingASCIIWhitespace()
            XCTAssertEqual(reader.string(entry), reference.isEmpty ? nil : reference, "\(sample)")
        }
    }
}
