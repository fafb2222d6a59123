import BrowserCore
import Concurrent
import Foundation
import Library
import LibraryCore
import TestSupport
import XCTest
@testable import BrowserRuntime

/// The scans on a generated folder of real photos: results come through the inbox, a rescan names the files
/// changed on disk, the first scan's bookkeeping never holds a lock while it waits for the screen.
final class ScanOrchestratorTests: XCTestCase {
    private var directory: URL!
    private let inbox = EventInbox()

    override func setUpWithError() throws {
        directory = try Fixtures.makeTemporaryDirectory("livegrid-scan-orchestrator")
        for name in ["a.jpg", "b.jpg", "c.jpg"] {
            try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"),
                                             toPath: directory.appendingPathComponent(name).path)
        }
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(at: directory) }   // a leftover costs only temporary space
    }

    /// Waits on the inbox's wake descriptor (as the loop does) until a posted action matches.
    private func waitForPosted<T>(_ what: String, timeout: Double = 30, _ match: (BrowserAction) -> T?) throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        var seen: [BrowserAction] = []
        while Date() < deadline {
            for action in inbox.drain() {
                if let found = match(action) { return found }
                seen.append(action)
            }
            var descriptor = pollfd(fd: inbox.wake.readDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 200)
        }
        XCTFail("timed out waiting for \(what); posted: \(seen)")
        throw TimedOut()
    }

    private struct TimedOut: Error {}

    private func finished(_ action: BrowserAction) -> LibraryScan? {
        if case .scanFinished(let scan) = action { return scan }
        if case .scanFailed(let failure) = action { XCTFail("scan failed: \(failure)") }
        return nil
    }

    private func touch(_ name: String, modified seconds: Int) {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, directory.appendingPathComponent(name).path, &times, 0), 0)
    }

    func testARescanNamesTheItemsChangedOnDisk() throws {
        let scans = ScanOrchestrator(scan: { try LibraryScanner.scan(directory: $0, recursive: $1) }, progressiveScan: nil,
                                     remote: nil, inbox: inbox, trace: nil)
        scans.startScan(folder: directory.path, recursive: false)
        let first = try waitForPosted("the first scan", finished)
        XCTAssertEqual(first.items.count, 3)
        XCTAssertEqual(scans.takeChangedItems(in: first), [], "nothing changed before the first scan")
        scans.firstViewWasShown()

        touch("b.jpg", modified: 1_000_000)
        scans.startScan(folder: directory.path, recursive: true)
        let second = try waitForPosted("the rescan", finished)
        XCTAssertTrue(second.recursive, "the result says which view asked for it")
        let changed = scans.takeChangedItems(in: second)
        XCTAssertEqual(changed.map { URL(fileURLWithPath: $0.rawValue).lastPathComponent }, ["b.jpg"])

        scans.startScan(folder: directory.path, recursive: false)
        XCTAssertEqual(scans.takeChangedItems(in: try waitForPosted("the third scan", finished)), [])
    }

    /// The first progressive scan posts its first screen, waits for it to be drawn, then finishes; its times
    /// are noted once its view is shown. A rescan that finishes while the first scan still waits for its view
    /// (here: a wait far longer than the test's) notes them itself and is not held up: the wait is outside the
    /// lock (it was inside, issue 27.7).
    func testTheFirstScanWaitsForTheScreenOutsideTheLock() throws {
        let scans = ScanOrchestrator(scan: { try LibraryScanner.scan(directory: $0, recursive: $1) },
                                     progressiveScan: { path, recursive, progress, beforeRest in
                                         try LibraryScanner.scanProgressively(directory: path, recursive: recursive,
                                                                              firstScreen: 2, beforeRest: beforeRest,
                                                                              progress: progress)
                                     },
                                     remote: nil, inbox: inbox, trace: nil, firstDrawTimeout: .seconds(600))
        scans.startScan(folder: directory.path, recursive: false)
        let progress = try waitForPosted("the first screen") { action -> LibraryScanProgress? in
            if case .scanProgress(let progress) = action { return progress }
            XCTAssertNil(finished(action), "the scan finished before its first screen was drawn")
            return nil
        }
        XCTAssertEqual(progress.scan.items.count, 2)
        scans.firstScreenWasDrawn()
        let first = try waitForPosted("the first scan", finished)
        XCTAssertEqual(first.items.count, 3)
        XCTAssertEqual(scans.takeChangedItems(in: first), [])

        // The first view is not shown yet: the first scan's thread still waits.
        touch("c.jpg", modified: 2_000_000)
        scans.startScan(folder: directory.path, recursive: false)
        let second = try waitForPosted("the rescan, while the first scan waits for its view", finished)
        XCTAssertEqual(scans.takeChangedItems(in: second).map { URL(fileURLWithPath: $0.rawValue).lastPathComponent }, ["c.jpg"])
        scans.firstViewWasShown()
    }

    func testARemoteScanIsTheSessionsListing() {
        let listing = RecordingListing()
        let scans = ScanOrchestrator(scan: { _, _ in XCTFail("a local scan"); throw CancellationError() }, progressiveScan: nil,
                                     remote: listing, inbox: inbox, trace: nil)
        scans.startScan(folder: "/ignored", recursive: false)
        scans.startScan(folder: "/ignored", recursive: false)
        XCTAssertEqual(listing.loads, 2)
        XCTAssertTrue(inbox.isEmpty)
    }

    func testAMissingFolderIsAFailureNotACrash() throws {
        let scans = ScanOrchestrator(scan: { try LibraryScanner.scan(directory: $0, recursive: $1) }, progressiveScan: nil,
                                     remote: nil, inbox: inbox, trace: nil)
        scans.startScan(folder: directory.appendingPathComponent("gone").path, recursive: false)
        let failure = try waitForPosted("the failure") { action -> ScanFailure? in
            if case .scanFailed(let failure) = action { return failure }
            return nil
        }
        XCTAssertFalse("\(failure)".isEmpty)
    }
}

private final class RecordingListing: RemoteListing {
    var loads = 0
    func load() { loads += 1 }
}
