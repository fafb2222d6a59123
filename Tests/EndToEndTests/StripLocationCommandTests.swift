import Foundation
import MediaFormats
import TestSupport
import XCTest

/// `livegrid export --strip-location` as a user runs it; exiftool confirms the copies carry no position
/// and the originals still do.
final class StripLocationCommandTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        root = try Fixtures.makeTemporaryDirectory("export-nogps").path
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    private func exiftool(_ arguments: [String]) throws -> String {
        let path = try MissingRequirement.path(of: "exiftool", for: "the independent location check cannot run")
        return try ToolRunner.run(path, arguments).output
    }

    func testExportStripLocationLeavesNoGPSInStillOrMovie() throws {
        let binary = try MissingRequirement.livegridBinary()
        let library = root + "/library", out = root + "/out"
        for dir in [library, out] { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        for name in ["train.jpg", "train.mov"] {
            try FileManager.default.copyItem(atPath: Fixtures.committed(name), toPath: library + "/" + name)
        }
        let arguments = ["-gps:all", "-xmp-exif:all", "-UserData:GPSCoordinates", "-Keys:GPSCoordinates",
                         "-Keys:LocationAccuracyHorizontal", "-a", "-G1", "-s"]
        XCTAssertTrue(try exiftool(arguments + [library + "/train.jpg", library + "/train.mov"]).contains("GPSLatitude"))

        let result = try ToolRunner.run(binary, ["export", "--strip-location", library + "/train.jpg", "--to", out],
                                        mergeErrors: true)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("1 of 1 item exported"), result.output)
        let after = try exiftool(arguments + [out + "/train.jpg", out + "/train.mov"])
        XCTAssertFalse(after.contains("GPS"), after)
        XCTAssertFalse(after.contains("Location"), after)
        XCTAssertTrue(try exiftool(arguments + [library + "/train.mov"]).contains("GPSCoordinates"), "the original keeps it")
        XCTAssertEqual(MediaProbe.probe(try FileByteSource(path: out + "/train.mov")).contentIdentifier,
                       MediaProbe.probe(try FileByteSource(path: out + "/train.jpg")).contentIdentifier, "still a pair")
    }
}
