import Foundation
import Library
import LibraryCore
import LibrarySources
import LivePairing
import MediaFormats
import TestSupport
import XCTest

/// A stand-in for the writers module: appends a marker naming the change, or refuses movies. This tests the
/// orchestration only; the real writers get end-to-end tests once merged.
struct FakeOrientationWriter: LosslessOrientationWriting {
    var movieFails = false
    func reorientStill(_ still: MediaFile, source: any ByteSource, by adjustment: Adjustment) throws -> ByteAssembly {
        ByteAssembly([.source(ByteRange(offset: 0, length: source.size)), .bytes(Array(adjustment.rawValue.utf8))])
    }
    func reorientMovie(_ movie: MediaFile, source: any ByteSource, by adjustment: Adjustment) throws -> ByteAssembly {
        if movieFails { throw MediaError.unsupported("codec without a display matrix") }
        return ByteAssembly([.source(ByteRange(offset: 0, length: source.size)), .bytes(Array(adjustment.rawValue.utf8))])
    }
}

final class TriageAdjustmentTests: XCTestCase {
    var root = ""
    override func setUpWithError() throws { root = try TriageFixtures.tempDir("livegrid-adjust") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    func testExportCopiesAdjustBothHalvesAndLeaveOriginals() throws {
        let item = try TriageFixtures.livePair(in: root, name: "IMG_1")
        let out = root + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let original = TriageFixtures.bytes(root + "/IMG_1.MOV")
        let outcome = try AdjustmentApplier(writer: FakeOrientationWriter())
            .apply(.rotateClockwise, to: item, target: .exportCopies(directory: out))
        XCTAssertEqual(outcome, .applied([out + "/IMG_1.JPG", out + "/IMG_1.MOV"]))
        XCTAssertEqual(TriageFixtures.bytes(out + "/IMG_1.MOV"), original.map { $0 + Data("rotateClockwise".utf8) })
        XCTAssertEqual(TriageFixtures.bytes(root + "/IMG_1.MOV"), original)
        // A second export keeps the adjusted pair paired too.
        _ = try AdjustmentApplier(writer: FakeOrientationWriter()).apply(.flipHorizontal, to: item, target: .exportCopies(directory: out))
        XCTAssertEqual(TriageFixtures.names(out), ["IMG_1 (2).JPG", "IMG_1 (2).MOV", "IMG_1.JPG", "IMG_1.MOV"])
    }

    func testAMovieThatCannotTurnLeavesTheStillAloneAndOffersAStill() throws {
        let item = try TriageFixtures.livePair(in: root, name: "IMG_2")
        let before = TriageFixtures.names(root).map { TriageFixtures.bytes(root + "/" + $0) }
        let outcome = try AdjustmentApplier(writer: FakeOrientationWriter(movieFails: true))
            .apply(.rotateCounterclockwise, to: item, target: .inPlace(confirmed: true))
        guard case .offerConvertToStill(.writerRefused(let cause)) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertTrue(cause.contains("codec without a display matrix"), cause)
        XCTAssertEqual(TriageFixtures.names(root).map { TriageFixtures.bytes(root + "/" + $0) }, before)
    }

    func testInPlaceNeedsConfirmationThenReplacesBothAtomically() throws {
        let item = try TriageFixtures.livePair(in: root, name: "IMG_3")
        let applier = AdjustmentApplier(writer: FakeOrientationWriter())
        XCTAssertThrowsError(try applier.apply(.rotate180, to: item, target: .inPlace(confirmed: false))) {
            XCTAssertEqual($0 as? AdjustmentApplier.ApplyError, .inPlaceNeedsConfirmation)
        }
        let still = TriageFixtures.bytes(root + "/IMG_3.JPG")
        XCTAssertEqual(try applier.apply(.rotate180, to: item, target: .inPlace(confirmed: true)),
                       .applied([root + "/IMG_3.JPG", root + "/IMG_3.MOV"]))
        XCTAssertEqual(TriageFixtures.bytes(root + "/IMG_3.JPG"), still.map { $0 + Data("rotate180".utf8) })
        XCTAssertEqual(TriageFixtures.names(root), ["IMG_3.JPG", "IMG_3.MOV"], "no temporary or backup file left")
    }

    func testMotionPhotosAreOfferedAStillSinceTheEmbeddedMovieCannotTurn() throws {
        let path = root + "/m.jpeg"
        try TriageFixtures.copy("motion-photo-v1.jpeg", to: path)
        let motion = LibraryItem(kind: .motion, still: TriageFixtures.file(path, .jpeg), pairing: .embedded)
        guard case .offerConvertToStill = try AdjustmentApplier(writer: FakeOrientationWriter())
            .apply(.rotateClockwise, to: motion, target: .exportCopies(directory: root)) else { return XCTFail() }
    }
}
