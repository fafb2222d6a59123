import Foundation
import Library
import LibraryCore
import LibraryIndex
import LivePairing
import MediaFormats
import TestSupport
import XCTest

/// Issue 17: pairing and warnings are exactly the same through the progressive scan, through the index and
/// through the plain full scan, on generated folders with pairs split across the listing order (identifier
/// pairs with unrelated names), stills sharing an identifier, orphans on both sides, name-only pairs and
/// pairs split across folders.
final class ProgressiveScanTests: XCTestCase {
    private var dir: URL!
    private var stillHead = Data()
    private var movieHead = Data()
    private var movieTail = Data()
    private var movieTailOffset = 0
    static let fixtureID = Data("E905E6C6-C747-4805-942F-9904A0281F02".utf8)

    override func setUpWithError() throws {
        dir = try Fixtures.makeTemporaryDirectory("livegrid-progressive")
        // The still's head holds its Exif and MakerNote; the movie is kept sparse: its first boxes, a hole
        // where the media data was, and the `moov` at the end, so each generated movie costs a few KiB.
        stillHead = try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("train.jpg"))).prefix(24 * 1024)
        let movie = try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("train.mov")))
        movieHead = movie.prefix(64)
        movieTailOffset = movie.count - 8 * 1024
        movieTail = movie.suffix(from: movieTailOffset)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func identifier(_ n: Int) -> Data {
        Data(String(format: "%08X-C747-4805-942F-%012X", n, n).utf8)
    }

    private func writeStill(_ url: URL, id: Data?) throws {
        var bytes = stillHead
        if let id, let range = bytes.range(of: Self.fixtureID) { bytes.replaceSubrange(range, with: id) }
        if id == nil, let range = bytes.range(of: Self.fixtureID) {
            // No identifier: the MakerNote's value is blanked to spaces, which the reader ignores.
            bytes.replaceSubrange(range, with: Data(repeating: 0x20, count: range.count))
        }
        try bytes.write(to: url)
    }

    private func writeMovie(_ url: URL, id: Data) throws {
        var tail = movieTail
        if let range = tail.range(of: Self.fixtureID) { tail.replaceSubrange(range, with: id) }
        _ = FileManager.default.createFile(atPath: url.path, contents: movieHead)
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: UInt64(movieTailOffset))
        try handle.write(contentsOf: tail)
        try handle.close()
    }

    /// One generated library; returns its root.
    private func generate(seed: UInt64, recursive: Bool) throws -> URL {
        var rng = SplitMix64(seed: seed)
        let root = dir.appendingPathComponent("lib-\(seed)")
        let folders = recursive ? ["", "a", "a/b", "z"] : [""]
        for folder in folders {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        func place(_ name: String) -> URL {
            root.appendingPathComponent(folders[Int(rng.next() % UInt64(folders.count))]).appendingPathComponent(name)
        }
        var n = Int(seed) * 1000
        for _ in 0..<(10 + Int(rng.next() % 40)) {
            n += 1
            let id = identifier(n)
            let folder = folders[Int(rng.next() % UInt64(folders.count))]
            let here = root.appendingPathComponent(folder)
            switch rng.next() % 8 {
            case 0, 1:   // an ordinary Live Photo, halves next to each other in the listing
                try writeStill(here.appendingPathComponent("IMG_\(n).JPG"), id: id)
                try writeMovie(here.appendingPathComponent("IMG_\(n).MOV"), id: id)
            case 2:      // split across the listing: the movie sorts far after its still
                try writeStill(here.appendingPathComponent("A_\(n).JPG"), id: id)
                try writeMovie(here.appendingPathComponent("Z_\(n).MOV"), id: id)
            case 3:      // two stills (a copy) sharing one identifier and one movie
                try writeStill(here.appendingPathComponent("IMG_\(n).JPG"), id: id)
                try writeStill(here.appendingPathComponent("IMG_\(n) copy.JPG"), id: id)
                try writeMovie(here.appendingPathComponent("IMG_\(n).MOV"), id: id)
            case 4:      // orphans: a still whose movie is gone, a movie whose still is gone
                try writeStill(here.appendingPathComponent("IMG_\(n).JPG"), id: id)
                try writeMovie(here.appendingPathComponent("MOV_\(n).MOV"), id: identifier(n + 500_000))
            case 5:      // a still without identifier beside a same-named movie: probable by name
                try writeStill(here.appendingPathComponent("IMG_\(n).JPG"), id: nil)
                try writeMovie(here.appendingPathComponent("IMG_\(n).MOV"), id: id)
            case 6:      // halves in different folders (never paired), when there are folders
                try writeStill(place("IMG_\(n).JPG"), id: id)
                try writeMovie(place("IMG_\(n).MOV"), id: id)
            default:     // same name, different identifiers: never paired
                try writeStill(here.appendingPathComponent("IMG_\(n).JPG"), id: id)
                try writeMovie(here.appendingPathComponent("IMG_\(n).MOV"), id: identifier(n + 700_000))
            }
        }
        return root
    }

    func testProgressiveIndexedAndFullScansAgreeOnGeneratedFolders() throws {
        for seed in UInt64(1)...12 {
            let recursive = seed % 3 == 0
            let root = try generate(seed: seed, recursive: recursive)
            let full = try LibraryScanner.scan(directory: root.path, recursive: recursive)
            XCTAssertGreaterThan(full.items.count, 5)

            var rng = SplitMix64(seed: seed &* 7)
            let firstScreen = 1 + Int(rng.next() % UInt64(full.fileCount))
            var reports: [LibraryScanProgress] = []
            let progressive = try LibraryScanner.scanProgressively(directory: root.path, recursive: recursive,
                                                                   firstScreen: firstScreen) { reports.append($0) }
            XCTAssertEqual(progressive.items, full.items, "seed \(seed), first screen \(firstScreen)")
            XCTAssertEqual(progressive.warnings, full.warnings)
            XCTAssertEqual(reports.count, firstScreen < full.fileCount ? 1 : 0)
            if let first = reports.first {
                // A recursive scan reports its first screen before the whole tree is listed.
                XCTAssertEqual(first.listedFiles, recursive ? nil : full.fileCount)
                XCTAssertEqual(first.scan.fileCount, firstScreen, "the first report holds exactly the probed files")
                // The first screen's files are the first files in display order.
                let allFiles = Set(full.items.flatMap { $0.files.map(\.path) })
                XCTAssertTrue(first.scan.items.allSatisfy { $0.files.allSatisfy { allFiles.contains($0.path) } })
            }

            let index = LibraryIndex(path: dir.appendingPathComponent("index-\(seed).sqlite").path)
            let filling = try LibraryScanner.scanProgressively(directory: root.path, recursive: recursive, index: index,
                                                               firstScreen: firstScreen, remembersInBackground: false) { _ in }
            XCTAssertEqual(filling.items, full.items, "seed \(seed): first scan through the index")
            let fromIndex = try LibraryScanner.scan(directory: root.path, recursive: recursive, index: index)
            XCTAssertEqual(fromIndex.probedFiles, 0)
            XCTAssertEqual(fromIndex.items, full.items, "seed \(seed): scan from the index")
            var known: [LibraryScanProgress] = []
            let progressiveFromIndex = try LibraryScanner.scanProgressively(directory: root.path, recursive: recursive,
                                                                            index: index, firstScreen: firstScreen,
                                                                            remembersInBackground: false) { known.append($0) }
            XCTAssertEqual(progressiveFromIndex.items, full.items, "seed \(seed): progressive from the index")
            // With a first report, the whole library is then shown from the last scan: exactly the full scan.
            XCTAssertEqual(known.filter(\.fromIndex).map(\.scan.items), firstScreen < full.fileCount ? [full.items] : [],
                           "seed \(seed): the remembered whole view")
        }
    }

    /// The browser waits in `beforeRest` for its first screen: only after a first report, or a small folder
    /// (nothing reported) would wait for a screen that never comes.
    func testBeforeRestRunsOnlyAfterAFirstReport() throws {
        for recursive in [false, true] {
            let root = try generate(seed: recursive ? 6 : 7, recursive: recursive)
            let full = try LibraryScanner.scan(directory: root.path, recursive: recursive)
            var events: [String] = []
            let whole = try LibraryScanner.scanProgressively(directory: root.path, recursive: recursive,
                                                             firstScreen: full.fileCount,
                                                             beforeRest: { events.append("rest") }) { _ in events.append("report") }
            XCTAssertEqual(whole.items, full.items)
            if recursive {
                XCTAssertTrue(events.isEmpty || events == ["report", "rest"], "\(events)")
            } else {
                XCTAssertEqual(events, [], "everything fits the first screen: one step, no wait")
            }
            events = []
            let split = try LibraryScanner.scanProgressively(directory: root.path, recursive: recursive, firstScreen: 2,
                                                             beforeRest: { events.append("rest") }) { _ in events.append("report") }
            XCTAssertEqual(split.items, full.items)
            XCTAssertEqual(events, ["report", "rest"], "recursive \(recursive)")
        }
    }

    func testGeneratorMakesEveryKindOfPairing() throws {
        let root = try generate(seed: 4, recursive: false)
        let kinds = Set(try LibraryScanner.scan(directory: root.path).items.compactMap(\.pairing))
        XCTAssertEqual(kinds, [.contentIdentifier, .probableByName], "every pairing kind the test means to cover")
        let warnings = try LibraryScanner.scan(directory: root.path).items.flatMap(\.warnings).joined(separator: "\n")
        XCTAssertTrue(warnings.contains("missing"), warnings)
    }

    func testInputOrderDoesNotChangeThePairing() throws {
        let root = try generate(seed: 5, recursive: true)
        let files = try LibraryScanner.scan(directory: root.path, recursive: true).items.flatMap(\.files)
        var rng = SplitMix64(seed: 99)
        let expected = LivePairer.pair(files)
        for _ in 0..<5 {
            XCTAssertEqual(LivePairer.pair(files.shuffled(using: &rng)), expected)
        }
    }
}
