import Foundation
import Library
import LibraryCore
import LibrarySources
import LivePairing
import MediaFormats
import TestSupport
import XCTest

/// Issue 19.6: an export with `stripLocation` leaves without GPS — Exif GPS IFD, XMP exif:GPS*, QuickTime
/// ©xyz and com.apple.quicktime.location.* — confirmed by exiftool; pictures and sound are untouched and
/// the originals unchanged.
final class LocationStripTests: XCTestCase {
    private var root = ""
    private var library = ""
    private var out = ""

    override func setUpWithError() throws {
        root = try Fixtures.makeTemporaryDirectory("strip-location").path
        library = root + "/library"
        out = root + "/out"
        for dir in [library, out] { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    /// A tool the check needs; missing under CI=true is a failure, otherwise a skip.
    private func tool(_ name: String) throws -> String {
        try MissingRequirement.path(of: name, for: "skipping the independent check")
    }

    private func run(_ name: String, _ arguments: [String]) throws -> String {
        let result = try ExternalTool.runProgram(try tool(name), arguments)
        XCTAssertEqual(result.status, 0, "\(name) \(arguments.joined(separator: " ")): \(result.err)")
        return result.out
    }

    /// exiftool's every tag of `file` that mentions a position.
    private func locationTags(_ file: String) throws -> [String] {
        try run("exiftool", ["-a", "-G1", "-s", "-ee", file]).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("[System]") }   // file name and directory: not the picture's data
            .filter { $0.range(of: "GPS", options: .caseInsensitive) != nil || $0.range(of: "Location", options: .caseInsensitive) != nil }
    }

    private func copy(_ fixture: String, as name: String) throws -> String {
        let path = library + "/" + name
        try FileManager.default.copyItem(atPath: fixture, toPath: path)
        return path
    }

    private func export(_ paths: [String], choice: ExportChoice? = nil) throws -> ExportReport {
        let items = try ItemResolver.resolve(paths)
        return try ExportRunner().run(ExportPlan(items: items, destination: out, choiceForAll: choice, stripLocation: true))
    }

    func testALivePhotoLeavesWithoutGPSInStillAndMovie() throws {
        let still = try copy(Fixtures.committed("train.jpg"), as: "train.jpg")
        let movie = try copy(Fixtures.committed("train.mov"), as: "train.mov")
        let before = [FileManager.default.contents(atPath: still), FileManager.default.contents(atPath: movie)]
        XCTAssertFalse(try locationTags(still).isEmpty, "the fixture must carry a position for this test to mean anything")
        XCTAssertFalse(try locationTags(movie).isEmpty)

        let report = try export([still])
        XCTAssertEqual(report.failedCount, 0, report.summary)
        XCTAssertEqual(try locationTags(out + "/train.jpg"), [])
        XCTAssertEqual(try locationTags(out + "/train.mov"), [])
        // Everything else is still there: the pairing keys, the camera, the pictures.
        let tags = try run("exiftool", ["-a", "-G1", "-s", "-ContentIdentifier", "-Make", "-LensModel", out + "/train.jpg", out + "/train.mov"])
        XCTAssertTrue(tags.contains("[Keys]          ContentIdentifier"), tags)
        XCTAssertTrue(tags.contains("[ExifIFD]       LensModel"), tags)
        XCTAssertEqual(try LibraryScanner.scan(directory: out).items.first?.kind, .live, "the copies pair again")
        XCTAssertEqual(try ExternalTool.packetHash(out + "/train.mov", stream: "v:0"),
                       try ExternalTool.packetHash(movie, stream: "v:0"), "video packets copied untouched")
        XCTAssertEqual(try decodedHash(out + "/train.jpg"), try decodedHash(still), "the JPEG picture is the same")
        // No leftovers in the bytes: the movie's ISO 6709 text and the still's GPS IFD are gone, not just unlinked.
        let movieBytes = try XCTUnwrap(FileManager.default.contents(atPath: out + "/train.mov"))
        XCTAssertNil(movieBytes.range(of: Data("+52.20".utf8)))
        XCTAssertNil(try LocationReader.location(try FileByteSource(path: out + "/train.jpg")))
        XCTAssertNotNil(try LocationReader.location(try FileByteSource(path: still)))
        XCTAssertFalse(try MediaProbe.probe(path: out + "/train.jpg").hasGPS)
        XCTAssertEqual([FileManager.default.contents(atPath: still), FileManager.default.contents(atPath: movie)], before,
                       "the originals are untouched")
    }

    /// A JPEG with a position in XMP too (written by exiftool), and its XMP sidecar.
    func testXMPPositionsInTheFileAndTheSidecarAreRemoved() throws {
        let still = library + "/xmp.jpg"
        _ = try run("exiftool", ["-q", "-o", still, "-XMP-exif:GPSLatitude=52.2097", "-XMP-exif:GPSLongitude=-0.8955",
                                 "-XMP-exif:GPSAltitude=103", "-XMP-dc:Title=kept", Fixtures.committed("train.jpg")])
        let sidecar = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
         <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/"
          xmp:Rating="4" exif:GPSLatitude="52,12.58N" exif:GPSLongitude="0,53.73W">
          <exif:GPSAltitude>103/1</exif:GPSAltitude>
         </rdf:Description>
        </rdf:RDF></x:xmpmeta>
        """
        try Data(sidecar.utf8).write(to: URL(fileURLWithPath: still + ".xmp"))
        XCTAssertTrue(try locationTags(still).contains { $0.hasPrefix("[XMP-exif]") })

        let report = try export([still])
        XCTAssertEqual(report.failedCount, 0, report.summary)
        XCTAssertEqual(try locationTags(out + "/xmp.jpg"), [])
        XCTAssertTrue(try run("exiftool", ["-s", "-XMP-dc:Title", out + "/xmp.jpg"]).contains("kept"), "other XMP is kept")
        XCTAssertEqual(try locationTags(out + "/xmp.jpg.xmp"), [])
        let text = String(decoding: try XCTUnwrap(FileManager.default.contents(atPath: out + "/xmp.jpg.xmp")), as: UTF8.self)
        XCTAssertTrue(text.contains("xmp:Rating=\"4\""), text)
        XCTAssertFalse(text.contains("GPS"), text)
    }

    /// A movie with the position in `udta/©xyz` (what ffmpeg and Android write).
    func testUserDataLocationOfAMovieIsRemoved() throws {
        let movie = library + "/clip.mov"
        _ = try run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10", "-t", "1",
                               "-c:v", "libx264", "-metadata", "location=+52.2097-000.8955/", "-metadata", "title=kept",
                               "-y", movie])
        XCTAssertTrue(try locationTags(movie).contains { $0.hasPrefix("[UserData]") })
        let report = try export([movie])
        XCTAssertEqual(report.failedCount, 0, report.summary)
        XCTAssertEqual(try locationTags(out + "/clip.mov"), [])
        XCTAssertTrue(try run("exiftool", ["-s", "-Title", out + "/clip.mov"]).contains("kept"))
        XCTAssertEqual(try ExternalTool.packetHash(out + "/clip.mov", stream: "v:0"), try ExternalTool.packetHash(movie, stream: "v:0"))
        XCTAssertNil(try LocationReader.location(try FileByteSource(path: out + "/clip.mov")))
        XCTAssertEqual(try LocationReader.location(try FileByteSource(path: movie))?.description, "52.20970° N, 0.89550° W")
    }

    /// A HEIC made by libheif's heif-enc with GPS and XMP GPS added by exiftool.
    func testHEICLeavesWithoutGPSAndTheOldExifBytesAreBlanked() throws {
        let heic = library + "/photo.heic"
        // A small picture keeps x265 quick; the Exif (with GPS) comes from train.jpg through exiftool.
        let small = root + "/small.png"
        _ = try run("ffmpeg", ["-v", "error", "-i", Fixtures.committed("train.jpg"), "-vf", "scale=320:240", "-y", small])
        _ = try run("heif-enc", ["-q", "40", "-o", heic, small])
        _ = try run("exiftool", ["-q", "-overwrite_original", "-TagsFromFile", Fixtures.committed("train.jpg"), "-gps:all",
                                 "-Make", "-Model", heic])
        _ = try run("exiftool", ["-q", "-overwrite_original", "-XMP-exif:GPSLatitude=52.2097", heic])
        XCTAssertTrue(try locationTags(heic).contains { $0.hasPrefix("[GPS]") })
        XCTAssertTrue(try locationTags(heic).contains { $0.hasPrefix("[XMP-exif]") })
        let original = FileManager.default.contents(atPath: heic)
        let report = try export([heic])
        XCTAssertEqual(report.failedCount, 0, report.summary)
        XCTAssertEqual(try locationTags(out + "/photo.heic"), [])
        XCTAssertNil(try LocationReader.location(try FileByteSource(path: out + "/photo.heic")))
        _ = try run("heif-convert", [out + "/photo.heic", root + "/decoded.png"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/decoded.png"), "libheif still decodes the copy")
        // The whole old Exif item is zeroed: its "Exif\0\0" header no longer appears twice.
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: out + "/photo.heic"))
        let before = try XCTUnwrap(original)
        XCTAssertLessThan(occurrences(of: Data("Apple".utf8), in: bytes), occurrences(of: Data("Apple".utf8), in: before) * 2,
                          "the unreferenced old Exif copy is blanked")
        XCTAssertEqual(FileManager.default.contents(atPath: heic), original, "the original is untouched")
    }

    /// Issue 31.8: a Motion Photo leaves as a Motion Photo (it was refused), and as a still without its movie.
    func testAMotionPhotoLeavesAsLiveAndAsAStillWithoutGPS() throws {
        let motion = try copy(Fixtures.committed("motion-photo-v1.jpeg"), as: "motion.jpg")
        let live = try export([motion], choice: .livePhoto)
        XCTAssertEqual(live.failedCount, 0, live.summary)
        XCTAssertEqual(try locationTags(out + "/motion.jpg"), [])
        XCTAssertNotNil(try MediaProbe.probe(path: out + "/motion.jpg").embeddedMovie, "still a Motion Photo")
        try FileManager.default.removeItem(atPath: out + "/motion.jpg")
        let still = try export([motion], choice: .stillPhoto)
        XCTAssertEqual(still.failedCount, 0, still.summary)
        XCTAssertEqual(try locationTags(out + "/motion.jpg"), [])
        XCTAssertNil(try MediaProbe.probe(path: out + "/motion.jpg").embeddedMovie)
    }

    /// Real camera files from ../shared (skipped without it): an iPhone HEIC and a Samsung JPEG with GPS.
    func testSharedCameraFilesLeaveWithoutGPS() throws {
        guard Fixtures.sharedDirectory != nil else { throw XCTSkip("../shared/fixtures is absent: skipping the camera files") }
        for name in ["iphone-se-still.heic", "samsung-still.jpeg"] {
            let path = try copy(try Fixtures.shared(name), as: name)
            XCTAssertFalse(try locationTags(path).isEmpty, name)
            let report = try export([path], choice: .stillPhoto)
            XCTAssertEqual(report.failedCount, 0, report.summary)
            XCTAssertEqual(try locationTags(out + "/" + name), [], name)
        }
    }

    /// MD5 of the decoded picture (not of the file: its metadata changed on purpose).
    private func decodedHash(_ file: String) throws -> String {
        try run("ffmpeg", ["-v", "error", "-i", file, "-map", "0:v:0", "-f", "md5", "-"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func occurrences(of needle: Data, in data: Data) -> Int {
        var count = 0
        var start = data.startIndex
        while let found = data.range(of: needle, in: start..<data.endIndex) {
            count += 1
            start = found.upperBound
        }
        return count
    }
}
