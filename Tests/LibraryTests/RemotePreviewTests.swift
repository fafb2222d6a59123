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

    /// A HEIC's thumbnail item lies in the head (an iPhone's ends 33 KB in): it is the preview, a one-image HEIF
    /// file, and the 1.8 MB photo is never fetched for it. A HEIC without a thumbnail item has none.
    func testTheHeadOfAHEICGivesItsThumbnailItemWithoutTheWholeFile() async throws {
        let photos = root.appendingPathComponent("www/photos/heic")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Fixtures.shared("iphone-se-still.heic"), toPath: photos.appendingPathComponent("phone.heic").path)
        try FileManager.default.copyItem(atPath: try Fixtures.shared("IMG_2927.HEIC"), toPath: photos.appendingPathComponent("grid.heic").path)
        let nginx = try RemoteTestHarness.startNginx(root: root)
        servers.append(nginx)
        let client = RemoteHTTPClient(configuration: { var c = RemoteHTTPConfiguration(); c.netrc = Netrc(); return c }())
        let library = RemoteLibrary(url: URL(string: "http://127.0.0.1:\(nginx.port)/photos/heic/")!, client: client,
                                    cacheRoot: root.appendingPathComponent("cache").path)
        library.probePolicy = .onDemand
        let items = try await library.load()
        for item in items { library.requestPreview(item.id) }
        try await waitUntil(seconds: 20) { library.items.allSatisfy { $0.preview.isSettled } }

        let phone = try XCTUnwrap(library.items.first { $0.item.displayName == "phone.heic" }?.preview.preview)
        XCTAssertEqual(phone.info.format, .heif)
        let size = try XCTUnwrap(phone.uprightSize)
        XCTAssertEqual(size.width * 3, size.height * 4, "the thumbnail item's 4:3, upright: \(size)")
        XCTAssertLessThanOrEqual(size.width, 512, "the thumbnail, not the 4032 px photo")
        XCTAssertEqual(phone.replacesStill, true, "no Motion Photo's movie: a picture and nothing more")
        XCTAssertLessThan(phone.bytesFetched, 80 << 10, "the head, not 1.8 MB")
        XCTAssertTrue(phone.path.hasSuffix(".heic"))
        XCTAssertLessThan(try XCTUnwrap(FileManager.default.attributesOfItem(atPath: phone.path)[.size] as? Int), 40_000)
        guard case .none = try XCTUnwrap(library.items.first { $0.item.displayName == "grid.heic" }).preview else {
            return XCTFail("a HEIC without a thumbnail item has no preview")
        }
        let lines = accessLog().filter { $0.contains("/photos/heic/") && !$0.hasPrefix("GET /photos/heic/ ") }
        XCTAssertTrue(lines.allSatisfy { $0.contains(" 206 range=bytes=") }, "ranges only:\n" + lines.joined(separator: "\n"))
    }
}
