import Foundation
import Imaging
import MediaFormats
import TestSupport
import XCTest

final class ThumbnailCacheTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = try Fixtures.makeTemporaryDirectory("livegrid-thumbs")
    }

    override func tearDownWithError() throws {
        // Restore permissions a test may have removed, then clean up.
        chmod(directory.appendingPathComponent("readonly").path, 0o755)
        try? FileManager.default.removeItem(at: directory)
    }

    func makePhoto(_ name: String = "photo one.jpg") throws -> String {
        let jpeg = try GeneratedJPEG.encode(GeneratedJPEG.frame(width: 640, height: 480, markers: [(.topLeft, GeneratedJPEG.red)]))
        let path = directory.appendingPathComponent(name).path
        _ = FileManager.default.createFile(atPath: path, contents: Data(jpeg))
        return path
    }

    func mode(_ path: String) -> mode_t {
        var st = stat()
        stat(path, &st)
        return st.st_mode & 0o777
    }

    func testWritesSpecCompliantThumbnailsAndRegeneratesStaleOnes() throws {
        let photo = try makePhoto()
        let cache = ThumbnailCache(root: directory.appendingPathComponent("cache/thumbnails").path, version: "9.9", environment: ProcessInfo.processInfo.environment)
        let first = try cache.thumbnail(forFile: photo, size: .large)
        XCTAssertFalse(first.fromCache)
        XCTAssertEqual(first.frame.size, PixelSize(width: 256, height: 192))

        let uri = "file://" + photo.replacingOccurrences(of: " ", with: "%20")
        let thumbPath = cache.root + "/large/" + MD5.hexDigest(uri) + ".png"
        XCTAssertEqual(cache.thumbnailPath(forFile: photo, size: .large), thumbPath)
        let png = [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: thumbPath)))
        let text = PNGChunks.textEntries(of: png)
        var st = stat()
        stat(photo, &st)
        XCTAssertEqual(text["Thumb::URI"], uri)
        XCTAssertEqual(text["Thumb::MTime"], String(st.st_mtim.tv_sec))
        XCTAssertEqual(text["Thumb::Size"], String(st.st_size))
        XCTAssertEqual(text["Thumb::Mimetype"], "image/jpeg")
        XCTAssertEqual(text["Software"], "livegrid 9.9")
        XCTAssertEqual(mode(thumbPath), 0o600)
        XCTAssertEqual(mode(cache.root + "/large"), 0o700)
        XCTAssertEqual(mode(cache.root), 0o700)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: cache.root + "/large")
        XCTAssertEqual(leftovers, [MD5.hexDigest(uri) + ".png"], "no temp files left behind")

        XCTAssertTrue(try cache.thumbnail(forFile: photo, size: .large).fromCache)

        // A changed mtime makes the entry stale: regenerated, with the new MTime.
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, photo, &times, 0), 0)
        XCTAssertNil(cache.cached(forFile: photo, size: .large))
        let again = try cache.thumbnail(forFile: photo, size: .large)
        XCTAssertFalse(again.fromCache)
        let png2 = [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: thumbPath)))
        XCTAssertEqual(PNGChunks.textEntries(of: png2)["Thumb::MTime"], "1000000000")
    }

    func testFailuresAreRememberedPerVersion() throws {
        let broken = directory.appendingPathComponent("broken.jpg").path
        _ = FileManager.default.createFile(atPath: broken, contents: Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + [UInt8](repeating: 7, count: 64)))
        let cache = ThumbnailCache(root: directory.appendingPathComponent("thumbnails").path, version: "1.2", environment: ProcessInfo.processInfo.environment)
        XCTAssertThrowsError(try cache.thumbnail(forFile: broken, size: .normal))
        let failPath = cache.failurePath(forFile: broken)
        XCTAssertTrue(failPath.contains("/fail/livegrid-1.2/"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: failPath))
        XCTAssertThrowsError(try cache.thumbnail(forFile: broken, size: .normal)) {
            // Remembered, and still said in plain words; the detail says it was remembered.
            XCTAssertEqual(($0 as? ImagingError)?.problem.isDamage, true, "\($0)")
            XCTAssertTrue(($0 as? ImagingError)?.verboseDescription.contains("failed before") ?? false, "\($0)")
        }
    }

    func testReadOnlyCacheFallsBackToMemoryWithOneWarning() throws {
        let photo = try makePhoto()
        let other = try makePhoto("other.jpg")
        let readonly = directory.appendingPathComponent("readonly")
        try FileManager.default.createDirectory(at: readonly, withIntermediateDirectories: true)
        chmod(readonly.path, 0o555)
        if getuid() == 0 {
            // Permissions do not stop root; the immutable attribute does (no new entries, even for root).
            guard let chattr = ExternalTool.path("chattr") else {
                throw MissingRequirement.tool("chattr is not installed (e2fsprogs): cannot make a folder read-only for root")
            }
            let result = try ExternalTool.runProgram(chattr, ["+i", readonly.path])
            guard result.status == 0 else {
                // A file system without attributes (tmpfs, overlayfs): the condition cannot be made here.
                throw XCTSkip("chattr +i failed (a file system without attributes?): \(result.err)")
            }
        }
        defer { if getuid() == 0 { _ = try? ExternalTool.runProgram("/usr/bin/chattr", ["-i", readonly.path]) } }
        final class Warnings: @unchecked Sendable { var list: [String] = [] }
        let warnings = Warnings()
        let cache = ThumbnailCache(root: readonly.appendingPathComponent("thumbnails").path, version: "1", environment: ProcessInfo.processInfo.environment, warn: { warnings.list.append($0) })
        XCTAssertFalse(try cache.thumbnail(forFile: photo, size: .normal).fromCache)
        XCTAssertFalse(try cache.thumbnail(forFile: other, size: .normal).fromCache)
        XCTAssertTrue(cache.isMemoryOnly)
        XCTAssertEqual(warnings.list.count, 1)
        XCTAssertTrue(try cache.thumbnail(forFile: photo, size: .normal).fromCache)
    }

    func testUnwritableRootFallsBackToMemory() throws {
        // A root below a regular file can never be created, root or not.
        let photo = try makePhoto()
        let blocker = directory.appendingPathComponent("file").path
        _ = FileManager.default.createFile(atPath: blocker, contents: Data([1]))
        final class Warnings: @unchecked Sendable { var list: [String] = [] }
        let warnings = Warnings()
        let cache = ThumbnailCache(root: blocker + "/thumbnails", version: "1", environment: ProcessInfo.processInfo.environment, warn: { warnings.list.append($0) })
        XCTAssertFalse(try cache.thumbnail(forFile: photo, size: .normal).fromCache)
        XCTAssertTrue(try cache.thumbnail(forFile: photo, size: .normal).fromCache)
        XCTAssertTrue(cache.isMemoryOnly)
        XCTAssertEqual(warnings.list.count, 1)
    }

    func testNeverThumbnailsFilesInsideTheCache() throws {
        let root = directory.appendingPathComponent("thumbnails").path
        let cache = ThumbnailCache(root: root, version: "1", environment: ProcessInfo.processInfo.environment)
        let photo = try makePhoto()
        _ = try cache.thumbnail(forFile: photo, size: .normal)
        let thumb = cache.thumbnailPath(forFile: photo, size: .normal)
        XCTAssertTrue(cache.isInsideCache(thumb))
        XCTAssertFalse(cache.isInsideCache(photo))
        XCTAssertEqual(ThumbnailCache.defaultRoot(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/h"]), "/x/cache/thumbnails")
        XCTAssertEqual(ThumbnailCache.defaultRoot(environment: ["HOME": "/h"]), "/h/.cache/thumbnails")
        XCTAssertEqual(ThumbnailSize.covering(200), .large)
        XCTAssertEqual(ThumbnailSize.covering(2000), .xxLarge)
    }
}

/// A file that cannot be stat'ed is a typed "unreadable" with its errno, not a string.
final class ThumbnailCacheTypedErrorTests: XCTestCase {
    func testMissingFileIsUnreadableMissing() {
        let cache = ThumbnailCache(root: FileManager.default.temporaryDirectory.path + "/livegrid-thumbs-\(getpid())",
                                   version: "test", environment: [:], warn: { _ in })
        XCTAssertThrowsError(try cache.thumbnail(forFile: "/nonexistent-livegrid-\(getpid()).jpg", size: .normal)) { error in
            XCTAssertEqual((error as? ImagingError)?.problem, .unreadable(.missing), "\(error)")
            XCTAssertEqual("\(error)", "unreadable: no such file")
        }
    }
}

/// The shared freedesktop cache never receives a small embedded thumbnail that symbol cells accepted.
final class ThumbnailCacheEmbeddedTests: XCTestCase {
    func testASmallExifThumbnailServesSymbolsButIsNotStoredAsALargeThumbnail() throws {
        let original = try Fixtures.shared("train.jpg")   // 4032x3024 with a 160x120 Exif thumbnail
        let directory = try Fixtures.makeTemporaryDirectory("livegrid-thumbs")
        defer { try? FileManager.default.removeItem(at: directory) }
        let photo = directory.appendingPathComponent("train.jpg").path
        try FileManager.default.copyItem(atPath: original, toPath: photo)
        let cache = ThumbnailCache(root: directory.appendingPathComponent("cache").path, version: "9.9", environment: ProcessInfo.processInfo.environment)
        // 24x12 cells in symbols: 4 px per column suffice (CellPictureResolution), 96x96 here.
        let symbols = DecodeOptions(embeddedThumbnailSufficientBox: PixelSize(width: 96, height: 96))
        let small = try cache.thumbnail(forFile: photo, size: .large, options: symbols)
        XCTAssertEqual(small.path, .exifThumbnail)
        XCTAssertEqual(small.frame.size, PixelSize(width: 160, height: 120))
        XCTAssertTrue(small.isBelowCacheSize)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.thumbnailPath(forFile: photo, size: .large)),
                       "a 160x120 picture must not be stored as a 256 px thumbnail")
        XCTAssertNil(cache.cached(forFile: photo, size: .large))

        // Without the symbol rule the full 256x192 thumbnail is decoded and stored, as file managers expect.
        let full = try cache.thumbnail(forFile: photo, size: .large)
        XCTAssertEqual(full.frame.size, PixelSize(width: 256, height: 192))
        XCTAssertFalse(full.isBelowCacheSize)
        XCTAssertEqual(cache.cached(forFile: photo, size: .large)?.size, PixelSize(width: 256, height: 192))

        // A thumbnail that fills the size (normal, 128 px) is stored even when taken through the rule.
        let normal = try cache.thumbnail(forFile: photo, size: .normal, options: symbols)
        XCTAssertEqual(normal.path, .exifThumbnail)
        XCTAssertFalse(normal.isBelowCacheSize)
        XCTAssertEqual(cache.cached(forFile: photo, size: .normal)?.size, PixelSize(width: 128, height: 96))
    }

    func testTheThumbnailServesExactlyUpToTheSufficientBox() throws {
        // 40x15 symbol cells need 160x120; the thumbnail (160x120) serves; a box one pixel wider does not.
        let path = try Fixtures.shared("train.jpg")
        let info = try MediaProbe.probe(path: path)
        let box = PixelSize(width: 320, height: 240)
        let served = try ImageDecoder.decode(path: path, info: info, fitting: box,
                                             options: DecodeOptions(embeddedThumbnailSufficientBox: PixelSize(width: 160, height: 120)))
        XCTAssertEqual(served.path, .exifThumbnail)
        let refused = try ImageDecoder.decode(path: path, info: info, fitting: box,
                                              options: DecodeOptions(embeddedThumbnailSufficientBox: PixelSize(width: 164, height: 123)))
        XCTAssertEqual(refused.path, .jpegScaled)
    }
}

/// A HEIC's thumbnail item follows the same rule as an Exif thumbnail.
final class HEIFThumbnailItemRuleTests: XCTestCase {
    func testTheThumbnailItemServesSymbolCellsUpToTheSufficientBox() throws {
        let path = try Fixtures.shared("iphone-se-still.heic")   // 4032x3024, a 320x240 thumbnail item
        let info = try MediaProbe.probe(path: path)
        // 80x30 symbol cells: chafa's box is 640x480, but 4 px per column (320x240) is what they show.
        let box = PixelSize(width: 640, height: 480)
        let plain = try ImageDecoder.decode(path: path, info: info, fitting: box)
        XCTAssertEqual(plain.path, .heifPrimary, "the old rule: 320x240 does not cover 640x480")
        let symbols = try ImageDecoder.decode(path: path, info: info, fitting: box,
                                              options: DecodeOptions(embeddedThumbnailSufficientBox: PixelSize(width: 320, height: 240)))
        XCTAssertEqual(symbols.path, .heifThumbnail)
        XCTAssertEqual(symbols.frame.size, PixelSize(width: 320, height: 240), "used as it is, never enlarged")
        XCTAssertEqual(symbols.fullSize, PixelSize(width: 4032, height: 3024))
    }
}
