import Foundation
import Imaging
import MediaFormats
import XCTest

/// Issue 15.5 and 15.6: damaged files are drawn as far as they decode (the rest grey) and marked damaged;
/// failures say what is wrong in the user's terms, the codec's words kept as the detail.
final class DamagedPictureTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("livegrid-damaged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    private func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A 128x128 picture whose every row differs (a vertical gradient with a horizontal one in green).
    private func gradient() -> PixelFrame {
        var frame = PixelFrame(width: 128, height: 128)
        for y in 0..<128 {
            for x in 0..<128 {
                let i = (y * 128 + x) * 4
                frame.rgba[i] = UInt8(y * 2)
                frame.rgba[i + 1] = UInt8(x * 2)
                frame.rgba[i + 2] = 200
            }
        }
        return frame
    }

    private func meanDifference(_ a: PixelFrame, _ b: PixelFrame, rows: Range<Int>) -> Double {
        var total = 0, count = 0
        for y in rows {
            for x in 0..<a.width {
                for c in 0..<3 {
                    let i = (y * a.width + x) * 4 + c
                    total += abs(Int(a.rgba[i]) - Int(b.rgba[i]))
                    count += 1
                }
            }
        }
        return Double(total) / Double(max(1, count))
    }

    private func isGrey(_ frame: PixelFrame, rows: Range<Int>) -> Bool {
        for y in rows {
            for x in 0..<frame.width {
                let i = (y * frame.width + x) * 4
                for c in 0..<3 where abs(Int(frame.rgba[i + c]) - 128) > 6 { return false }
            }
        }
        return true
    }

    // MARK: 15.6 damaged files get a picture

    func testJPEGCutAt60PercentShowsItsTopAndGreyBelow() throws {
        let original = gradient()
        let jpeg = try GeneratedJPEG.encode(original)
        let cut = try write("cut.jpg", Array(jpeg.prefix(jpeg.count * 60 / 100)))
        let decoded = try ImageDecoder.decode(path: cut, fitting: PixelSize(width: 128, height: 128), options: .fullDecode)
        XCTAssertEqual(decoded.frame.width, 128)
        XCTAssertEqual(decoded.frame.height, 128)
        XCTAssertLessThan(meanDifference(decoded.frame, original, rows: 0..<32), 6, "the top decodes as in the original")
        XCTAssertTrue(isGrey(decoded.frame, rows: 104..<128), "what is missing is grey")
        XCTAssertTrue(decoded.frame.rgba[(127 * 128) * 4 + 3] == 255, "opaque grey")
        let damage = try XCTUnwrap(decoded.damage, "the picture is marked damaged")
        XCTAssertEqual(damage.problem, .damaged(format: "JPEG", .endsEarly))
        XCTAssertEqual(damage.description, "damaged JPEG: the file ends early")
        XCTAssertTrue(damage.detail?.contains("Premature end") ?? false, "libjpeg's words stay as the detail: \(damage.verboseDescription)")
    }

    func testJPEGWithCorruptEntropyDataIsDrawnAndMarked() throws {
        var jpeg = try GeneratedJPEG.encode(gradient())
        // Marker bytes (0xFF) sprinkled over the second half of the scan: libjpeg-turbo warns of corrupt data.
        for offset in stride(from: jpeg.count / 2, to: jpeg.count - 2, by: 7) { jpeg[offset] = 0xFF }
        let path = try write("flipped.jpg", jpeg)
        let decoded = try ImageDecoder.decode(path: path, fitting: PixelSize(width: 64, height: 64))
        XCTAssertEqual(decoded.frame.width, 64)
        XCTAssertNotNil(decoded.damage, "libjpeg-turbo warned: the picture is marked")
        XCTAssertTrue(decoded.damage?.problem.isDamage ?? false)
    }

    /// libjpeg-turbo warns about stray bytes before a marker while reading the header; ImageMagick reads the
    /// file, so does livegrid (one of the damaged files it refused).
    /// Stray bytes between header segments are skipped (libjpeg skips them too) and the picture is whole: not
    /// marked damaged (issue 32.9; libjpeg's "extraneous bytes" warning used to read as "the rest grey").
    func testStrayBytesBeforeTheScanAreAWarningNotAnError() throws {
        let jpeg = try GeneratedJPEG.encode(gradient())
        let scan = try XCTUnwrap(zip(jpeg.indices, jpeg.dropFirst()).first { jpeg[$0.0] == 0xFF && $0.1 == 0xDA }?.0)
        let path = try write("stray.jpg", Array(jpeg[..<scan]) + [0x11, 0x22, 0x33, 0x44, 0x55] + Array(jpeg[scan...]))
        let decoded = try ImageDecoder.decode(path: path, fitting: PixelSize(width: 64, height: 64))
        XCTAssertEqual(decoded.frame.size, PixelSize(width: 64, height: 64))
        XCTAssertNil(decoded.damage, "\(String(describing: decoded.damage))")
        let clean = try ImageDecoder.decode(path: try write("clean.jpg", jpeg), fitting: PixelSize(width: 64, height: 64))
        XCTAssertEqual(decoded.frame.rgba, clean.frame.rgba, "the same picture as without the stray bytes")
    }

    func testAnIntactJPEGIsNotMarked() throws {
        let path = try write("whole.jpg", try GeneratedJPEG.encode(gradient()))
        XCTAssertNil(try ImageDecoder.decode(path: path, fitting: PixelSize(width: 64, height: 64)).damage)
    }

    func testDamagedThumbnailIsNotCachedSoTheMarkIsNotLost() throws {
        let jpeg = try GeneratedJPEG.encode(gradient())
        let cut = try write("cut.jpg", Array(jpeg.prefix(jpeg.count * 60 / 100)))
        let cache = ThumbnailCache(root: directory.appendingPathComponent("thumbnails").path, version: "test", environment: ProcessInfo.processInfo.environment)
        let first = try cache.thumbnail(forFile: cut, size: .normal)
        XCTAssertNotNil(first.damage)
        XCTAssertNil(cache.cached(forFile: cut, size: .normal), "a damaged picture is decoded again, mark included")
        let again = try cache.thumbnail(forFile: cut, size: .normal)
        XCTAssertFalse(again.fromCache)
        XCTAssertNotNil(again.damage)
    }

    // MARK: 15.5 failures in plain words

    func testNotAPictureSaysWhatTheFileLooksLike() throws {
        let cases: [(String, [UInt8], ContentGuess)] = [
            ("notes.jpg", Array("Shopping list:\n- milk\n- bread\n".utf8), .text),
            ("page.jpg", Array("<!DOCTYPE html>\n<html><head><title>404</title></head></html>".utf8), .html),
            ("empty.jpg", [], .empty),
            ("zeros.png", [UInt8](repeating: 0, count: 4096), .zeros),
            ("document.heic", Array("%PDF-1.7\n".utf8) + [0xE2, 0xE3, 0xCF, 0xD3], .pdf),
        ]
        for (name, bytes, guess) in cases {
            let path = try write(name, bytes)
            XCTAssertThrowsError(try ImageDecoder.decode(path: path, fitting: PixelSize(square: 64)), name) { error in
                let imaging = error as? ImagingError
                XCTAssertEqual(imaging?.problem, .notAPicture(guess), "\(name): \(error)")
                XCTAssertTrue(imaging?.description.hasPrefix("not a picture: ") ?? false)
            }
        }
    }

    func testTruncatedPNGSaysItEndsEarlyWithoutLibavJargon() throws {
        let png = try LibavTestMedia.generate("whole.png", in: directory,
                                              arguments: ["-f", "lavfi", "-i", "testsrc2=size=160x120", "-frames:v", "1"])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: png)))
        let cut = try write("cut.png", Array(bytes.prefix(bytes.count * 60 / 100)))
        XCTAssertThrowsError(try ImageDecoder.decode(path: cut, fitting: PixelSize(square: 64))) { error in
            let imaging = error as? ImagingError
            XCTAssertEqual(imaging?.description, "damaged PNG: the file ends early")
            XCTAssertFalse(imaging?.description.contains("png_pipe") ?? true)
            XCTAssertTrue(imaging?.verboseDescription.contains("libav") ?? false, "the detail keeps libav's words")
        }
    }

    /// The 1.3 KB corrupt file that said "Cannot allocate memory": libav's ENOMEM from a decoder is damage.
    func testLibavOutOfMemoryCodeForCorruptDataIsDamage() {
        let error = ImagingError(LibavError.library(operation: "avcodec_receive_frame", code: -12,
                                                    message: "Cannot allocate memory"))
        XCTAssertEqual(error.problem, .damaged(format: nil, .corruptData))
        XCTAssertFalse(error.description.contains("memory"), error.description)
        XCTAssertTrue(error.verboseDescription.contains("Cannot allocate memory"))
    }

    func testHugeDimensionsInAPNGHeaderAreTooLarge() throws {
        // IHDR of 100000 x 100000: the probe reads it, the decoder refuses before allocating anything.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        png += [0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        let path = try write("huge.png", png + [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82])
        XCTAssertThrowsError(try ImageDecoder.decode(path: path, fitting: PixelSize(square: 64))) { error in
            XCTAssertEqual((error as? ImagingError)?.problem, .tooLarge(width: 100_000, height: 100_000), "\(error)")
        }
    }

    func testMissingAndUnreadableFiles() throws {
        XCTAssertThrowsError(try ImageDecoder.decode(path: directory.appendingPathComponent("gone.jpg").path,
                                                     fitting: PixelSize(square: 64))) { error in
            XCTAssertEqual((error as? ImagingError)?.description, "unreadable: no such file")
        }
        let locked = try write("locked.jpg", try GeneratedJPEG.encode(gradient()))
        chmod(locked, 0)
        defer { chmod(locked, 0o644) }
        // root reads any file: the permission case only exists for other users.
        if getuid() != 0 {
            XCTAssertThrowsError(try ImageDecoder.decode(path: locked, fitting: PixelSize(square: 64))) { error in
                XCTAssertEqual((error as? ImagingError)?.description, "unreadable: permission denied")
            }
        }
        XCTAssertEqual(ImagingError.explaining(MediaError.io(path: locked, errno: EACCES), path: nil).description,
                       "unreadable: permission denied")
    }

    func testATruncatedMovieIsADamagedMovie() throws {
        let movie = try LibavTestMedia.generate("whole.mov", in: directory,
                                                arguments: ["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10", "-frames:v", "5"])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: movie)))
        let cut = try write("cut.mov", Array(bytes.prefix(bytes.count / 2)))
        var failure: Error?
        do {
            let decoder = try MovieDecoder(path: cut)
            if try decoder.nextFrame() == nil { failure = LibavError.noVideoStream("the movie has no frames") }
        } catch {
            failure = error
        }
        let explained = ImagingError.explaining(try XCTUnwrap(failure, "half a movie without its moov cannot play"), path: cut)
        XCTAssertEqual(explained.description, "damaged MOV movie: the file ends early", explained.verboseDescription)
    }
}

/// Regressions for what the decode fuzzer (Benchmarks/fuzz-decode.sh) found; each input is its crash file.
final class DecodeFuzzFindingTests: XCTestCase {
    /// crash-4151f88e: a PNG header of 4294967295 x 4294967040 overflowed Int64 in the pixel check (trap).
    func testPNGHeaderWhosePixelCountOverflowsIsTooLarge() {
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
                              0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00]
        let source = MemoryByteSource(bytes)
        XCTAssertThrowsError(try ImageDecoder.decode(source: source, info: MediaProbe.probe(source), fitting: PixelSize(square: 48))) {
            XCTAssertEqual(($0 as? ImagingError)?.problem, .tooLarge(width: 4_294_967_295, height: 4_294_967_040), "\($0)")
        }
    }

    /// crash-a343fff8: a BMP whose height is Int32.min trapped in abs() while probing.
    func testBMPWithTheSmallestNegativeHeightProbes() {
        let bytes: [UInt8] = [0x42, 0x4D, 0x36, 0x4E, 0x24, 0x7E, 0x34, 0x00, 0x68, 0x65, 0x69, 0x66, 0xD4, 0x9C, 0x6F, 0x6C,
                              0x6F, 0x72, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x45]
        let info = MediaProbe.probe(MemoryByteSource(bytes))
        XCTAssertEqual(info.format, .bmp)
        XCTAssertEqual(info.pixelWidth, 2)
        XCTAssertEqual(info.pixelHeight, Int(Int32.min.magnitude))
        XCTAssertThrowsError(try ImageDecoder.decode(source: MemoryByteSource(bytes), info: info, fitting: PixelSize(square: 48)))
    }
    /// crash-06cbe4f7: an HEIC whose tile ispe is wider than Int32.max trapped in Int32(...) after decoding a tile.
    func testHEICTileWiderThanInt32IsAnErrorOrAPicture() throws {
        let base64 = [
            "AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAa1tZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAA",
            "AA5waXRtAAAAAAACAAAAEGlkYXQAAAAAAEAAMAAAADhpbG9jAQAAAERAAAIAAQAAAAAAAAHRAAEAAAAAAAADVwACAAEAAAAAAAAA",
            "AQAAAAAAAAAIAAAAOGlpbmYAAwAAAAIAAAAVaW5mZQIAAAEAAQAAaHZjMQAAAAAVaW5mZQIAAAAAAgAAZ3JpZAAAAADYaXBycAAA",
            "ALZpcGNvAAAAdmh2Y0MBA3AAAAAAAAAAAAAe8AD8/fj4AAAPAyAAAQAYQAEMAf//A3AAAAMAkAAAAwAAAwAaugJAIQABACpCAQED",
            "cAAAAwCQAAADAAADAB6gIIEFlurkprm4EBAwIAAAAwAgAAADACEiAAEABkQBwXPAiQAAABRpc3BlAAAAAPf/AEAAAABAAAAAFGlz",
            "cGUAAAAAAAAAQAAAADAAAAAQcGl4aQAAAAADCAgIAAAAGmlwbWEAAAAAAAAAAgABAoECAAIFA4QAAAAaaXJlZgAAAAAAAAAOZGlt",
            "ZwACAAEAAQAAA19tZGF0AAADUygBrxOAlpuDj8CKnxIeb26Sv5I8ALv4HnXuy+1Ny2mGb1IWtDtmDVncAtHIz9iPt3WHc12qJRGv",
            "POQfxrAkjFBu3rVleHRyYWN0X2V4aiAgYhqOMBB88P/QG372Dhhz/63itxTKsxdK4fEHizyA0WzcBaK8FKaLTtEeueGO2056j32I",
            "1GeGX7pQjPVvBUBllONPnmy0zn67P1dwO6XTVIGTnCB3t8YVwGkc0wlIt6Ek7mOaPnSvD55paA2s+1LTiajjlnukmi3tECkipx1h",
            "VGnvgEPnLJnEx0PzZAEw6mUktoRdeZ5miBGY7imvXzQojbncIw8P6AndDBsRkoYEekQKZFE+daeqot6+GbK5k2dGY3wbjX0KJRlA",
            "/8/O9MditFvWZBOQFyEsd+iCyqP/b9V4i7JLOql5gpvYUxLEVv9QVBYR9AqzO605OkAqKioqKioqKiBTVEFSVCBTQ1JJUFQgKioq",
            "KioqKir16OmpdHLZb4sWDUO2jVOmfB04BNu7cjWOEhVd5uIQKyBvk8rPZsUsfm3wAyt9i6jkRIU3/Nd8bujflE1IvKo/VQoJXxJd",
            "x/zhgYUhhC0ESkLHpGF4CDPm0tHetK/KMb3O1BeNj1O0C3q8F9u3Y6Z90LJjurZU3SSXHT4M+DLJr0n+NBThEJJhN+3e8MBECa+y",
            "ervMRPGLoas5GSItwF+1eid/wd8BnlR1VKpGoiHyfq/UnEpnSj5YUOZz7PJO0nFjYwiULOG/SOPtj6K0mLvATabFeKb45kM4cKRW",
            "ougiHoV0/9KUbVxM9SEeoweOGJlA+/l4dfsHqSqGTArug9hvPviYMSsjdL4KQcq9F36+H+3izzLDrxVZ33pmtcNWXEPhRiDWi0kk",
            "jawFmT4o0iWKMf78xmKuqoXxIEuM+ZfxcNouuG+Kx5RA0SsIv3F2xc8txv3feoyN5E7/lkMAfr48J2thRj1tUPXbVzn1sJBlmaLh",
            "Zd4BjvwWV83c0zmSEBnvp7Rrt4DLRzYEsy8iNq1nRfUM7HhjQDOmLtGpTI5ZE0fiM0DvziiY0C36PnJV5p5bDNK3NmQbt6jcgNyS",
            "C3sDRNjVEybKmNMSBXXHQHYH9nIyG2yt408KpZ+GpPbG/+KRipL1fi/RawzA4qBk2xqmKO8MDZBukGV2n4YhMMJTXuhrkqIuEVKl",
            "pIsbMiWmIElycA==",
        ].joined()
        let bytes = try [UInt8](XCTUnwrap(Data(base64Encoded: base64)))
        let source = MemoryByteSource(bytes)
        do {
            let decoded = try ImageDecoder.decode(source: source, info: MediaProbe.probe(source), fitting: PixelSize(square: 48))
            XCTAssertFalse(decoded.frame.size.isEmpty)
        } catch {
            XCTAssertFalse(error.description.isEmpty, "a damaged file's error says something")
        }
    }
}
