import Foundation
import MediaFormats
import TestSupport
import XCTest

/// Issue 31.7: a Samsung HEIC Motion Photo (One UI 6: HEVC movie, timestamp in the XMP) showed saturated blue
/// frames on entering the viewer, before the still or the hint replaced them. The movie here lists no key
/// frames (no `stss`: every sample counts as a sync sample), so the hint's seek lands on a predicted frame:
/// decoded without its references it is garbage (grey plus residuals). Everything drawn, grid and viewer,
/// from start to the end of the hint, must be the photo's orange: no saturated blue, no grey.
final class MotionPhotoHintColourEndToEndTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        try TmuxSession.requireTmux()
        root = try Fixtures.makeTemporaryDirectory("livegrid-hint-colour")
    }

    override func tearDown() {
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    /// 0xC08040 still (heif-enc) and a 3 s HEVC movie of it, key frames 1.5 s apart and not listed, joined by
    /// livegrid's own writer with the still's moment at 1.5 s: the hint plays 1.0-2.0 s, a seek to a P frame.
    private func makeMotionPhoto(in library: URL) throws -> String {
        let ffmpeg = try MissingRequirement.path(of: "ffmpeg", for: "cannot make the HEVC movie")
        let heifEnc = try MissingRequirement.path(of: "heif-enc", for: "cannot make the HEIC still")
        let png = root.appendingPathComponent("still.png").path, heic = root.appendingPathComponent("still.heic").path
        let movie = root.appendingPathComponent("movie.mp4").path
        let colour = "color=c=0xC08040:s=1280x720:r=30"
        var made = try ExternalTool.runProgram(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", colour, "-frames:v", "1", "-y", png])
        XCTAssertEqual(made.status, 0, made.err)
        made = try ExternalTool.runProgram(heifEnc, ["-q", "80", png, "-o", heic])
        XCTAssertEqual(made.status, 0, made.err)
        made = try ExternalTool.runProgram(ffmpeg, [
            "-v", "error", "-f", "lavfi", "-i", colour + ":d=3", "-vf", "format=yuv420p",
            "-c:v", "libx265", "-x265-params", "log-level=error:keyint=45:min-keyint=45:scenecut=0", "-tag:v", "hvc1", "-y", movie])
        guard made.status == 0 else { throw MissingRequirement.tool("ffmpeg cannot encode HEVC (libx265): \(made.err)") }
        var movieBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: movie)))
        let stss = Array("stss".utf8)
        let at = try XCTUnwrap((0..<(movieBytes.count - 4)).first { Array(movieBytes[$0..<$0 + 4]) == stss }, "x265's MP4 lists its key frames")
        movieBytes.replaceSubrange(at..<at + 4, with: Array("free".utf8))
        let still = try [UInt8](Data(contentsOf: URL(fileURLWithPath: heic)))
        let movieSource = MemoryByteSource(movieBytes)
        let assembly = try MediaWriting.motionPhoto(still: still, movie: movieSource, presentationTimestampUs: 1_500_000)
        let path = library.appendingPathComponent("20240612_101500.heic").path
        try Data(try assembly.materialize(from: movieSource)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The 24-bit colours of the picture rows (header and the two bottom lines left out), from an `-e` capture.
    private static func pictureColours(_ capture: String) throws -> [[Int]] {
        let lines = capture.components(separatedBy: "\n")
        guard lines.count > 4 else { return [] }
        var colours: [[Int]] = []
        let pattern = try NSRegularExpression(pattern: "[34]8;2;(\\d+);(\\d+);(\\d+)")
        for line in lines[2..<(lines.count - 4)] {
            let text = line as NSString
            for match in pattern.matches(in: line, range: NSRange(location: 0, length: text.length)) {
                colours.append((1...3).compactMap { Int(text.substring(with: match.range(at: $0))) })
            }
        }
        return colours
    }

    private static func isSaturatedBlue(_ c: [Int]) -> Bool { c[2] >= 128 && c[2] - max(c[0], c[1]) >= 64 }
    /// The mid grey libavcodec invents for a missing reference.
    private static func isMidGrey(_ c: [Int]) -> Bool {
        (96...160).contains(c[0]) && abs(c[0] - c[1]) < 16 && abs(c[1] - c[2]) < 16
    }
    private static func isOrange(_ c: [Int]) -> Bool { abs(c[0] - 192) < 24 && abs(c[1] - 128) < 24 && abs(c[2] - 64) < 24 }

    func testEnteringTheViewerOnAnHEVCMotionPhotoDrawsNoBlueOrGreyFrame() throws {
        let library = root.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        _ = try makeMotionPhoto(in: library)
        let scan = try LivegridCommand.run(["scan", "--json", library.path])
        XCTAssertTrue(scan.out.contains("\"motion\""), "a Motion Photo: \(scan.out) \(scan.err)")

        let binary = try MissingRequirement.livegridBinary()
        let home = root.appendingPathComponent("home").path, trace = root.appendingPathComponent("trace").path
        let command = "env -u TERM_PROGRAM -u VTE_VERSION -u LIVEGRID_GRAPHICS XDG_CONFIG_HOME='\(home)/config' "
            + "XDG_CACHE_HOME='\(home)/cache' LIVEGRID_TRACE='\(trace)' COLORTERM=truecolor TERM=tmux-256color "
            + "'\(binary)' '\(library.path)'"
        let session = try TmuxSession(command: command, columns: 120, rows: 40)
        func traceLog() -> String { (try? String(contentsOfFile: trace, encoding: .utf8)) ?? "" }   // not written yet: empty
        // Every screen, grid and viewer, until a hint started in the viewer has ended (or 20 s), as fast as tmux
        // answers.
        var seen: [[Int]] = []
        var captures = 0
        var enteredAt: Int?   // the trace's length in bytes when Enter was sent
        let deadline = Date().addingTimeInterval(20)
        func hintEndedInTheViewer() -> Bool {
            guard let enteredAt else { return false }
            let after = String(decoding: traceLog().utf8.dropFirst(enteredAt), as: UTF8.self)
            guard let start = after.range(of: "playback-start hint") else { return false }
            return after[start.upperBound...].contains("playback-end")
        }
        repeat {
            let capture = try session.run(["capture-pane", "-p", "-e", "-t", session.name])
            seen += try Self.pictureColours(capture)
            captures += 1
            if enteredAt == nil, let top = try session.screen().first, top.contains("1 item") {
                enteredAt = traceLog().utf8.count
                try session.send("Enter")
            }
        } while !hintEndedInTheViewer() && Date() < deadline
        seen += try Self.pictureColours(try session.run(["capture-pane", "-p", "-e", "-t", session.name]))

        let log = traceLog()
        XCTAssertTrue(hintEndedInTheViewer(), "a hint played in the viewer (else nothing was checked):\n\(log)")
        XCTAssertTrue(log.contains("first-frame-drawn"), "a movie frame was drawn:\n\(log)")
        XCTAssertGreaterThan(seen.filter(Self.isOrange).count, 100, "the orange photo was drawn (\(captures) captures)")
        let blue = seen.filter(Self.isSaturatedBlue), grey = seen.filter(Self.isMidGrey)
        func some(_ colours: [[Int]]) -> String { Set(colours.map { "\($0)" }).sorted().prefix(8).joined(separator: " ") }
        XCTAssertEqual(blue.count, 0, "saturated blue cells: \(some(blue))")
        XCTAssertEqual(grey.count, 0, "grey cells (a frame decoded without its references): \(some(grey))")
    }
}
