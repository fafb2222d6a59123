import Foundation
import XCTest
@testable import Library
@testable import LibrarySources
import LivePairing
import MediaFormats
import TestSupport

/// Issue 28.1: a remote still's picture from its head range (the Exif IFD1 thumbnail), against nginx.
final class RemotePreviewTests: RemoteServerTestCase {
    private func accessLog() -> [String] {
        // try?: no log yet is no request yet.
        ((try? String(contentsOf: root.appendingPathComponent("access.log"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    func testTheHeadOfAJPEGGivesItsThumbnailWithoutTheWholeFile() async throws {
        let photos = root.appendingPathComponent("www/photos")
        try FileManager.default.createDirectory(at: photos.appendingPathComponent("lone"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: photos.appendingPathComponent("train.jpg").path,
                                         toPath: photos.appendingPathComponent("lone/camera.jpg").path)
        try FileManager.default.copyItem(atPath: photos.appendingPathComponent("motion-photo-v1.jpeg").path,
                                         toPath: photos.appendingPathComponent("lone/pixel.jpg").path)
        let nginx = try RemoteTestHarness.startNginx(root: root)
        servers.append(nginx)
        let client = RemoteHTTPClient(configuration: { var c = RemoteHTTPConfiguration(); c.netrc = Netrc(); return c }())
        let library = RemoteLibrary(url: URL(string: "http://127.0.0.1:\(nginx.port)/photos/lone/")!, client: client,
                                    cacheRoot: root.appendingPathComponent("cache").path)
        library.probePolicy = .onDemand
        let items = try await library.load()
        for item in items { library.requestPreview(item.id) }
        try await waitUntil(seconds: 20) { library.items.allSatisfy { $0.preview.isSettled && $0.preview.preview?.replacesStill != nil } }

        let camera = try XCTUnwrap(library.items.first { $0.item.displayName == "camera.jpg" }?.preview.preview)
        XCTAssertEqual(camera.info.pixelWidth, 160)
        XCTAssertEqual(camera.info.pixelHeight, 120)
        XCTAssertEqual(camera.info.orientation, 1, "the still's orientation")
        XCTAssertEqual(camera.replacesStill, true, "no XMP and no trailer: a picture and nothing more")
        // train.jpg's thumbnail is bytes 2340..<10952 (8,612 bytes) of a 12 KB Exif segment with a MakerNote.
        XCTAssertLessThanOrEqual(camera.bytesFetched, 8612 * 3 / 2, "a small head and the thumbnail's range, not the Exif segment and more")
        XCTAssertGreaterThanOrEqual(camera.bytesFetched, 8612)
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: camera.path)).prefix(2)), [0xFF, 0xD8])
        let pixel = try XCTUnwrap(library.items.first { $0.item.displayName == "pixel.jpg" }?.preview.preview)
        XCTAssertEqual(pixel.replacesStill, false, "XMP may carry a Motion Photo's movie: the still is still fetched")

        let lines = accessLog().filter { $0.contains("/photos/lone/") && !$0.hasPrefix("GET /photos/lone/ ") }
        XCTAssertTrue(lines.allSatisfy { $0.contains(" 206 range=bytes=") }, "ranges only:\n" + lines.joined(separator: "\n"))
        let cameraLines = lines.filter { $0.contains("camera.jpg") }
        XCTAssertEqual(cameraLines.count, 4, "the head, the rest of the thumbnail, the marker after Exif's segment (1.3 KB further), the last 8 bytes:\n"
                       + cameraLines.joined(separator: "\n"))
        XCTAssertTrue(cameraLines.contains { $0.contains("range=bytes=5120-10951") }, "the thumbnail's range exactly:\n" + cameraLines.joined(separator: "\n"))
    }
}
