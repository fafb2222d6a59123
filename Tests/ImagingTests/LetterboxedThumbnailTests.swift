import Foundation
@testable import Imaging
import MediaFormats
import TestSupport
import XCTest

/// Issue 28.4: a 3:2 camera's 4:3 Exif thumbnail, the picture between black bars, serves once the bars are cut
/// off; a thumbnail whose "bars" hold picture is never cut and never used.
final class LetterboxedThumbnailTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws { dir = try Fixtures.makeTemporaryDirectory("livegrid-letterbox") }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func ffmpeg(_ arguments: [String]) throws {
        let tool = try MissingRequirement.path(of: "ffmpeg", for: "cannot make the camera-like JPEGs")
        let result = try ExternalTool.runProgram(tool, ["-v", "error", "-y"] + arguments)
        XCTAssertEqual(result.status, 0, result.err)
    }

    /// A 1200x800 photo (orange, a white square in the middle) with `thumbnail` as its Exif IFD1 thumbnail.
    private func camera(_ name: String, thumbnailFilter: String) throws -> String {
        let exiftool = try MissingRequirement.path(of: "exiftool", for: "cannot embed the Exif thumbnail")
        let photo = dir.appendingPathComponent(name).path
        let thumb = dir.appendingPathComponent(name + ".thumb.jpg").path
        let picture = "color=c=orange:size=1200x800,drawbox=x=450:y=250:w=300:h=300:color=white:t=fill"
        try ffmpeg(["-f", "lavfi", "-i", picture, "-frames:v", "1", photo])
        try ffmpeg(["-f", "lavfi", "-i", picture, "-frames:v", "1", "-vf", thumbnailFilter, thumb])
        let embedded = try ExternalTool.runProgram(exiftool, ["-overwrite_original", "-ThumbnailImage<=" + thumb, photo])
        XCTAssertEqual(embedded.status, 0, embedded.err)
        return photo
    }

    private func rowIsDark(_ frame: PixelFrame, _ y: Int) -> Bool {
        (0..<frame.width).allSatisfy { x in frame.rgba[(y * frame.width + x) * 4] < 60 }
    }

    func testALetterboxedThumbnailServesWithoutItsBars() throws {
        // What Canon/Nikon write: the 3:2 picture fitted to 160 wide (107 high), black bars to 120.
        let photo = try camera("IMG_0001.JPG", thumbnailFilter: "scale=160:107,pad=160:120:0:6:black")
        let info = try MediaProbe.probe(path: photo)
        XCTAssertNotNil(info.exifThumbnail, "exiftool embedded the thumbnail")
        let decoded = try ImageDecoder.decode(path: photo, fitting: PixelSize(width: 48, height: 48))
        XCTAssertEqual(decoded.path, .exifThumbnailLetterboxed)
        XCTAssertEqual(decoded.frame.width, 48)
        XCTAssertEqual(decoded.frame.height, 32, "the photo's 3:2, not the thumbnail's 4:3")
        XCTAssertFalse(rowIsDark(decoded.frame, 0), "no bar left at the top")
        XCTAssertFalse(rowIsDark(decoded.frame, decoded.frame.height - 1), "nor at the bottom")
    }

    func testAThumbnailWhoseEdgesHoldPictureIsNotCut() throws {
        // A 4:3 thumbnail stretched from the photo: its top and bottom rows are orange, not bars.
        let photo = try camera("IMG_0002.JPG", thumbnailFilter: "scale=160:120")
        let decoded = try ImageDecoder.decode(path: photo, fitting: PixelSize(width: 48, height: 48))
        XCTAssertFalse(decoded.path.isEmbeddedThumbnail, "refused as before: \(decoded.path)")
        XCTAssertEqual(decoded.frame.height, 32)
    }

    func testContentRectsOfThePaddingCamerasUse() {
        XCTAssertEqual(LetterboxedThumbnail.contentRect(of: PixelSize(width: 160, height: 120), for: PixelSize(width: 6000, height: 4000)),
                       .init(x: 0, y: 6, width: 160, height: 107))
        XCTAssertEqual(LetterboxedThumbnail.contentRect(of: PixelSize(width: 120, height: 160), for: PixelSize(width: 4000, height: 6000)),
                       .init(x: 6, y: 0, width: 107, height: 160), "portrait: bars left and right")
        XCTAssertNil(LetterboxedThumbnail.contentRect(of: PixelSize(width: 160, height: 120), for: PixelSize(width: 4000, height: 3000)),
                     "same aspect: nothing to cut")
        XCTAssertNil(LetterboxedThumbnail.contentRect(of: PixelSize(width: 160, height: 120), for: PixelSize(width: 4000, height: 1000)),
                     "a panorama's bars would be most of the thumbnail")
    }
}
