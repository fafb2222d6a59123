@testable import LivePairing
import MediaFormats
import XCTest

final class LivePairerTests: XCTestCase {
    private func still(_ path: String, id: String? = nil, date: String? = nil, embedded: Bool = false) -> MediaFile {
        var info = MediaInfo(format: path.lowercased().hasSuffix("heic") ? .heif : .jpeg)
        info.contentIdentifier = id
        info.captureDate = date
        if embedded {
            info.embeddedMovie = EmbeddedMovie(kind: .googleMotionPhoto, range: ByteRange(offset: 100, length: 50))
        }
        return MediaFile(path: path, size: 1000, modificationTime: 0, info: info)
    }

    private func movie(_ path: String, id: String? = nil, duration: Double? = 2.0, date: String? = nil) -> MediaFile {
        var info = MediaInfo(format: .quickTime)
        info.contentIdentifier = id
        info.duration = duration
        info.captureDate = date
        return MediaFile(path: path, size: 5000, modificationTime: 0, info: info)
    }

    func testPairsByContentIdentifierWhateverTheNames() {
        let items = LivePairer.pair([still("d/A.JPG", id: "X1"), movie("d/B.MOV", id: "x1")])
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(items[0].kind, .live)
        XCTAssertEqual(items[0].pairing, .contentIdentifier)
        XCTAssertEqual(items[0].contentIdentifier, "X1")
        XCTAssertEqual(items[0].files.map(\.path), ["d/A.JPG", "d/B.MOV"])
        XCTAssertEqual(items[0].warnings, [])
    }

    func testDifferentIdentifiersNeverPairEvenWithSameName() {
        let items = LivePairer.pair([still("d/IMG_1.HEIC", id: "A"), movie("d/IMG_1.MOV", id: "B")])
        XCTAssertEqual(items.map(\.kind), [.still, .video])
        XCTAssertTrue(items[0].warnings.contains { $0.contains("content identifiers differ") })
        XCTAssertTrue(items[0].warnings.contains { $0.contains("movie missing") })
        XCTAssertTrue(items[1].warnings.contains { $0.contains("still missing") })
    }

    func testNameFallbackOnlyWhenOneSideLacksIdentifierAndIsProbable() {
        let items = LivePairer.pair([still("d/IMG_7.JPG", id: "A", date: "2021:05:02 12:00:00"),
                                     movie("d/IMG_7.MOV", id: nil, duration: 2.5, date: "2021-05-02T12:00:01+0200")])
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(items[0].kind, .live)
        XCTAssertEqual(items[0].pairing, .probableByName)
        XCTAssertTrue(items[0].warnings.contains { $0.contains("probable") })
    }

    func testNameFallbackRefusesLongMoviesAndDistantCaptureTimes() {
        let long = LivePairer.pair([still("d/IMG_8.JPG"), movie("d/IMG_8.MOV", duration: 60)])
        XCTAssertEqual(long.map(\.kind), [.still, .video])
        let weeksApart = LivePairer.pair([still("d/IMG_9.JPG", date: "2021:05:02 12:00:00"),
                                          movie("d/IMG_9.MOV", date: "2021-05-20T12:00:00Z")])
        XCTAssertEqual(weeksApart.map(\.kind), [.still, .video])
        let unknownDuration = LivePairer.pair([still("d/IMG_10.JPG"), movie("d/IMG_10.MOV", duration: nil)])
        XCTAssertEqual(unknownDuration.map(\.kind), [.still, .video])
    }

    func testExportNameVariantsPair() {
        for name in ["IMG_1234_3.mov", "IMG_1234_HEVC.MOV", "img_1234.mov"] {
            let items = LivePairer.pair([still("d/IMG_1234.HEIC"), movie("d/" + name)])
            XCTAssertEqual(items.map(\.kind), [.live], name)
        }
    }

    func testTwoStillsSharingAnIdentifierStayVisibleWithWarnings() {
        let items = LivePairer.pair([still("d/IMG_5.HEIC", id: "S"), still("d/IMG_5.JPG", id: "S"),
                                     movie("d/IMG_5.MOV", id: "S")])
        XCTAssertEqual(items.count, 2)
        let live = items.filter { $0.kind == .live }
        let stills = items.filter { $0.kind == .still }
        XCTAssertEqual(live.count, 1)
        XCTAssertEqual(stills.count, 1)
        XCTAssertTrue(live[0].warnings.contains { $0.contains("shared with") })
        XCTAssertTrue(stills[0].warnings.contains { $0.contains("shared with") })
        XCTAssertNil(stills[0].liveOffReason, "the identifier's movie plays on the other still")
    }

    func testTheStillNamedLikeTheMovieTakesIt() {
        let items = LivePairer.pair([still("d/A.JPG", id: "S"), still("d/B.JPG", id: "S"), movie("d/B.MOV", id: "S")])
        XCTAssertEqual(items.first { $0.kind == .live }?.still?.path, "d/B.JPG")
    }

    func testMissingHalvesAreVisibleItemsWithWarnings() {
        let items = LivePairer.pair([still("d/IMG_2927.HEIC", id: "1745E022"), movie("d/pairedVideo.mov", id: "7A7D")])
        XCTAssertEqual(items.map(\.kind), [.still, .video])
        XCTAssertEqual(items[0].liveOffReason, "its movie is missing")
        XCTAssertTrue(items[0].warnings[0].hasPrefix("Live Photo movie missing"))
        XCTAssertTrue(items[1].warnings[0].hasPrefix("Live Photo still missing"))
    }

    func testNeverPairsAcrossFolders() {
        let items = LivePairer.pair([still("a/IMG_1.JPG", id: "Z"), movie("b/IMG_1.MOV", id: "Z")])
        XCTAssertEqual(items.map(\.kind), [.still, .video])
    }

    func testMotionPhotosAreLiveItemsOfTheirOwn() {
        let items = LivePairer.pair([still("d/PXL_1.MP.jpg", embedded: true)])
        XCTAssertEqual(items.map(\.kind), [.motion])
        XCTAssertTrue(items[0].kind.isLive)
        XCTAssertEqual(items[0].playableMovie?.range, ByteRange(offset: 100, length: 50))
    }

    func testOrderIsNaturalAndCaseInsensitive() {
        let items = LivePairer.pair([still("d/img_10.jpg"), still("d/IMG_2.jpg"), still("d/b.jpg")])
        XCTAssertEqual(items.map(\.displayName), ["b.jpg", "IMG_2.jpg", "img_10.jpg"])
    }

    func testCaptureTimeParsesExifAndQuickTimeForms() {
        XCTAssertEqual(CaptureTime.gapSeconds("2021:05:02 23:59:59", "2021-05-03T00:00:02+0200"), 3)
        XCTAssertEqual(CaptureTime.gapSeconds("2020:02:28 12:00:00", "2020:03:01 12:00:00"), 2 * 86400)
        XCTAssertNil(CaptureTime.gapSeconds("garbage", "2021:05:02 12:00:00"))
        XCTAssertNil(CaptureTime.gapSeconds("0000:00:00 00:00:00", "2021:05:02 12:00:00"))
    }
}

final class LivePairerScaleTests: XCTestCase {
    /// A folder of copies sharing one identifier (duplicated camera roll): linear work, bounded warnings.
    func testThousandsOfStillsSharingOneIdentifierStayCheap() {
        var files: [MediaFile] = []
        for i in 0..<3000 {
            var s = MediaInfo(format: .jpeg)
            s.contentIdentifier = "SAME"
            files.append(MediaFile(path: "d/IMG_\(i).JPG", size: 1, modificationTime: 0, info: s))
            var m = MediaInfo(format: .quickTime)
            m.contentIdentifier = "SAME"
            files.append(MediaFile(path: "d/IMG_\(i).MOV", size: 1, modificationTime: 0, info: m))
        }
        let items = LivePairer.pair(files)
        XCTAssertEqual(items.count, 3000)
        XCTAssertTrue(items.allSatisfy { $0.kind == .live && $0.still?.baseName == $0.movie?.baseName })
        XCTAssertLessThan(items.map { $0.warnings.joined().count }.max() ?? 0, 200)
    }
}

/// Issue 15.7: copies of one still sharing an identifier, with no movie anywhere.
final class LivePairerSharedIdentifierTests: XCTestCase {
    private func still(_ path: String, id: String?) -> MediaFile {
        var info = MediaInfo(format: .jpeg)
        info.contentIdentifier = id
        return MediaFile(path: path, size: 1000, modificationTime: 0, info: info)
    }

    func testStillsSharingAnIdentifierWithoutAMovieAreLiveOffWithTheTruth() {
        let items = LivePairer.pair([still("d/IMG_1.JPG", id: "X1"), still("d/IMG_1 copy.JPG", id: "X1")])
        XCTAssertEqual(items.map(\.kind), [.still, .still])
        for item in items {
            XCTAssertEqual(item.liveOffReason, "its movie is missing", item.displayName)
            XCTAssertFalse(item.warnings.contains { $0.contains("paired with another still") }, "\(item.warnings)")
            XCTAssertTrue(item.warnings.contains { $0.contains("movie missing") && $0.contains("also in") }, "\(item.warnings)")
        }
    }

    func testWhenTheMovieIsThereTheOtherStillIsToldItIsPairedElsewhere() {
        var movieInfo = MediaInfo(format: .quickTime)
        movieInfo.contentIdentifier = "X1"
        movieInfo.duration = 2
        let movie = MediaFile(path: "d/IMG_1.MOV", size: 5000, modificationTime: 0, info: movieInfo)
        let items = LivePairer.pair([still("d/IMG_1.JPG", id: "X1"), still("d/IMG_1 copy.JPG", id: "X1"), movie])
        XCTAssertEqual(items.map(\.kind).sorted { $0.rawValue < $1.rawValue }, [.live, .still])
        let copy = items.first { $0.kind == .still }
        XCTAssertTrue(copy?.warnings.contains { $0.contains("paired with another still") } ?? false)
    }
}
