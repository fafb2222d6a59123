import Foundation
import Library
import LibraryCore
import LibrarySources
import LivePairing
import MediaFormats
import TestSupport
import XCTest

final class ExportTests: XCTestCase {
    var root = ""
    var source = ""
    var destination = ""
    override func setUpWithError() throws {
        root = try TriageFixtures.tempDir("livegrid-export")
        source = root + "/src"
        destination = root + "/out"
        for dir in [source, destination] { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
    }
    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    func testExportAsLiveCopiesBothHalvesWithPairedNamesAndIdenticalBytes() throws {
        let item = try TriageFixtures.livePair(in: source, name: "IMG_0001")
        try TriageState(rating: 5, flag: .pick).write(for: item)
        var progressSeen: [Double] = []
        let report = try ExportRunner().run(ExportPlan(items: [item], destination: destination)) {
            progressSeen.append($0.fraction)
        }
        XCTAssertEqual(report.failedCount, 0, report.summary)
        XCTAssertEqual(TriageFixtures.names(destination), ["IMG_0001.JPG", "IMG_0001.JPG.xmp", "IMG_0001.MOV"])
        for name in ["IMG_0001.JPG", "IMG_0001.MOV", "IMG_0001.JPG.xmp"] {
            XCTAssertEqual(TriageFixtures.bytes(destination + "/" + name), TriageFixtures.bytes(source + "/" + name), name)
        }
        XCTAssertEqual(progressSeen.last ?? 0, 1, accuracy: 0.0001)
        XCTAssertTrue(report.summary.contains("1 of 1 item exported"), report.summary)

        // Once the parsers read identifiers, the export must pair again exactly as the source does.
        let sourceScan = try LibraryScanner.scan(directory: source)
        XCTAssertEqual(sourceScan.count(of: .live), 1, "the source fixtures pair as one Live Photo")
        let exported = try LibraryScanner.scan(directory: destination)
        XCTAssertEqual(exported.count(of: .live), 1)
        XCTAssertEqual(exported.items.first?.contentIdentifier, sourceScan.items.first?.contentIdentifier)
    }

    func testExportAsStillWritesNoMovieAndLiveOffItemsDefaultToStill() throws {
        let item = try TriageFixtures.livePair(in: source, name: "IMG_0002")
        var plan = ExportPlan(items: [item], destination: destination, choiceForAll: .stillPhoto)
        XCTAssertEqual(plan.entries.first?.choice, .stillPhoto)
        let report = try ExportRunner().run(plan)
        XCTAssertEqual(report.failedCount, 0, report.summary)
        XCTAssertEqual(TriageFixtures.names(destination), ["IMG_0002.JPG"])

        var off = item
        off.liveOffReason = "movie cannot play"
        plan = ExportPlan(items: [item, off], destination: destination)
        XCTAssertEqual(plan.entries.map(\.choice), [.livePhoto, .stillPhoto])
        plan.setChoiceForAll(.livePhoto)
        XCTAssertEqual(plan.entries.map(\.choice), [.livePhoto, .stillPhoto], "a live-off item stays a still")
        plan.setChoice(.stillPhoto, forItem: item.id)
        XCTAssertEqual(plan.entries.first?.choice, .stillPhoto)
    }

    func testSecondExportResolvesCollisionsForBothHalves() throws {
        let item = try TriageFixtures.livePair(in: source, name: "IMG_0003")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: destination + "/IMG_0003.JPG"))
        let report = try ExportRunner().run(ExportPlan(items: [item], destination: destination))
        XCTAssertEqual(report.failedCount, 0, report.summary)
        XCTAssertEqual(TriageFixtures.names(destination), ["IMG_0003 (2).JPG", "IMG_0003 (2).MOV", "IMG_0003.JPG"])
        XCTAssertEqual(TriageFixtures.bytes(destination + "/IMG_0003.JPG"), Data("mine".utf8))
    }

    func testAnInterruptedExportLeavesNoHalfFile() throws {
        let first = try TriageFixtures.livePair(in: source, name: "IMG_0004")
        let second = try TriageFixtures.livePair(in: source, name: "IMG_0005")
        // The injected sink fails in the middle of the second item's movie.
        let failing = FileCopier(chunkSize: 4096) { destination, bytes in
            if destination.hasSuffix("IMG_0005.MOV"), bytes >= 8192 {
                throw FileOperationError.system(operation: "write", path: destination, errno: ENOSPC)
            }
        }
        let report = try ExportRunner(copier: failing).run(ExportPlan(items: [first, second], destination: destination))
        XCTAssertEqual(report.exportedCount, 1)
        XCTAssertEqual(report.results.last?.failure?.description.contains("No space left"), true, report.summary)
        XCTAssertEqual(TriageFixtures.names(destination), ["IMG_0004.JPG", "IMG_0004.MOV"],
                       "no half movie, no orphaned still, no temporary file")
    }

    func testCancellingFromProgressStopsTheRest() throws {
        let items = try (6...7).map { try TriageFixtures.livePair(in: source, name: "IMG_000\($0)") }
        let report = try ExportRunner(copier: FileCopier(chunkSize: 4096)).run(ExportPlan(items: items, destination: destination)) { _ in
            throw FileOperationError.cancelled
        }
        XCTAssertEqual(report.exportedCount, 0)
        XCTAssertEqual(TriageFixtures.names(destination), [])
    }

    func testAReadOnlyDestinationGivesAClearError() throws {
        let item = try TriageFixtures.livePair(in: source, name: "IMG_0008")
        let readOnly = try TriageFixtures.readOnlyDirectory(in: root)
        defer { chmod(readOnly, 0o755) }
        XCTAssertThrowsError(try ExportRunner().run(ExportPlan(items: [item], destination: readOnly))) { error in
            XCTAssertEqual(error as? FileOperationError, .notWritable(readOnly))
            XCTAssertEqual("\(error)", "\(readOnly): destination is not writable (read-only or no permission)")
        }
        XCTAssertThrowsError(try ExportRunner().run(ExportPlan(items: [item], destination: root + "/missing"))) { error in
            XCTAssertEqual(error as? FileOperationError, .missingDirectory(root + "/missing"))
        }
    }

    func testMotionPhotoAsStillDropsTheEmbeddedMovie() throws {
        let path = source + "/motion.jpeg"
        try TriageFixtures.copy("motion-photo-v1.jpeg", to: path)
        let motion = LibraryItem(kind: .motion, still: TriageFixtures.file(path, .jpeg), pairing: .embedded)
        let report = try ExportRunner().run(ExportPlan(items: [motion], destination: destination, choiceForAll: .stillPhoto))
        XCTAssertEqual(report.failedCount, 0, report.summary)
        XCTAssertNil(try MediaProbe.probe(path: destination + "/motion.jpeg").embeddedMovie,
                     "the embedded movie is never copied along")
        // As a Motion Photo it is the file as is.
        XCTAssertEqual(try ExportRunner().run(ExportPlan(items: [motion], destination: destination)).failedCount, 0)
        XCTAssertEqual(TriageFixtures.bytes(destination + "/motion (2).jpeg"), TriageFixtures.bytes(path))
    }
}

final class ExportResolverTests: XCTestCase {
    func testPathsResolveToTheirItemsOnceEach() throws {
        let root = try TriageFixtures.tempDir("livegrid-resolve")
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try TriageFixtures.livePair(in: root, name: "IMG_1")
        let items = try ItemResolver.resolve([root + "/IMG_1.MOV", root + "/IMG_1.JPG", root + "/./IMG_1.MOV"])
        let ids = items.flatMap { $0.files.map { ($0.path as NSString).lastPathComponent } }
        // Paired (one live item) once the parsers land; two items before: either way each file once.
        XCTAssertEqual(Set(ids), ["IMG_1.JPG", "IMG_1.MOV"])
        XCTAssertEqual(ids.count, 2)
        XCTAssertThrowsError(try ItemResolver.resolve([root + "/missing.JPG"])) {
            XCTAssertEqual($0 as? ItemResolver.ResolveError, .notFound(root + "/missing.JPG"))
        }
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/notes.txt"))
        XCTAssertThrowsError(try ItemResolver.resolve([root + "/notes.txt"]))
        // A FIFO named like a photo is named for what it is (issue 32.5), not "not a photo or movie".
        XCTAssertEqual(mkfifo(root + "/IMG_2.JPG", 0o644), 0)
        XCTAssertThrowsError(try ItemResolver.resolve([root + "/IMG_2.JPG"])) {
            XCTAssertEqual("\($0)", root + "/IMG_2.JPG is not a regular file (a FIFO)")
        }
    }
}
