import Foundation
import Imaging
import TestSupport
import XCTest

/// `livegrid show` as a user runs it: pictures as text, the LIVE badge on a Live Photo still, a clear error
/// for a broken file without losing the others, and thumbnails from the freedesktop cache used when fresh.
final class ShowCommandTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("livegrid-show-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    private func show(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try LivegridCommand.run(["show", "--size", "20x6", "--format", "symbols", "--colors", "full"] + arguments,
                                environment: ["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path])
    }

    private func copyTrain() throws -> String {
        let path = directory.appendingPathComponent("train.jpg").path
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"), toPath: path)
        return path
    }

    func testPrintsThePictureWithTheLiveBadgeAndReportsABrokenFile() throws {
        let train = try copyTrain()
        let broken = directory.appendingPathComponent("broken.jpg").path
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 4]).write(to: URL(fileURLWithPath: broken))
        let result = try show([train, broken])
        XCTAssertEqual(result.status, 1, "one file failed")
        let lines = result.out.split(separator: "\n")
        XCTAssertGreaterThanOrEqual(lines.count, 3, result.out)
        XCTAssertLessThanOrEqual(lines.count, 6, "no more rows than asked")
        XCTAssertTrue(result.out.contains(";38;2;"), "truecolour cells")
        let text = result.out.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        XCTAssertTrue(text.contains("LIVE"), "train.jpg is a Live Photo still:\n\(text)")
        XCTAssertTrue(result.err.contains("broken.jpg"), result.err)
        XCTAssertEqual(result.err.split(separator: "\n").count, 1, "one line per failure: \(result.err)")
    }

    /// A fresh cached thumbnail is what show draws; --no-cache, or a thumbnail older than the file, is not.
    func testUsesAFreshFreedesktopThumbnail() throws {
        let train = try copyTrain()
        let attributes = try FileManager.default.attributesOfItem(atPath: train)
        let mtime = Int((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)
        let size = UInt64((attributes[.size] as? NSNumber)?.uint64Value ?? 0)
        let cache = ThumbnailCache(version: "test",
                                   environment: ["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path])
        // A solid red "thumbnail" of the right shape: unmistakable in the output.
        let red = PixelFrame(width: 256, height: 192,
                             rgba: Array([[UInt8]](repeating: [255, 0, 0, 255], count: 256 * 192).joined()))
        cache.store(red, forFile: train, size: .large, mtime: mtime, fileSize: size, mimeType: "image/jpeg")

        let cached = try show([train])
        XCTAssertEqual(cached.status, 0, cached.err)
        XCTAssertTrue(cached.out.contains("255;0;0"), "the cached thumbnail was drawn")
        let decoded = try show(["--no-cache", train])
        XCTAssertFalse(decoded.out.contains("255;0;0m"), "--no-cache decodes the photo")

        cache.store(red, forFile: train, size: .large, mtime: mtime - 60, fileSize: size, mimeType: "image/jpeg")
        let stale = try show([train])
        XCTAssertFalse(stale.out.contains("255;0;0m"), "a thumbnail older than the file is not used")
    }
}
