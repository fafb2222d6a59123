@testable import LivePairing
import MediaFormats
import XCTest

/// The byte-keyed folder pairing (issue 17 item 3) must give exactly the items of the String pairer it
/// replaced (`ReferencePairer`, a copy of it): same items, order, kinds, evidence, identifiers and warnings.
/// Generated folders mix what decides pairing: shared identifiers, upper/lower-case identifiers, name-only
/// pairs, movie name suffixes, duplicates, lone halves, Motion Photos, broken files and non-ASCII names.
final class BytePairingEquivalenceTests: XCTestCase {
    /// SplitMix64: the same folders on every run.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private static let asciiBases = ["IMG_0001", "IMG_0002", "img_0002", "IMG_10", "IMG_010", "IMG_2", "a", ".hidden", "x.y"]
    /// Names only the String path may compare: precomposed and decomposed é, the Kelvin sign (canonically
    /// "K"), ß (upper-cases to "SS"), the Greek question mark (canonically ";").
    private static let unicodeBases = ["Caf\u{E9}", "Cafe\u{301}", "\u{212A}1", "k1", "Stra\u{DF}e", "a\u{37E}b", "a;b"]
    private static let ids = ["E905E6C6-C747-4805-942F-9904A0281F02", "e905e6c6-c747-4805-942f-9904a0281f02",
                              "AAAA-1", "aaaa-1", "BBBB-2", "", "stra\u{DF}e-id", "STRASSE-ID"]
    private static let dates = ["2021:05:02 12:34:56", "2021:05:02 12:35:30", "2021-05-02T12:34:57+0200", "junk"]

    private func file(_ rng: inout Generator, folder: String, unicode: Bool) -> MediaFile {
        let bases = unicode && Int.random(in: 0..<3, using: &rng) == 0 ? Self.unicodeBases : Self.asciiBases
        let isMovie = Bool.random(using: &rng)
        var base = bases.randomElement(using: &rng)!
        if isMovie, Int.random(in: 0..<3, using: &rng) == 0 {
            base += ["_HEVC", "_hevc", "_3", "_2", "-hevc", "_4"].randomElement(using: &rng)!
        }
        let ext = isMovie ? ["MOV", "mov", "MP4"].randomElement(using: &rng)! : ["JPG", "HEIC", "jpg"].randomElement(using: &rng)!
        var info = MediaInfo(format: isMovie ? (ext == "MP4" ? .mp4 : .quickTime) : (ext == "HEIC" ? .heif : .jpeg))
        if Int.random(in: 0..<4, using: &rng) != 0 {
            let pool = unicode ? Self.ids : Array(Self.ids.prefix(6))
            info.contentIdentifier = pool.randomElement(using: &rng)!
        }
        if Int.random(in: 0..<3, using: &rng) != 0 { info.captureDate = Self.dates.randomElement(using: &rng)! }
        if isMovie {
            info.duration = [nil, 2.0, 5.9, 10.0].randomElement(using: &rng)!
        } else {
            switch Int.random(in: 0..<12, using: &rng) {
            case 0: info.embeddedMovie = EmbeddedMovie(kind: .googleMotionPhoto, range: ByteRange(offset: 100, length: 50))
            case 1: info.problems = [ParseProblem(.error, "jpeg/motion photo", "broken motion photo: no ftyp")]
            case 2: info.problems = [ParseProblem(.warning, "jpeg", "the file ends early")]
            default: break
            }
        }
        return MediaFile(path: folder + base + "." + ext, size: UInt64.random(in: 1...9, using: &rng),
                         modificationTime: 0, info: info)
    }

    private func library(_ rng: inout Generator, unicode: Bool) -> [MediaFile] {
        let folders = ["", "a/", "a/b/", "2/", "02/", "\u{C9}t\u{E9}/"]
        var files: [MediaFile] = []
        for _ in 0..<Int.random(in: 1...40, using: &rng) {
            files.append(file(&rng, folder: folders.randomElement(using: &rng)!, unicode: unicode))
        }
        // Duplicates: the same file listed twice.
        for _ in 0..<Int.random(in: 0...2, using: &rng) where !files.isEmpty {
            files.append(files.randomElement(using: &rng)!)
        }
        files.shuffle(using: &rng)
        return files
    }

    private func assertSame(_ files: [MediaFile], _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        let expected = ReferencePairer.pair(files)
        let actual = LivePairer.pair(files)
        XCTAssertEqual(actual.count, expected.count, label, file: file, line: line)
        for (a, e) in zip(actual, expected) where a != e || a.warnings != e.warnings {
            XCTFail("\(label): \(a.id) \(a.kind) \(a.warnings) != \(e.id) \(e.kind) \(e.warnings)", file: file, line: line)
            return
        }
    }

    func testAsciiFoldersPairLikeTheStringPairer() {
        var rng = Generator(state: 17)
        for round in 0..<400 { assertSame(library(&rng, unicode: false), "ascii round \(round)") }
    }

    func testFoldersWithUnicodeNamesAndIdentifiersPairLikeTheStringPairer() {
        var rng = Generator(state: 1_703)
        for round in 0..<300 { assertSame(library(&rng, unicode: true), "unicode round \(round)") }
    }

    /// Large groups: many stills and movies with one identifier and name matches among them.
    func testLargeSharedIdentifierGroupsPairLikeTheStringPairer() {
        var rng = Generator(state: 99)
        var files: [MediaFile] = []
        for n in 0..<300 {
            var info = MediaInfo(format: n % 3 == 0 ? .quickTime : .jpeg)
            info.contentIdentifier = n % 2 == 0 ? "SHARED" : "shared"
            info.duration = 2
            let name = "IMG_\(Int.random(in: 0..<120, using: &rng))_\(n)"
            files.append(MediaFile(path: "d/\(n % 3 == 0 ? name + ".MOV" : name + ".JPG")", size: 1,
                                   modificationTime: 0, info: info))
        }
        assertSame(files, "shared group")
        // More movies than stills: the movies left over name the group's stills.
        let overflow = (0..<40).map { n -> MediaFile in
            var info = MediaInfo(format: n < 10 ? .jpeg : .quickTime)
            info.contentIdentifier = "OVER"
            info.duration = 2
            return MediaFile(path: "e/IMG_\(n).\(n < 10 ? "JPG" : "MOV")", size: 1, modificationTime: 0, info: info)
        }
        assertSame(overflow, "movies left over")
        XCTAssertTrue(LivePairer.pair(overflow).contains { $0.warnings.first?.hasPrefix("another movie with identifier OVER") == true })
    }

    /// The byte path really runs for ASCII folders and declines non-ASCII names and identifiers.
    func testByteKeyedPathIsTakenOnlyForAsciiFolders() {
        func takesBytePath(_ files: [MediaFile]) -> Bool {
            let ranked = RankedFiles(files: files, order: NaturalOrder.sortedIndices(files))
            var items: [LibraryItem] = [], ranks: [Int] = []
            var notes = LibraryItem.NotesSharing()
            var scratch = FolderPairingScratch()
            return LivePairer.pairFolderByBytes(Array(files.indices), of: ranked, into: &items, ranks: &ranks,
                                                notes: &notes, scratch: &scratch)
        }
        func file(_ name: String, id: String?) -> MediaFile {
            var info = MediaInfo(format: name.hasSuffix("MOV") ? .quickTime : .jpeg)
            info.contentIdentifier = id
            return MediaFile(path: "f/" + name, size: 1, modificationTime: 0, info: info)
        }
        XCTAssertTrue(takesBytePath([file("IMG_1.JPG", id: "a-1"), file("IMG_1.MOV", id: "A-1")]))
        XCTAssertFalse(takesBytePath([file("Caf\u{E9}.JPG", id: "a-1"), file("IMG_1.MOV", id: "A-1")]))
        XCTAssertFalse(takesBytePath([file("IMG_1.JPG", id: "stra\u{DF}e"), file("IMG_1.MOV", id: "A-1")]))
    }
}
