import Foundation
import Library
import LivePairing
import MediaFormats
import TestSupport
import XCTest

/// `livegrid make-live / convert / extract` run as a user would, on copies in a temporary directory; the
/// results are checked by the in-process scanner and by exiftool/ffprobe/ffmpeg.
final class MakeLiveTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = try Fixtures.makeTemporaryDirectory("make-live")
    }
    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    func livegrid(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let binary = try MissingRequirement.livegridBinary()
        return try ExternalTool.runProgram(binary, arguments)
    }

    func tool(_ name: String, _ arguments: [String]) throws -> String { try ExternalTool.run(name, arguments) }

    func copy(_ fixture: String, as name: String? = nil) throws -> String {
        let source = try Fixtures.shared(fixture)
        let target = dir.appendingPathComponent(name ?? (fixture as NSString).lastPathComponent).path
        try FileManager.default.copyItem(atPath: source, toPath: target)
        return target
    }

    func packetHash(_ file: String, _ stream: String) throws -> String { try ExternalTool.packetHash(file, stream: stream) }

    func files() throws -> Set<String> { Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) }

    func liveItem(named prefix: String) throws -> LibraryItem {
        let scan = try LibraryScanner.scan(directory: dir.path)
        return try XCTUnwrap(scan.items.first { $0.kind == .live && ($0.still?.fileName.hasPrefix(prefix) ?? false) },
                             "scan items: \(scan.items.map { "\($0.kind) \($0.displayName)" })")
    }

    func testKeyPhotoAndPairedVideo() throws {
        let photo = try copy("limitpoint/keyPhoto.jpg")
        let video = try copy("limitpoint/pairedVideo.mov")
        let result = try livegrid(["make-live", photo, video, "--still-time", "1.5"])
        XCTAssertEqual(result.status, 0, result.err)
        // The movie's identifier is reused (the photo has none).
        let item = try liveItem(named: "keyPhoto-live")
        XCTAssertEqual(item.contentIdentifier, "7A7D4193-1D91-4907-98F8-3B7E41D991D7")
        XCTAssertEqual(item.pairing, .contentIdentifier)
        XCTAssertEqual(try XCTUnwrap(item.movie?.info.stillImageTime), 1.5, accuracy: 0.02)
        let still = try XCTUnwrap(item.still?.path), movie = try XCTUnwrap(item.movie?.path)
        XCTAssertTrue(try tool("exiftool", ["-s", "-MediaGroupUUID", "-ContentIdentifier", still]).contains("7A7D4193"))
        XCTAssertTrue(try tool("exiftool", ["-s", "-ContentIdentifier", movie]).contains("7A7D4193"))
        let streams = try tool("ffprobe", ["-v", "error", "-show_streams", "-show_data", movie])
        XCTAssertTrue(streams.contains("codec_tag_string=mebx"), streams)
        // exiftool decodes the timed metadata sample as the camera's: StillImageTime = -1 (int8 0xFF).
        let embedded = try tool("exiftool", ["-ee", "-a", "-G1", "-s", "-StillImageTime", movie])
        XCTAssertTrue(embedded.contains("StillImageTime") && embedded.contains(": -1"), embedded)
        XCTAssertEqual(try packetHash(movie, "v"), try packetHash(video, "v"))
        // Inputs untouched.
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: photo)), try Data(contentsOf: URL(fileURLWithPath: Fixtures.shared("limitpoint/keyPhoto.jpg"))))
    }

    func testSamsungStillAndGeneratedMovieGetANewIdentifier() throws {
        let photo = try copy("samsung-still.jpeg")
        let video = dir.appendingPathComponent("clip.mp4").path
        _ = try tool("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=duration=2:size=320x240:rate=30",
                                "-f", "lavfi", "-i", "sine=duration=2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac",
                                "-map_metadata", "-1", "-y", video])
        guard FileManager.default.fileExists(atPath: video) else { throw XCTSkip("ffmpeg could not make a movie") }
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let result = try livegrid(["make-live", photo, video, "-o", out.path])
        XCTAssertEqual(result.status, 0, result.err)
        let scan = try LibraryScanner.scan(directory: out.path)
        let item = try XCTUnwrap(scan.items.first { $0.kind == .live })
        let id = try XCTUnwrap(item.contentIdentifier)
        XCTAssertEqual(id, id.uppercased())
        XCTAssertEqual(id.count, 36)
        XCTAssertEqual(try XCTUnwrap(item.movie?.info.stillImageTime), 1.0, accuracy: 0.05)
        let movie = try XCTUnwrap(item.movie?.path)
        XCTAssertEqual(try packetHash(movie, "v"), try packetHash(video, "v"))
        XCTAssertEqual(try packetHash(movie, "a"), try packetHash(video, "a"))
        // A second run does not overwrite the first.
        let again = try livegrid(["make-live", photo, video, "-o", out.path])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).count, 4)
    }

    func testBadInputsLeaveNoFiles() throws {
        let photo = try copy("limitpoint/keyPhoto.jpg")
        let video = try copy("limitpoint/pairedVideo.mov")
        let truncated = dir.appendingPathComponent("truncated.mov").path
        try Data(try Data(contentsOf: URL(fileURLWithPath: video)).prefix(100_000)).write(to: URL(fileURLWithPath: truncated))
        let png = dir.appendingPathComponent("picture.png").path
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 40)).write(to: URL(fileURLWithPath: png))
        let sound = dir.appendingPathComponent("sound.m4a").path
        _ = try tool("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac", "-y", sound])
        let before = try files()
        for (arguments, message) in [([png, video], "JPEG"), ([photo, truncated], "truncated"), ([photo, sound], "no video track"),
                                     ([photo, photo], "not a QuickTime"), ([photo, video, "--identifier", "nope"], "not a UUID")] {
            let result = try livegrid(["make-live"] + arguments)
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.err.contains(message), "\(arguments): \(result.err)")
            XCTAssertEqual(try files(), before, "no file left behind by \(arguments)")
        }
    }

    func testHEICStillBecomesLive() throws {
        let photo = try copy("IMG_2927.HEIC")
        let video = try copy("limitpoint/pairedVideo.mov")
        let result = try livegrid(["make-live", photo, video])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.err.contains("using the photo's"), "the identifiers differ: \(result.err)")
        let item = try liveItem(named: "IMG_2927-live")
        XCTAssertEqual(item.contentIdentifier, "1745E022-9712-43C7-B024-F308EC6413CB")
        XCTAssertEqual(item.still?.fileName, "IMG_2927-live.HEIC")
        let movie = try XCTUnwrap(item.movie?.path)
        XCTAssertTrue(try tool("exiftool", ["-s", "-ContentIdentifier", movie]).contains("1745E022"))
    }

    func testMotionToLiveToMotionKeepsVideoAndPicture() throws {
        let original = try copy("motion-photo-v1.jpeg")
        let toLive = try livegrid(["convert", original, "--to", "live"])
        XCTAssertEqual(toLive.status, 0, toLive.err)
        let live = try liveItem(named: "motion-photo-v1-live")
        XCTAssertEqual(try XCTUnwrap(live.movie?.info.stillImageTime), 0.5, accuracy: 0.02, "from MotionPhotoPresentationTimestampUs")
        XCTAssertNotNil(live.contentIdentifier)
        let liveStill = try XCTUnwrap(live.still?.path)

        let toMotion = try livegrid(["convert", liveStill, "--to", "motion"])
        XCTAssertEqual(toMotion.status, 0, toMotion.err)
        let roundTrip = dir.appendingPathComponent("motion-photo-v1-live-motion.jpg").path
        let info = try MediaProbe.probe(path: roundTrip)
        let embedded = try XCTUnwrap(info.embeddedMovie)
        XCTAssertEqual(embedded.presentationTimestampUs, 500_000)
        XCTAssertEqual(info.contentIdentifier, live.contentIdentifier)

        // Extract both movies and compare the video packets; compare the decoded still pictures.
        let extracted = dir.appendingPathComponent("extracted")
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        for file in [original, roundTrip] {
            let result = try livegrid(["extract", file, "-o", extracted.path])
            XCTAssertEqual(result.status, 0, result.err)
        }
        let a = extracted.appendingPathComponent("motion-photo-v1").path, b = extracted.appendingPathComponent("motion-photo-v1-live-motion").path
        XCTAssertEqual(try packetHash(a + ".mp4", "v:0"), try packetHash(b + ".mp4", "v:0"))
        XCTAssertEqual(try packetHash(a + ".mp4", "a"), try packetHash(b + ".mp4", "a"))
        let pixels = { (path: String) throws -> String in try self.tool("ffmpeg", ["-v", "error", "-i", path, "-f", "md5", "-"]) }
        XCTAssertEqual(try pixels(a + ".jpg"), try pixels(b + ".jpg"))
        XCTAssertEqual(try pixels(a + ".jpg"), try pixels(original), "the extracted still decodes as the Motion Photo")
    }

    func testConvertRefusesAPlainStill() throws {
        let photo = try copy("samsung-still.jpeg")
        let before = try files()
        let result = try livegrid(["convert", photo, "--to", "live"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.err.contains("not a Motion Photo"), result.err)
        XCTAssertEqual(try files(), before)
    }

    /// The corpus audit (issue 32) found "(this is quickTime)": the format's raw value in a refusal.
    func testConvertNamesTheFormatItRefusesInPlainWords() throws {
        let movie = dir.appendingPathComponent("train.mov").path
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.mov"), toPath: movie)
        let result = try livegrid(["convert", movie, "--to", "live"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.err.contains("only JPEG and HEIC Motion Photos can be converted (this is a MOV movie)"), result.err)
        XCTAssertFalse(result.err.contains("quickTime"), result.err)
    }

    func testExtractCopiesBothHalvesOfALivePhoto() throws {
        let still = try copy("train.jpg")
        let movie = try copy("train.mov")
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let result = try livegrid(["extract", still, "-o", out.path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("train.jpg")), try Data(contentsOf: URL(fileURLWithPath: still)))
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("train.mov")), try Data(contentsOf: URL(fileURLWithPath: movie)))
    }

    func testHEICWithoutExifBecomesLive() throws {
        // The Google sample HEIC has no Exif item: make-live adds one holding the MakerNote.
        let photo = try copy("motion-photo.heic")
        let video = try copy("train.mov")
        let result = try livegrid(["make-live", photo, video, "--identifier", "0BADF00D-1111-4222-8333-444455556666"])
        XCTAssertEqual(result.status, 0, result.err)
        let still = dir.appendingPathComponent("motion-photo-live.HEIC").path
        let info = try MediaProbe.probe(path: still)
        XCTAssertEqual(info.contentIdentifier, "0BADF00D-1111-4222-8333-444455556666")
        XCTAssertTrue(try tool("exiftool", ["-s", "-ContentIdentifier", "-MediaGroupUUID", still]).contains("0BADF00D"))
        XCTAssertTrue(try tool("heif-info", [still]).contains("3024x4032"))
    }

    func testHEICLiveToMotionToLive() throws {
        let photo = try copy("iphone-se-still.heic")
        let video = try copy("train.mov")
        XCTAssertEqual(try livegrid(["make-live", photo, video]).status, 0)
        try FileManager.default.removeItem(atPath: video)
        let live = try liveItem(named: "iphone-se-still-live")
        let liveMovie = try XCTUnwrap(live.movie?.path)

        let toMotion = try livegrid(["convert", try XCTUnwrap(live.still?.path), "--to", "motion"])
        XCTAssertEqual(toMotion.status, 0, toMotion.err)
        let motion = dir.appendingPathComponent("iphone-se-still-live-motion.heic").path
        let scan = try livegrid(["scan", "--json", dir.path])
        XCTAssertEqual(scan.status, 0, scan.err)
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: motion)[.size] as? UInt64)
        let movieSize = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: liveMovie)[.size] as? UInt64)
        let compact = scan.out.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\n", with: "")
        XCTAssertTrue(compact.contains("\"kind\":\"heifMpvd\",\"length\":\(movieSize),\"offset\":\(size - movieSize)"), scan.out)

        let back = dir.appendingPathComponent("back")
        try FileManager.default.createDirectory(at: back, withIntermediateDirectories: true)
        let toLive = try livegrid(["convert", motion, "--to", "live", "-o", back.path])
        XCTAssertEqual(toLive.status, 0, toLive.err)
        let again = back.appendingPathComponent("iphone-se-still-live-motion-live")
        XCTAssertEqual(try packetHash(liveMovie, "v"), try packetHash(again.path + ".MOV", "v"))
        let pixels = { (path: String) throws -> String in
            _ = try self.tool("heif-convert", [path, path + ".jpg"])
            return try self.tool("ffmpeg", ["-v", "error", "-i", path + ".jpg", "-f", "md5", "-"])
        }
        XCTAssertEqual(try pixels(photo), try pixels(again.path + ".HEIC"))
        XCTAssertNil(try MediaProbe.probe(path: again.path + ".HEIC").embeddedMovie)

        // extract: the movie byte for byte, the still without mpvd.
        let extracted = dir.appendingPathComponent("extracted")
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        let extract = try livegrid(["extract", motion, "-o", extracted.path])
        XCTAssertEqual(extract.status, 0, extract.err)
        let parts = extracted.appendingPathComponent("iphone-se-still-live-motion").path
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: parts + ".mp4")), try Data(contentsOf: URL(fileURLWithPath: liveMovie)))
        XCTAssertNil(try MediaProbe.probe(path: parts + ".heic").embeddedMovie)
        XCTAssertEqual(try pixels(parts + ".heic"), try pixels(photo))
    }

    func testBrokenHEICsLeaveNoFiles() throws {
        let photo = try copy("motion-photo.heic")
        let video = try copy("train.mov")
        let truncated = dir.appendingPathComponent("truncated.heic").path
        try Data(try Data(contentsOf: URL(fileURLWithPath: photo)).prefix(2_000_000)).write(to: URL(fileURLWithPath: truncated))
        let before = try files()
        for arguments in [["make-live", truncated, video], ["convert", truncated, "--to", "live"], ["convert", truncated, video, "--to", "motion"],
                          ["convert", photo, truncated, "--to", "motion"]] {
            let result = try livegrid(arguments)
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.err.hasPrefix("livegrid: "), "\(arguments): \(result.err)")
            XCTAssertEqual(try files(), before, "no file left behind by \(arguments)")
        }
    }
}
