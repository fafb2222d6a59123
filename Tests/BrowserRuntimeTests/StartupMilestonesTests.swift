import BrowserCore
import Concurrent
import Foundation
import Library
import LibraryCore
import LivePairing
import MediaFormats
import TerminalGraphics
import TestSupport
import XCTest
@testable import BrowserRuntime

/// The start-up milestones the loop notes (what the benchmarks read from `LIVEGRID_TRACE`, and the first screen
/// remembered for the next launch), each once, in a turn where what they wait for is there.
final class StartupMilestonesTests: XCTestCase {
    private var directory: URL!
    private var traceFile: String { directory.appendingPathComponent("trace").path }

    override func setUpWithError() throws {
        directory = try Fixtures.makeTemporaryDirectory("livegrid-milestones")
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(at: directory) }   // a leftover costs only temporary space
    }

    private var traced: [String] {
        // The file exists once the trace is made; an unreadable one reads as no events (the asserts then fail).
        let text = (try? String(contentsOfFile: traceFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" }
    }

    func testEachMilestoneIsNotedOnceWhenItsPicturesAreThere() throws {
        let trace = try XCTUnwrap(EventTrace(environment: ["LIVEGRID_TRACE": traceFile]))
        let stored = Locked<[[ItemID]]>([])
        let remembered = expectation(description: "the first screen remembered")
        let memory = FirstScreenMemory(load: { _ in [] }, store: { ids, _ in
            stored.withLockedValue { $0.append(ids) }
            remembered.fulfill()
        })
        let scans = ScanOrchestrator(scan: { _, _ in throw CancellationError() }, progressiveScan: nil, remote: nil,
                                     inbox: EventInbox(), trace: nil)
        var milestones = StartupMilestones(trace: trace, scans: scans,
                                           firstScreen: FirstScreen(root: "/photos", recursive: false, memory: memory),
                                           remembersFirstScreen: true)
        let provider = ScriptedProvider()
        let keys = [ThumbnailKey(itemID: "/photos/a.jpg", width: 20, height: 10),
                    ThumbnailKey(itemID: "/photos/b.jpg", width: 20, height: 10)]
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        state.isScanning = true

        milestones.drew(state)
        milestones.turnEnded(onScreen: keys, provider: provider, state: state)
        XCTAssertEqual(traced, [], "nothing is ready")
        XCTAssertFalse(milestones.firstPaintDone)

        provider.ready.insert(keys[0])
        milestones.turnEnded(onScreen: keys, provider: provider, state: state)
        XCTAssertEqual(traced, ["first-picture"])
        XCTAssertFalse(milestones.firstPaintDone, "one picture of two")

        provider.failed.insert(keys[1])   // a picture that failed is as done as a drawn one
        milestones.turnEnded(onScreen: keys, provider: provider, state: state)
        milestones.turnEnded(onScreen: keys, provider: provider, state: state)
        XCTAssertEqual(traced, ["first-picture", "first-thumbnails", "screen-pictures 2"], "grid-complete waits for the scan")
        XCTAssertTrue(milestones.firstPaintDone)

        milestones.scanApplied()
        milestones.scanApplied()
        state.isScanning = false
        milestones.drew(state)
        milestones.drew(state)
        milestones.turnEnded(onScreen: keys, provider: provider, state: state)
        milestones.turnEnded(onScreen: keys, provider: provider, state: state)
        XCTAssertEqual(Array(traced.dropFirst(3)), ["scan-arranged", "scan-shown", "grid-complete"])

        // Remembered once (a second fulfil would fail the test), on a thread of its own (it writes the index).
        wait(for: [remembered], timeout: 30)
        XCTAssertEqual(stored.value, [keys.map(\.itemID)])
    }

    func testAListViewHasNoPicturesToWaitFor() {
        let scans = ScanOrchestrator(scan: { _, _ in throw CancellationError() }, progressiveScan: nil, remote: nil,
                                     inbox: EventInbox(), trace: nil)
        var milestones = StartupMilestones(trace: nil, scans: scans,
                                           firstScreen: FirstScreen(root: "/photos", recursive: false, memory: nil),
                                           remembersFirstScreen: false)
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        milestones.drew(state)
        milestones.turnEnded(onScreen: [], provider: ScriptedProvider(), state: state)
        XCTAssertFalse(milestones.firstPaintDone, "no items drawn yet")

        let item = LibraryItem(kind: .still, still: MediaFile(path: "/photos/a.jpg", size: 1, modificationTime: 0,
                                                              info: MediaInfo(format: .jpeg)))
        _ = state.reduce(.scanFinished(LibraryScan(root: "/photos", items: [item], warnings: [])))
        milestones.drew(state)
        milestones.turnEnded(onScreen: [], provider: ScriptedProvider(), state: state)
        XCTAssertTrue(milestones.firstPaintDone, "items without pictures (the list view)")
    }
}

private final class ScriptedProvider: ThumbnailProvider {
    var ready: Set<ThumbnailKey> = []
    var failed: Set<ThumbnailKey> = []
    let modeDescription = "scripted"
    func request(_ key: ThumbnailKey, item: LibraryItem, priority: Urgency) {}
    func cancelAll(except keep: Set<ThumbnailKey>) {}
    func picture(for key: ThumbnailKey) -> RenderedImage? {
        ready.contains(key) ? RenderedImage(columns: key.width, rows: key.height, mode: .symbols, colorDepth: .truecolor) : nil
    }
    func hasFailed(_ key: ThumbnailKey) -> Bool { failed.contains(key) }
    func takeReadyKeys() -> [ThumbnailKey] { [] }
}
