import Foundation
import Library
import LivePairing
import MediaFormats
import TestSupport
import XCTest

/// `livegrid export` run as a user would, on copies of the committed fixtures; results read back with the
/// scanner and the parsers.
final class TriageExportCommandTests: XCTestCase {
    private var root = ""
    private var library = ""
    private var out = ""

    override func setUpWithError() throws {
        root = try Fixtures.makeTemporaryDirectory("export-cli").path
        library = root + "/library"
        out = root + "/out"
        for dir in [library, out] { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        for name in ["train.jpg", "train.mov", "motion-photo-v1.jpeg"] {
            try FileManager.default.copyItem(atPath: Fixtures.committed(name), toPath: library + "/" + name)
        }
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    @discardableResult
    private func export(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let binary = try MissingRequirement.livegridBinary()
        return try ToolRunner.run(binary, ["export"] + arguments + ["--to", out], mergeErrors: true)
    }

    private func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).sorted() }

    private func item(_ name: String) throws -> LibraryItem {
        try XCTUnwrap(try LibraryScanner.scan(directory: out).items.first { $0.displayName == name }, "\(names())")
    }

    func testALivePhotoExportedAsLiveKeepsBothHalvesWithOneIdentifier() throws {
        let result = try export([library + "/train.mov", "--as", "live"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(names(), ["train.jpg", "train.mov"])
        let still = try MediaProbe.probe(path: out + "/train.jpg")
        let movie = try MediaProbe.probe(path: out + "/train.mov")
        XCTAssertNotNil(still.contentIdentifier)
        XCTAssertEqual(still.contentIdentifier, movie.contentIdentifier)
        XCTAssertEqual(try item("train.jpg").kind, .live, "the scanner pairs the export again")
    }

    func testALivePhotoExportedAsStillHasNoMovie() throws {
        let result = try export([library + "/train.jpg", "--as", "still"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(names(), ["train.jpg"])
        XCTAssertEqual(try item("train.jpg").kind, .still)
    }

    func testAMotionPhotoExportedAsStillHasNoEmbeddedMovie() throws {
        let result = try export([library + "/motion-photo-v1.jpeg", "--as", "still"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(names(), ["motion-photo-v1.jpeg"])
        XCTAssertNil(try MediaProbe.probe(path: out + "/motion-photo-v1.jpeg").embeddedMovie)
        XCTAssertEqual(try item("motion-photo-v1.jpeg").kind, .still)
        XCTAssertEqual(try MediaProbe.probe(path: library + "/motion-photo-v1.jpeg").embeddedMovie != nil, true,
                       "the original keeps its movie")
    }

    func testRotateTurnsTheExportedPairAndLeavesTheOriginals() throws {
        let before = FileManager.default.contents(atPath: library + "/train.mov")
        let result = try export([library + "/train.jpg", "--rotate", "right"])
        XCTAssertEqual(result.status, 0, result.output)
        let originalStill = try MediaProbe.probe(path: library + "/train.jpg")
        let originalMovie = try MediaProbe.probe(path: library + "/train.mov")
        XCTAssertEqual(try MediaProbe.probe(path: out + "/train.jpg").orientation,
                       OrientationChange.rotateClockwise.applied(toExifOrientation: originalStill.orientation ?? 1))
        XCTAssertEqual(try MediaProbe.probe(path: out + "/train.mov").rotation, ((originalMovie.rotation ?? 0) + 90) % 360)
        XCTAssertEqual(FileManager.default.contents(atPath: library + "/train.mov"), before)
        XCTAssertEqual(try item("train.jpg").kind, .live)
    }

    func testRotatingAMotionPhotoExportedLiveIsRefusedClearly() throws {
        let result = try export([library + "/motion-photo-v1.jpeg", "--rotate", "left"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.output.contains("cannot rotate motion-photo-v1.jpeg"), result.output)
    }
}
