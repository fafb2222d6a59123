import Foundation
import Library
import LibraryCore
import LivePairing
import MediaFormats
import TestSupport
import XCTest

/// The triage core with the real byte writers (`MediaWritingOrientationWriter`, `stillWithoutMotion`), on
/// copies of the committed fixtures; results are read back with the parsers and the scanner.
final class TriageWritersTests: XCTestCase {
    var root = ""
    override func setUpWithError() throws { root = try TriageFixtures.tempDir("livegrid-writers") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    private func scannedItem(_ directory: String, named name: String) throws -> LibraryItem {
        let items = try LibraryScanner.scan(directory: directory).items
        return try XCTUnwrap(items.first { $0.displayName == name }, "\(name) not in \(items.map(\.displayName))")
    }

    func testRotatingALivePhotoInPlaceTurnsStillAndMovieAndKeepsThePair() throws {
        try TriageFixtures.copy("train.jpg", to: root + "/train.jpg")
        try TriageFixtures.copy("train.mov", to: root + "/train.mov")
        let item = try scannedItem(root, named: "train.jpg")
        XCTAssertEqual(item.kind, .live)
        let stillBefore = try MediaProbe.probe(path: root + "/train.jpg")
        let movieBefore = try MediaProbe.probe(path: root + "/train.mov")

        let outcome = try AdjustmentApplier(writer: MediaWritingOrientationWriter())
            .apply(.rotateClockwise, to: item, target: .inPlace(confirmed: true))
        XCTAssertEqual(outcome, .applied([root + "/train.jpg", root + "/train.mov"]))

        let stillAfter = try MediaProbe.probe(path: root + "/train.jpg")
        let movieAfter = try MediaProbe.probe(path: root + "/train.mov")
        XCTAssertEqual(stillAfter.orientation,
                       OrientationChange.rotateClockwise.applied(toExifOrientation: stillBefore.orientation ?? 1))
        XCTAssertEqual(movieAfter.rotation, ((movieBefore.rotation ?? 0) + 90) % 360)
        XCTAssertEqual(stillAfter.contentIdentifier, stillBefore.contentIdentifier)
        XCTAssertEqual(movieAfter.contentIdentifier, movieBefore.contentIdentifier)
        XCTAssertEqual(TriageFixtures.names(root), ["train.jpg", "train.mov"], "no temporary file left")
        let again = try scannedItem(root, named: "train.jpg")
        XCTAssertEqual(again.kind, .live, "the rotated pair still pairs")
        XCTAssertEqual(again.movie?.fileName, "train.mov")
    }

    func testRotatedExportCopiesLeaveTheOriginalsAlone() throws {
        try TriageFixtures.copy("train.jpg", to: root + "/train.jpg")
        try TriageFixtures.copy("train.mov", to: root + "/train.mov")
        let original = TriageFixtures.bytes(root + "/train.mov")
        let out = root + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let item = try scannedItem(root, named: "train.jpg")
        XCTAssertEqual(try AdjustmentApplier(writer: MediaWritingOrientationWriter())
            .apply(.rotateCounterclockwise, to: item, target: .exportCopies(directory: out)),
                       .applied([out + "/train.jpg", out + "/train.mov"]))
        XCTAssertEqual(TriageFixtures.bytes(root + "/train.mov"), original)
        XCTAssertEqual(try MediaProbe.probe(path: out + "/train.mov").rotation,
                       ((try MediaProbe.probe(path: root + "/train.mov").rotation ?? 0) + 270) % 360)
        XCTAssertEqual(try scannedItem(out, named: "train.jpg").kind, .live)
    }

    func testAMovieTheWriterRefusesOffersAStillAndChangesNothing() throws {
        // A "movie" that is really a JPEG: the real writer refuses it, so the still must not turn alone.
        try TriageFixtures.copy("train.jpg", to: root + "/IMG_1.JPG")
        try TriageFixtures.copy("train.jpg", to: root + "/IMG_1.MOV")
        let item = LibraryItem(kind: .live, still: TriageFixtures.file(root + "/IMG_1.JPG", .jpeg),
                               movie: TriageFixtures.file(root + "/IMG_1.MOV", .quickTime),
                               contentIdentifier: "X", pairing: .contentIdentifier)
        let before = TriageFixtures.bytes(root + "/IMG_1.JPG")
        let outcome = try AdjustmentApplier(writer: MediaWritingOrientationWriter())
            .apply(.rotateClockwise, to: item, target: .inPlace(confirmed: true))
        guard case .offerConvertToStill = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(TriageFixtures.bytes(root + "/IMG_1.JPG"), before)
    }

    func testAHEICStillIsRefusedWithAClearError() throws {
        let path = root + "/IMG.HEIC"
        try FileManager.default.copyItem(atPath: try Fixtures.shared("iphone-se-still.heic"), toPath: path)
        let item = LibraryItem(kind: .still, still: TriageFixtures.file(path, .heif))
        XCTAssertThrowsError(try AdjustmentApplier(writer: MediaWritingOrientationWriter())
            .apply(.rotateClockwise, to: item, target: .inPlace(confirmed: true))) { error in
            XCTAssertTrue("\(error)".contains("not supported"), "\(error)")
        }
    }

    func testAMotionPhotoExportedAsAStillHasNoMovieAndTheSamePicture() throws {
        try TriageFixtures.copy("motion-photo-v1.jpeg", to: root + "/motion-photo-v1.jpeg")
        let out = root + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let item = try scannedItem(root, named: "motion-photo-v1.jpeg")
        XCTAssertEqual(item.kind, .motion)
        XCTAssertNotNil(item.still?.info.embeddedMovie)

        let report = try ExportRunner().run(ExportPlan(items: [item], destination: out, choiceForAll: .stillPhoto))
        XCTAssertEqual(report.failedCount, 0, report.summary)
        let exported = out + "/motion-photo-v1.jpeg"
        XCTAssertEqual(report.results.first?.written, [exported])
        let info = try MediaProbe.probe(path: exported)
        XCTAssertNil(info.embeddedMovie)
        let text = String(decoding: try XCTUnwrap(TriageFixtures.bytes(exported)), as: UTF8.self)
        for flag in ["MotionPhoto", "MicroVideo", "GCamera:MotionPhoto"] {
            XCTAssertFalse(text.contains(flag + "=\"1\""), "\(flag) flag left in the still")
        }
        XCTAssertEqual(try scannedItem(out, named: "motion-photo-v1.jpeg").kind, .still)

        // The picture itself (JPEG scan data from the first SOS to EOI) is byte-identical.
        let original = [UInt8](try XCTUnwrap(TriageFixtures.bytes(root + "/motion-photo-v1.jpeg")))
        let still = [UInt8](try XCTUnwrap(TriageFixtures.bytes(exported)))
        let scan = try XCTUnwrap(Self.scanData(still))
        let originalStart = try XCTUnwrap(Self.firstSOS(original))
        XCTAssertEqual(Array(original[originalStart..<(originalStart + scan.count)]), scan)
        XCTAssertLessThan(still.count, original.count)
    }

    /// The first SOS marker's offset (0xFFDA after the header segments).
    static func firstSOS(_ bytes: [UInt8]) -> Int? {
        var i = 2
        while i + 4 <= bytes.count, bytes[i] == 0xFF {
            if bytes[i + 1] == 0xDA { return i }
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        return nil
    }

    /// From the first SOS through EOI.
    static func scanData(_ bytes: [UInt8]) -> [UInt8]? {
        guard let start = firstSOS(bytes) else { return nil }
        var end = start
        while end + 1 < bytes.count, !(bytes[end] == 0xFF && bytes[end + 1] == 0xD9) { end += 1 }
        guard end + 1 < bytes.count else { return nil }
        return Array(bytes[start...(end + 1)])
    }
}
