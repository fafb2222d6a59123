import Foundation
import Imaging
import TestSupport
import XCTest

/// Issue 14.4 for `show`: a Live Photo still whose movie is missing wears LIVE OFF, in symbols and in pixels.
final class LiveOffEndToEndTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try Fixtures.makeTemporaryDirectory("livegrid-liveoff")
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"),
                                         toPath: directory.appendingPathComponent("train.jpg").path)
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    private var still: String { directory.appendingPathComponent("train.jpg").path }

    private func addMovie() throws {
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.mov"),
                                         toPath: directory.appendingPathComponent("train.mov").path)
    }

    private func show(_ format: String) throws -> String {
        let result = try LivegridCommand.run(["show", "--size", "30x8", "--format", format, "--colors", "256", "--no-cache", still],
                                             environment: ["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path])
        XCTAssertEqual(result.status, 0, result.err)
        return result.out
    }

    private func text(_ output: String) -> String {
        output.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    func testSymbolsSayLiveOffWithoutTheMovieAndLiveWithIt() throws {
        let alone = text(try show("symbols"))
        XCTAssertTrue(alone.contains("⊘ LIVE OFF"), "movie missing:\n\(alone)")
        try addMovie()
        let paired = text(try show("symbols"))
        XCTAssertTrue(paired.contains("◎ LIVE"), "movie beside it:\n\(paired)")
        XCTAssertFalse(paired.contains("OFF"), paired)
    }

    /// The kitty bytes carry the RGBA pixels: the LIVE OFF box is the LIVE box and more (" OFF"), so right
    /// of where LIVE's box ends the LIVE OFF picture is the LIVE picture darkened by the badge backing.
    func testPixelsCarryTheLiveOffBadge() throws {
        // try?: bytes that are not a PNG make no picture, and the XCTUnwrap fails.
        let off = try XCTUnwrap(KittyImage(bytes: Array(try show("kitty").utf8), decodePNG: { try? PNGCodec.decode($0).rgba }))
        try addMovie()
        // try?: bytes that are not a PNG make no picture, and the XCTUnwrap fails.
        let live = try XCTUnwrap(KittyImage(bytes: Array(try show("kitty").utf8), decodePNG: { try? PNGCodec.decode($0).rgba }))
        XCTAssertEqual(off.width, live.width)
        XCTAssertEqual(off.height, live.height)
        // LiveBadge+Pixels geometry below 180 px: scale 1, margin 3, pad 2, glyphs 5x7 with 1 px gaps;
        // LIVE's box is 36 px wide, LIVE OFF's 60. Row 3 is the box's top padding (no ink).
        let y = 3
        var darkened = 0
        for x in 42..<60 {
            let a = off.pixel(x: x, y: y), b = live.pixel(x: x, y: y)
            // Overlay backing: 60 % black over the photo.
            let expected = b.map { Int(Double($0) * 0.4) }
            if zip(a, expected).allSatisfy({ abs($0 - $1) <= 4 }) { darkened += 1 }
        }
        XCTAssertGreaterThanOrEqual(darkened, 16, "the LIVE OFF box reaches past LIVE's")
        // Outside the badge corner the pictures are the same photo.
        for (x, yy) in [(off.width - 5, off.height - 5), (off.width / 2, off.height / 2)] {
            XCTAssertEqual(off.pixel(x: x, y: yy), live.pixel(x: x, y: yy))
        }
    }
}
