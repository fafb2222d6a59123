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

    /// Issue 31.8: a Motion Photo loses the location of its still and of its embedded movie (it was refused
    /// whole), stays a Motion Photo, and one without any location leaves byte for byte.
    func testAMotionPhotoLeavesWithoutTheLocationOfEitherHalf() throws {
        let binary = try MissingRequirement.livegridBinary()
        let library = root + "/library", out = root + "/out", extracted = root + "/extracted"
        for dir in [library, out, extracted] { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        for name in ["train.jpg", "train.mov", "motion-photo-v1.jpeg"] {
            try FileManager.default.copyItem(atPath: Fixtures.committed(name), toPath: library + "/" + name)
        }
        let made = try ToolRunner.run(binary, ["convert", library + "/train.jpg", "--to", "motion", "-o", library], mergeErrors: true)
        XCTAssertEqual(made.status, 0, made.output)
        let motion = library + "/train-motion.jpg"
        let arguments = ["-gps:all", "-UserData:GPSCoordinates", "-Keys:GPSCoordinates", "-a", "-G1", "-s"]
        XCTAssertTrue(try exiftool(arguments + [motion]).contains("GPSLatitude"), "the made Motion Photo's still has a position")

        let result = try ToolRunner.run(binary, ["export", "--strip-location", motion, library + "/motion-photo-v1.jpeg", "--to", out],
                                        mergeErrors: true)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("2 of 2 items exported"), result.output)
        XCTAssertFalse(try exiftool(arguments + [out + "/train-motion.jpg"]).contains("GPS"), "the still's position is gone")
        let info = MediaProbe.probe(try FileByteSource(path: out + "/train-motion.jpg"))
        XCTAssertNotNil(info.embeddedMovie, "still a Motion Photo")
        let extract = try ToolRunner.run(binary, ["extract", out + "/train-motion.jpg", "-o", extracted], mergeErrors: true)
        XCTAssertEqual(extract.status, 0, extract.output)
        let movies = try FileManager.default.contentsOfDirectory(atPath: extracted).filter { $0.lowercased().hasSuffix(".mp4") || $0.lowercased().hasSuffix(".mov") }
        let movie = try XCTUnwrap(movies.first, "extract wrote the embedded movie: \(extract.output)")
        let movieTags = try exiftool(arguments + [extracted + "/" + movie])
        XCTAssertFalse(movieTags.contains("GPSCoordinates"), "the embedded movie's position is gone: \(movieTags)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/motion-photo-v1.jpeg")),
                       try Data(contentsOf: URL(fileURLWithPath: library + "/motion-photo-v1.jpeg")),
                       "a Motion Photo with no position anywhere is copied as it is")
    }
}
