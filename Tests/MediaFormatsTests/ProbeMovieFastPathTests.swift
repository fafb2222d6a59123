import XCTest
import TestSupport
@testable import MediaFormats

/// The probe-only `moov` walk (`QuickTimeMovie.parseForProbe`, taken on `ProbePath.fast`) must give exactly
/// the `MediaInfo` of the full parser (`ProbePath.full`): on real movies, on synthetic ones, and on damaged
/// copies (cut at every offset through `moov`, bytes flipped, tight limits), where it either takes the
/// shortcut or hands over to the full parser.
final class ProbeMovieFastPathTests: XCTestCase {
    private typealias B = ISOBoxBuilder

    private func assertSame(_ source: any ByteSource, limits: ParseLimits = .default, _ label: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        let fast = MediaProbe.probe(source, limits: limits, path: .fast)
        let full = MediaProbe.probe(source, limits: limits, path: .full)
        XCTAssertEqual(fast, full, "fast and full probes differ for \(label)", file: file, line: line)
    }

    private func walk(_ source: any ByteSource, limits: ParseLimits = .default) -> ProbedMovie? {
        QuickTimeProbe.probeMovie(ISOBMFFTopLevel.scan(source, limits: limits), source: source, limits: limits)
    }

    private func load(_ path: String) throws -> MemoryByteSource {
        MemoryByteSource(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// The bytes of `source` as one array (sources here are small).
    private func bytes(_ source: any ByteSource) throws -> [UInt8] { try source.readExactly(at: 0, count: Int(source.size)) }

    /// The movies the walk is for. Committed: synthetic movies (moov first and last, a 64-bit moov size,
    /// a composition offset, a rotation), train.mov and the MP4 inside motion-photo-v1.jpeg (two video
    /// tracks, AAC, a `mett` track). Shared, when ../shared is there: its movies and embedded MP4s.
    private func movieSources() throws -> [(String, MemoryByteSource)] {
        var sources: [(String, MemoryByteSource)] = [
            ("synthetic movie", MemoryByteSource(B.movie())),
            ("synthetic moov first", MemoryByteSource(B.movie(moovLast: false))),
            ("synthetic large moov", MemoryByteSource(B.movie(largeMoov: true, compositionOffset: 300))),
            ("synthetic open-ended moov", MemoryByteSource(B.movie(matrix: [0, 0x10000, 0, -0x10000, 0, 0, 0, 0, 0x4000_0000],
                                                                   openEndedLast: true))),
        ]
        sources.append(("train.mov", try load(Fixtures.committed("train.mov"))))
        let motionPhoto = try bytes(load(Fixtures.committed("motion-photo-v1.jpeg")))
        sources.append(("motion-photo-v1 MP4", MemoryByteSource(Array(motionPhoto.suffix(122_562)))))
        if let dir = Fixtures.sharedDirectory?.path {
            for name in ["train.mov", "limitpoint/pairedVideo.mov"] where FileManager.default.fileExists(atPath: dir + "/" + name) {
                let source = try load(dir + "/" + name)
                // The shared train.mov is the committed one: one copy is enough.
                guard !sources.contains(where: { $0.1.bytes == source.bytes }) else { continue }
                sources.append((name, source))
            }
            let heic = dir + "/motion-photo.heic"
            if FileManager.default.fileExists(atPath: heic) {
                let source = try load(heic)
                let box = try XCTUnwrap(ISOBMFFTopLevel.scan(source, limits: .default).first("mpvd"))
                let range = box.payloadRange
                sources.append(("motion-photo.heic MP4",
                                MemoryByteSource(Array(source.bytes[Int(range.offset)..<Int(range.end)]))))
            }
        }
        return sources
    }

    private func moovRange(_ source: any ByteSource, _ label: String) throws -> ByteRange {
        try XCTUnwrap(ISOBMFFTopLevel.scan(source, limits: .default).first("moov"), label).range
    }

    func testWellFormedMoviesTakeTheShortcutAndProbeTheSame() throws {
        let sources = try movieSources()
        XCTAssertGreaterThanOrEqual(sources.count, 6)
        for (label, source) in sources {
            // Without this the differential tests could pass with the walk never taken.
            XCTAssertNotNil(walk(source), label)
            assertSame(source, label)
        }
    }

    func testWalkGivesWhatTheProbeReads() throws {
        let source = try load(Fixtures.committed("train.mov"))
        let movie = try XCTUnwrap(walk(source))
        XCTAssertEqual(movie.tracks.count, 4)
        // Only the values the probe copies are kept, by their index in `probedMetadataKeys`.
        XCTAssertEqual(movie.metadata.count, QuickTimeProbe.probedMetadataKeys.count)
        XCTAssertEqual(QuickTimeProbe.probedMetadataKeys.first, QuickTimeProbe.contentIdentifierKey)
        XCTAssertEqual(movie.metadata.first??.string, "E905E6C6-C747-4805-942F-9904A0281F02")
        // Only the still-image-time track's edit list is read.
        let still = try XCTUnwrap(movie.stillImageTimeTrackIndex)
        XCTAssertNotNil(movie.tracks[still].editList)
        XCTAssertEqual(movie.tracks.indices.filter { movie.tracks[$0].editList != nil }, [still])
        let info = MediaProbe.probe(source)
        XCTAssertEqual(info.frameCount, 22)
        XCTAssertEqual(try XCTUnwrap(info.stillImageTime), 0.48, accuracy: 0.001)
        XCTAssertEqual(info.pixelWidth, 1440)
        XCTAssertEqual(info.problems, [])
    }

    func testFilesCutThroughMoovProbeTheSameBothWays() throws {
        for (label, source) in try movieSources() {
            let moov = try moovRange(source, label)
            // Every offset through moov (and the bytes before it in a small file); a coarser sweep elsewhere.
            var cuts = Array(stride(from: moov.offset, to: moov.end, by: 1))
            cuts += stride(from: UInt64(0), to: source.size, by: max(1, Int(source.size / 100)))
            for cut in cuts {
                assertSame(SliceByteSource(base: source, range: ByteRange(offset: 0, length: cut)), "\(label) cut at \(cut)")
            }
        }
    }

    /// A `moov` whose size is rewritten to end at every offset inside it: its last child is cut, so the walk
    /// meets truncated boxes inside the box it read (the file cut above only removes the whole moov).
    func testMoovShortenedAtEveryOffsetProbesTheSameBothWays() throws {
        var shortcuts = 0, handovers = 0
        for (label, source) in try movieSources() {
            let moov = try moovRange(source, label)
            let original = try bytes(source)
            let start = Int(moov.offset)
            guard original[start..<start + 4].elementsEqual(B.u32(UInt32(moov.length))) else { continue }   // 32-bit sizes only
            // Every length through a small moov; about 2,000 spread over a large one (a debug build probes slowly).
            for length in stride(from: 8, to: Int(moov.length), by: max(1, Int(moov.length) / 2000)) {
                var shortened = Array(original[..<(start + length)])
                shortened.replaceSubrange(start..<start + 4, with: B.u32(UInt32(length)))
                let source = MemoryByteSource(shortened)
                assertSame(source, "\(label) moov shortened to \(length)")
                if walk(source) == nil { handovers += 1 } else { shortcuts += 1 }
            }
        }
        XCTAssertGreaterThan(shortcuts, 0)
        XCTAssertGreaterThan(handovers, 0)
    }

    func testMoviesWithFlippedBytesProbeTheSameBothWays() throws {
        var shortcuts = 0, handovers = 0
        for (label, source) in try movieSources() {
            let moov = try moovRange(source, label)
            // Every byte of a small moov; about 1,000 spread over a large one (a debug build probes slowly).
            let step = max(1, Int(moov.length) / 1000)
            for offset in stride(from: Int(moov.offset), to: Int(moov.end), by: step) {
                let original = source.bytes[offset]
                for value in [original ^ 0xFF, original &+ 1] {
                    let patched = PatchedSource(base: source, offset: offset, value: value)
                    assertSame(patched, "\(label) byte \(offset) = \(value)")
                    if walk(patched) == nil { handovers += 1 } else { shortcuts += 1 }
                }
            }
        }
        XCTAssertGreaterThan(shortcuts, 0)
        XCTAssertGreaterThan(handovers, 0)
    }

    func testTightLimitsProbeTheSameBothWays() throws {
        for (label, source) in try movieSources() {
            for (depth, entries) in [(0, 4096), (1, 4096), (2, 4096), (4, 4096), (6, 4096), (8, 4096), (10, 4096),
                                     (16, 0), (16, 1), (16, 2), (16, 4), (16, 6), (16, 8), (16, 20)] {
                var limits = ParseLimits()
                limits.maxDepth = depth
                limits.maxEntries = entries
                assertSame(source, limits: limits, "\(label) with maxDepth \(depth), maxEntries \(entries)")
            }
            for samples in [0, 1, 2, 21, 22, 23, 100] {
                var limits = ParseLimits()
                limits.maxSamples = samples
                assertSame(source, limits: limits, "\(label) with maxSamples \(samples)")
            }
            for structure in [0, 100, 6237, 1 << 20] {
                var limits = ParseLimits()
                limits.maxStructureBytes = structure
                assertSame(source, limits: limits, "\(label) with maxStructureBytes \(structure)")
            }
        }
    }

    /// The top-level walk reads the end of a file in one go when a header lies near it (`ISOBMFFTopLevel.tail`):
    /// it must find the same boxes and problems as header-by-header reads, also on cut and damaged files.
    func testTopLevelTailReadFindsTheSameBoxes() throws {
        var headerByHeader = ParseLimits()
        headerByHeader.headerProbeBytes = Int.max   // never past the head: no tail read
        var tailAlways = ParseLimits()
        tailAlways.headerProbeBytes = 0
        var tailsRead = 0
        func assertSameTopLevel(_ source: any ByteSource, _ label: String) {
            let plain = ISOBMFFTopLevel.scan(source, limits: headerByHeader)
            let tailed = ISOBMFFTopLevel.scan(source, limits: tailAlways)
            XCTAssertNil(plain.tail, label)
            if tailed.tail != nil { tailsRead += 1 }
            XCTAssertEqual(plain.boxes, tailed.boxes, label)
            XCTAssertEqual(plain.problems, tailed.problems, label)
            XCTAssertEqual(plain.fileType, tailed.fileType, label)
        }
        for (label, source) in try movieSources() {
            let moov = try moovRange(source, label)
            assertSameTopLevel(source, label)
            for cut in stride(from: UInt64(0), to: source.size, by: max(1, Int(source.size / 300))) {
                assertSameTopLevel(SliceByteSource(base: source, range: ByteRange(offset: 0, length: cut)), "\(label) cut at \(cut)")
            }
            // Every byte of the moov's header and of the first child's.
            for offset in Int(moov.offset)..<Int(moov.offset) + 16 {
                assertSameTopLevel(PatchedSource(base: source, offset: offset, value: source.bytes[offset] ^ 0xFF),
                                   "\(label) byte \(offset) flipped")
            }
        }
        XCTAssertGreaterThan(tailsRead, 0)
    }

    /// Files named as movies prefetch the sniff's 512 bytes (`ParseLimits.forProbing`): only the reads may
    /// change, so every fixture, misnamed or not, must probe the same with the small head.
    func testMovieNamesPrefetchLessAndProbeTheSame() throws {
        XCTAssertEqual(ParseLimits.default.forProbing(path: "/a/IMG_0001.MOV").headerProbeBytes, 512)
        XCTAssertEqual(ParseLimits.default.forProbing(path: "clip.mp4").headerProbeBytes, 512)
        XCTAssertEqual(ParseLimits.default.forProbing(path: "x.qt").headerProbeBytes, 512)
        XCTAssertEqual(ParseLimits.default.forProbing(path: "x.HEIC").headerProbeBytes, ParseLimits.default.headerProbeBytes)
        // The last five bytes of the name decide, compared case-blind, whatever comes before them.
        for name in [".mov", "A.M4V", "b.3gp", "/x/y/.Mp4", "é.qt", "über.MOV"] {
            XCTAssertEqual(ParseLimits.default.forProbing(path: name).headerProbeBytes, 512, name)
        }
        for name in ["", "qt", "mov", "x.mov.jpg", "x.mo", "x.m4a", "x.mqt", "x.qtm", "é", "x.MOV ", "x.jpg.m0v"] {
            XCTAssertEqual(ParseLimits.default.forProbing(path: name).headerProbeBytes,
                           ParseLimits.default.headerProbeBytes, name)
        }
        // What a file that is no picture seems to be is told from the same bytes whatever its name.
        XCTAssertGreaterThanOrEqual(ParseLimits.movieHeadBytes, ContentGuess.sniffBytes)
        let text = MemoryByteSource(Array(String(repeating: "plain words in a text file\n", count: 100).utf8))
        XCTAssertEqual(MediaProbe.probe(text, limits: ParseLimits.default.forProbing(path: "notes.mov")), MediaProbe.probe(text))
        XCTAssertEqual(ParseLimits.default.forProbing(path: "IMG_0001.JPG").headerProbeBytes, ParseLimits.default.headerProbeBytes)
        XCTAssertEqual(ParseLimits.default.forProbing(path: "mov").headerProbeBytes, ParseLimits.default.headerProbeBytes)
        XCTAssertEqual(ParseLimits.default.forProbing(path: "a.movie").headerProbeBytes, ParseLimits.default.headerProbeBytes)
        let movieLimits = ParseLimits.default.forProbing(path: "misnamed.mov")
        var paths = ["train.jpg", "train.mov", "motion-photo-v1.jpeg"].map(Fixtures.committed)
        if let dir = Fixtures.sharedDirectory?.path {
            paths += ["IMG_2927.HEIC", "samsung-still.jpeg", "microvideo-v1.jpeg", "motion-photo.heic", "iphone-se-still.heic",
                      "limitpoint/pairedVideo.mov"].map { dir + "/" + $0 }
        }
        for path in paths where FileManager.default.fileExists(atPath: path) {
            let source = try load(path)
            XCTAssertEqual(MediaProbe.probe(source, limits: movieLimits), MediaProbe.probe(source), path)
        }
        // A TIFF misnamed as a movie: its directories past the one-page head are still read.
        var tiff = TIFFWriter(order: .bigEndian)
        tiff.bytes += Array(repeating: 0, count: 6000)
        let ifd0 = tiff.appendIFD([tiff.ascii(0x010F, "Maker"), tiff.short(0x0112, 6)])
        tiff.setIFD0(ifd0)
        let tiffInfo = MediaProbe.probe(MemoryByteSource(tiff.bytes), limits: movieLimits)
        XCTAssertEqual(tiffInfo.cameraMake, "Maker")
        XCTAssertEqual(tiffInfo, MediaProbe.probe(MemoryByteSource(tiff.bytes)))
        let counter = ReadCounter()
        let info = try MediaProbe.probe(path: Fixtures.committed("train.mov"), counter: counter)
        XCTAssertNotNil(info.contentIdentifier)
        XCTAssertLessThan(counter.bytes, 512 + 8192, "the head and the moov: \(counter.bytes) bytes")
    }

    /// `ISOBox.isContainer` (a switch over literals) must name exactly `ISOBox.containerTypes`.
    func testContainerSwitchMatchesTheContainerTypes() {
        for code in ISOBox.containerTypeCodes { XCTAssertTrue(ISOBox.isContainer(code), fourCC(code)) }
        XCTAssertEqual(ISOBox.containerTypeCodes.count, ISOBox.containerTypes.count)
        for type in ["mvhd", "tkhd", "stsd", "mdat", "ftyp", "free", "uuid", "keys", "data", "MOOV", "moo ", "\0\0\0\u{1}"] {
            XCTAssertFalse(ISOBox.isContainer(type.utf8.reduce(0) { $0 << 8 | UInt32($1) }), type)
        }
        // Every code one bit away from a container's is not one (unless it is another container).
        for code in ISOBox.containerTypeCodes {
            for bit in 0..<32 {
                let other = code ^ (1 << UInt32(bit))
                XCTAssertEqual(ISOBox.isContainer(other), ISOBox.containerTypeCodes.contains(other))
            }
        }
    }

    /// `mainVideoTrackIndex` (a loop over indices) must pick what the filtered copies and `max(by:)` picked:
    /// enabled video tracks first, the most timed samples, the first of a tie.
    func testMainVideoTrackIsTheOneFilterAndMaxPicked() {
        let structure = ISOStructure(root: ISOBox(type: "moov", typeCode: 0, range: ByteRange(offset: 0, length: 8), headerSize: 8),
                                     bytes: ByteReader([0, 0, 0, 8] + Array("moov".utf8)))
        func track(_ handler: String, enabled: Bool, samples: UInt64?, id: UInt32) -> QuickTimeTrack {
            var track = QuickTimeTrack(box: structure.root)
            track.trackID = id
            track.handlerType = handler
            track.enabled = enabled
            if let samples {
                var table = QuickTimeSampleTable(structure: structure)
                table.timedSampleCount = samples
                track.sampleTable = table
            }
            return track
        }
        func reference(_ tracks: [QuickTimeTrack]) -> UInt32? {
            let videos = tracks.filter(\.isVideo)
            let candidates = videos.contains(where: \.enabled) ? videos.filter(\.enabled) : videos
            return candidates.max { ($0.sampleTable?.timedSampleCount ?? 0) < ($1.sampleTable?.timedSampleCount ?? 0) }?.trackID
        }
        let kinds: [(String, Bool, UInt64?)] = [("vide", true, 10), ("vide", false, 20), ("vide", true, 10), ("soun", true, 99),
                                                ("vide", false, nil), ("vide", true, nil), ("meta", true, 5), ("vide", true, 0)]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<400 {
            let count = round % 6
            var tracks: [QuickTimeTrack] = []
            for id in 0..<count {
                let (handler, enabled, samples) = kinds[Int.random(in: 0..<kinds.count, using: &generator)]
                tracks.append(track(handler, enabled: enabled, samples: samples, id: UInt32(id)))
            }
            var movie = QuickTimeMovie(structure: structure)
            movie.tracks = tracks
            XCTAssertEqual(movie.mainVideoTrack?.trackID, reference(tracks), "\(tracks.map { ($0.handlerType ?? "", $0.enabled, $0.sampleTable?.timedSampleCount) })")
            // The probe-only walk's movie picks the same track.
            var probed = ProbedMovie()
            probed.tracks = tracks.map { track in
                var lean = ProbedMovie.Track()
                lean.isVideo = track.isVideo
                lean.isAudio = track.isAudio
                lean.enabled = track.enabled
                lean.hasSampleTable = track.sampleTable != nil
                lean.timedSampleCount = track.sampleTable?.timedSampleCount ?? 0
                return lean
            }
            XCTAssertEqual(probed.mainVideoTrackIndex, movie.mainVideoTrackIndex)
        }
    }

    // MARK: the walk's own cases

    /// A movie whose moov is `payload` (mvhd, traks, meta...), after a ftyp.
    private func movie(_ children: [[UInt8]]) -> MemoryByteSource {
        MemoryByteSource(B.box("ftyp", B.fourCC("qt  ") + B.u32(0) + B.fourCC("qt  ")) + B.container("moov", children))
    }

    private let mvhd = B.fullBox("mvhd", B.u32(0) + B.u32(0) + B.u32(600) + B.u32(1200) + Array(repeating: 0, count: 80))

    private func meta(keys: [[UInt8]], items: [(UInt32, [UInt8])]) -> [UInt8] {
        let keysBox = B.fullBox("keys", B.u32(UInt32(keys.count)) + keys.flatMap { B.u32(UInt32(8 + $0.count)) + B.fourCC("mdta") + $0 })
        let ilst = B.container("ilst", items.map { B.u32(UInt32(8 + $0.1.count)) + B.u32($0.0) + $0.1 })
        return B.container("meta", [B.box("hdlr", B.u32(0) + B.u32(0) + B.fourCC("mdta") + Array(repeating: 0, count: 12)), keysBox, ilst])
    }

    private func text(_ s: String) -> [UInt8] { B.box("data", B.u32(1) + B.u32(0) + Array(s.utf8)) }

    func testRepeatedKeysKeepTheFirstValueBothWays() throws {
        let id = Array(QuickTimeProbe.contentIdentifierKey.utf8)
        // Two entries with the same key text: the first item with a data box wins, on both paths.
        let source = movie([mvhd, meta(keys: [id, Array("other".utf8), id],
                                       items: [(3, text("FIRST")), (2, text("x")), (1, text("SECOND")), (3, [])])])
        XCTAssertNotNil(walk(source))
        XCTAssertEqual(MediaProbe.probe(source).contentIdentifier, "FIRST")
        assertSame(source, "repeated keys")
    }

    func testUnusualMetadataHandsOver() throws {
        let id = Array(QuickTimeProbe.contentIdentifierKey.utf8)
        let cases: [(String, MemoryByteSource)] = [
            // A non-ASCII key: its text equality is Unicode's, not the bytes'.
            ("non-ASCII key", movie([mvhd, meta(keys: [Array("caf\u{E9}".utf8), id], items: [(2, text("A"))])])),
            // An item whose index names no key: a warning of the full parser's.
            ("item without key", movie([mvhd, meta(keys: [id], items: [(2, text("A")), (1, text("B"))])])),
            // More keys than the walk follows.
            ("many keys", movie([mvhd, meta(keys: (0...QuickTimeMovie.maxKeys).map { Array("k\($0)".utf8) } + [id],
                                              items: [(UInt32(QuickTimeMovie.maxKeys + 2), text("C"))])])),
            // A data box too short for its type and locale.
            ("short data", movie([mvhd, meta(keys: [id], items: [(1, B.box("data", B.u32(1)))])])),
            ("no mvhd", movie([meta(keys: [id], items: [(1, text("D"))])])),
        ]
        for (label, source) in cases {
            XCTAssertNil(walk(source), label)
            assertSame(source, label)
        }
        XCTAssertEqual(MediaProbe.probe(cases[2].1).contentIdentifier, "C")
    }

    /// Where the moov lies decides how it is read (with the tail of the file, or on its own): a moov bigger
    /// than the tail read, one before a large mdat, and moov headers that lie about their size all probe the
    /// same both ways, and the well-formed ones take the walk.
    func testMoovLayoutsProbeTheSameBothWays() throws {
        let ftyp = B.box("ftyp", B.fourCC("qt  ") + B.u32(0) + B.fourCC("qt  "))
        let identity: [Int32] = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x4000_0000]
        let moov = B.moovBox(identifier: "0BADF00D-0000-4000-8000-0000000000AB", matrix: identity, chunkOffset: 36, large: false)
        let bigMoov = B.box("moov", Array(moov.dropFirst(8)) + B.box("free", Array(repeating: 0, count: 100_000)))
        let mdat = B.box("mdat", Array(repeating: 0xAB, count: 200_000))
        let tail = Int(ISOBMFFTopLevel.tailBytes)
        XCTAssertGreaterThan(bigMoov.count, tail)
        let layouts: [(String, [UInt8], Bool)] = [
            ("moov at the end, read with the tail", ftyp + mdat + moov, true),
            ("moov bigger than the tail read", ftyp + mdat + bigMoov, false),
            ("moov before a large mdat", ftyp + moov + mdat, false),
            ("big moov before a large mdat", ftyp + bigMoov + mdat, false),
        ]
        for (label, bytes, tailHoldsMoov) in layouts {
            let source = MemoryByteSource(bytes)
            let topLevel = ISOBMFFTopLevel.scan(source, limits: .default)
            let moovBox = try XCTUnwrap(topLevel.first("moov"), label)
            XCTAssertEqual(topLevel.tailBytes(of: moovBox) != nil, tailHoldsMoov, label)
            XCTAssertNotNil(walk(source), label)
            XCTAssertEqual(MediaProbe.probe(source).contentIdentifier, "0BADF00D-0000-4000-8000-0000000000AB", label)
            assertSame(source, label)
            // The moov's header lies: bigger than the file, smaller than its first child, one byte off.
            let start = moovBox.range.offset
            let real = bytes[Int(start)..<Int(start) + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            for lie in [real + 1, real - 1, real + 1_000_000, 8, 9, 16, real / 2, 0xFFFF_FFFF] {
                var lying = bytes
                lying.replaceSubrange(Int(start)..<Int(start) + 4, with: B.u32(lie))
                assertSame(MemoryByteSource(lying), "\(label), moov size \(lie) instead of \(real)")
            }
        }
    }

    /// Edit lists are checked on every track but read only for the still-image-time track: a broken one
    /// anywhere hands over, and the still track's (empty, version 1, an empty edit first) gives its time.
    func testEditListsProbeTheSameBothWays() throws {
        let still = QuickTimeMovie.stillImageTimeKey
        let mebx = B.box("mebx", Array(repeating: 0, count: 8)
                         + B.container("keys", [B.u32(UInt32(8 + 8 + 4 + still.utf8.count)) + B.u32(1)
                                                + B.box("keyd", B.fourCC("mdta") + Array(still.utf8))]))
        func track(handler: String, entry: [UInt8], elst: [UInt8]?) -> [UInt8] {
            // Enabled, turned 90 degrees clockwise, 320x240 displayed.
            let tkhd = B.fullBox("tkhd", flags: 1, B.u32(0) + B.u32(0) + B.u32(2) + B.u32(0) + B.u32(1200)
                                     + Array(repeating: 0, count: 16)
                                     + B.u32(0) + B.u32(0x10000) + B.u32(0) + B.i32(-0x10000) + B.u32(0) + B.u32(0)
                                     + B.u32(0) + B.u32(0) + B.u32(0x4000_0000) + B.u32(320 << 16) + B.u32(240 << 16))
            let mdhd = B.fullBox("mdhd", B.u32(0) + B.u32(0) + B.u32(600) + B.u32(1200) + B.u32(0))
            let hdlr = B.fullBox("hdlr", B.u32(0) + B.fourCC(handler) + Array(repeating: 0, count: 13))
            let stsd = B.fullBox("stsd", B.u32(1) + entry)
            let stts = B.fullBox("stts", B.u32(1) + B.u32(3) + B.u32(200))
            let mdia = B.container("mdia", [mdhd, hdlr, B.container("minf", [B.container("stbl", [stsd, stts])])])
            return B.container("trak", [tkhd] + (elst.map { [B.container("edts", [$0])] } ?? []) + [mdia])
        }
        let video = B.box("avc1", Array(repeating: 0, count: 24) + B.u16(640) + B.u16(480) + Array(repeating: 0, count: 50))
        let shifted = B.fullBox("elst", B.u32(2) + B.u32(288) + B.i32(-1) + B.u32(0x10000) + B.u32(600) + B.u32(0) + B.u32(0x10000))
        let version1Box = B.fullBox("elst", version: 1, B.u32(1) + B.u64(600) + B.u64(0) + B.u32(0x10000))
        let empty = B.fullBox("elst", B.u32(0))
        let tooMany = B.fullBox("elst", B.u32(3) + B.u32(288) + B.i32(-1) + B.u32(0x10000))
        let cases: [(String, [UInt8]?, [UInt8]?, Bool)] = [
            ("shifted still track", shifted, shifted, true),
            ("version 1 still edit list", shifted, version1Box, true),
            ("empty still edit list", nil, empty, true),
            ("no edit lists", nil, nil, true),
            ("broken edit list on the video track", tooMany, shifted, false),
            ("broken edit list on the still track", shifted, tooMany, false),
        ]
        for (label, videoEdits, stillEdits, takesShortcut) in cases {
            let source = movie([mvhd, track(handler: "vide", entry: video, elst: videoEdits),
                                track(handler: "meta", entry: mebx, elst: stillEdits)])
            XCTAssertEqual(walk(source) != nil, takesShortcut, label)
            if takesShortcut { XCTAssertNotNil(MediaProbe.probe(source).stillImageTime, label) }
            XCTAssertEqual(MediaProbe.probe(source).rotation, 90, label)
            assertSame(source, label)
        }
    }

    /// `mebx` key tables: a later key with the same local id replaces an earlier one (as in the full parser's
    /// dictionary), so a still-image-time key that is replaced names no still track.
    func testStillImageTimeKeyTablesProbeTheSameBothWays() throws {
        func keyTable(_ keys: [(UInt32, String)]) -> [UInt8] {
            let entries = keys.map { id, key in
                B.u32(UInt32(8 + 8 + 4 + key.utf8.count)) + B.u32(id)
                    + B.box("keyd", B.fourCC("mdta") + Array(key.utf8))
            }
            return B.box("mebx", Array(repeating: 0, count: 8) + B.container("keys", entries))
        }
        func track(_ entries: [[UInt8]]) -> [UInt8] {
            let tkhd = B.fullBox("tkhd", B.u32(0) + B.u32(0) + B.u32(2) + B.u32(0) + B.u32(1200) + Array(repeating: 0, count: 16)
                                     + Array(repeating: 0, count: 36) + B.u32(0) + B.u32(0))
            let mdhd = B.fullBox("mdhd", B.u32(0) + B.u32(0) + B.u32(600) + B.u32(1200) + B.u32(0))
            let hdlr = B.fullBox("hdlr", B.u32(0) + B.fourCC("meta") + Array(repeating: 0, count: 13))
            let stsd = B.fullBox("stsd", B.u32(UInt32(entries.count)) + entries.flatMap { $0 })
            let stts = B.fullBox("stts", B.u32(2) + B.u32(0) + B.u32(5) + B.u32(1) + B.u32(7))
            let elst = B.fullBox("elst", B.u32(2) + B.u32(288) + B.i32(-1) + B.u32(0x10000) + B.u32(1) + B.u32(0) + B.u32(0x10000))
            return B.container("trak", [tkhd, B.container("edts", [elst]),
                                        B.container("mdia", [mdhd, hdlr, B.container("minf", [B.container("stbl", [stsd, stts])])])])
        }
        let still = QuickTimeMovie.stillImageTimeKey
        let cases: [(String, [[UInt8]], Bool)] = [
            ("still key", [keyTable([(1, "a"), (2, still)])], true),
            ("still key replaced", [keyTable([(1, still), (1, "b")])], false),
            ("still key in a second entry", [keyTable([(1, "a")]), keyTable([(7, still)])], true),
            ("no still key", [keyTable([(1, "a")])], false),
        ]
        for (label, entries, hasStill) in cases {
            let source = movie([mvhd, track(entries)])
            XCTAssertNotNil(walk(source), label)
            XCTAssertEqual(MediaProbe.probe(source).stillImageTime != nil, hasStill, label)
            assertSame(source, label)
        }
        let nonASCII = movie([mvhd, track([keyTable([(1, "caf\u{E9}"), (2, still)])])])
        XCTAssertNil(walk(nonASCII))
        assertSame(nonASCII, "non-ASCII mebx key")
    }
}

/// `MediaProbe.sniff` compares bytes and four-character codes as numbers; the reference below is the text
/// comparison it replaced. Both must name the same container for every head.
final class SniffTests: XCTestCase {
    private func reference(_ head: [UInt8]) -> ContainerFormat {
        func starts(_ p: [UInt8], at: Int = 0) -> Bool {
            head.count >= at + p.count && Array(head[at..<at + p.count]) == p
        }
        if starts([0xFF, 0xD8]) && head.count >= 3 { return .jpeg }   // junk after SOI is a JPEG too (issue 32.9)
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF8".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("BM".utf8)) && head.count >= 14 { return .bmp }
        if head.count >= 12 {
            let type = String(decoding: head[4..<8], as: UTF8.self)
            if type == "ftyp" {
                switch String(decoding: head[8..<12], as: UTF8.self) {
                case "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis": return .heif
                case "qt  ": return .quickTime
                default: return .mp4
                }
            }
            if ["moov", "mdat", "wide", "free", "skip", "pnot"].contains(type) { return .quickTime }
        }
        return .unknown
    }

    func testSniffNamesWhatTheTextComparisonNamed() {
        let starts: [[UInt8]] = [[0xFF, 0xD8, 0xFF, 0xE1], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
                                 Array("GIF89a".utf8), Array("RIFF\0\0\0\0WEBPVP8 ".utf8), Array("RIFF\0\0\0\0WAVE".utf8),
                                 [0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A], Array("BM".utf8) + Array(repeating: 0, count: 12),
                                 Array("BM".utf8)]
            + ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis", "qt  ", "isom", "mp42", "HEIC", "qt\0\0"]
                .map { B.u32(24) + B.fourCC("ftyp") + Array($0.utf8) }
            + ["moov", "mdat", "wide", "free", "skip", "pnot", "MOOV", "ftyq", "junk"].map { B.u32(8) + Array($0.utf8) + B.u32(0) }
            + [[0xE2, 0x84, 0xAA, 0x00], [0xFF, 0xFE, 0x00, 0x66]].map { B.u32(8) + $0 + Array("heic".utf8) }
        for head in starts {
            for count in 0...head.count + 4 {
                let bytes = Array((head + [1, 2, 3, 4]).prefix(count))
                XCTAssertEqual(MediaProbe.sniff(bytes), reference(bytes), "\(bytes)")
            }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            var bytes = starts.randomElement(using: &generator)! + [0, 0, 0, 0]
            bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            XCTAssertEqual(MediaProbe.sniff(bytes), reference(bytes), "\(bytes)")
        }
    }

    private typealias B = ISOBoxBuilder
}
