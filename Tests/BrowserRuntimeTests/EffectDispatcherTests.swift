import BrowserCore
import Concurrent
import Foundation
import Library
import LibraryCore
import LibrarySources
import LivePairing
import TestSupport
import XCTest
@testable import BrowserRuntime

/// Every `BrowserEffect` against the services it goes to: recording fakes for the screen, playback, scans,
/// the studio and the remote session, the real `TriageWorker` on a real folder. No curses, no tty.
final class EffectDispatcherTests: XCTestCase {
    private var directory: URL!
    private var state = BrowserState(rootPath: "/", terminal: TerminalSize(columns: 120, rows: 40))
    private var item: LibraryItem { state.items[0] }
    private let screen = RecordingScreen()
    private let playback = RecordingPlayback()
    private let scans = RecordingScans()
    private let triage = RecordingTriage()
    private let studio = RecordingStudio()
    private let remote = RecordingRemote()
    private let posted = Locked<[BrowserAction]>([])
    private var played: [LibraryItem?] = []

    override func setUpWithError() throws {
        directory = try Fixtures.makeTemporaryDirectory("livegrid-effect-dispatcher")
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"),
                                         toPath: directory.appendingPathComponent("train.jpg").path)
        state = BrowserState(rootPath: directory.path, terminal: TerminalSize(columns: 120, rows: 40))
        _ = state.reduce(.scanFinished(try LibraryScanner.scan(directory: directory.path)))
        XCTAssertEqual(state.items.count, 1)
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(at: directory) }   // a leftover costs only temporary space
    }

    private func dispatcher(remote: Bool = false, triage: (any TriageService)? = nil) -> EffectDispatcher {
        let posted = self.posted
        return EffectDispatcher(.init(screen: screen, playback: playback, scans: scans, triage: triage ?? self.triage,
                                      studio: studio, remote: remote ? self.remote : nil,
                                      post: { action in posted.withLockedValue { $0.append(action) } },
                                      onPlayback: { [unowned self] in played.append($0) }))
    }

    func testAScanStartsOnlyWhenNoneRunsAndReportsThatItStarted() {
        let dispatcher = dispatcher()
        XCTAssertEqual(dispatcher.perform(.startScan, state: state).count, 1)
        XCTAssertEqual(scans.started.map(\.folder), [directory.path])
        XCTAssertEqual(scans.started.map(\.recursive), [false])
        state.isScanning = true
        XCTAssertTrue(dispatcher.perform(.startScan, state: state).isEmpty)
        XCTAssertEqual(scans.started.count, 1, "a second scan while one runs")
    }

    func testAHoldPlaysTheItemAndTellsTheObserverAHintDoesNot() {
        let dispatcher = dispatcher()
        playback.startReports = [.playback(.stopped)]
        let reports = dispatcher.perform(.startPlayback(itemID: item.id), state: state)
        XCTAssertEqual(reports.count, 1, "the engine's report goes back to the reducer")
        XCTAssertEqual(playback.started.map(\.shownID), [item.id])
        XCTAssertEqual(playback.started.map(\.purpose), [.hold])
        XCTAssertEqual(played.map { $0?.id }, [item.id])

        _ = dispatcher.perform(.startHint(itemID: item.id), state: state)
        XCTAssertEqual(playback.started.map(\.purpose), [.hold, .hint])
        XCTAssertEqual(played.count, 1, "a hint is not a playback the observer hears of")

        XCTAssertTrue(dispatcher.perform(.startPlayback(itemID: "/no/such/item.jpg"), state: state).isEmpty)
        XCTAssertEqual(playback.started.count, 2, "an item the state does not have is not played")
    }

    func testStopReportsWhatThePlaybackSaysAndTellsTheObserver() {
        let dispatcher = dispatcher()
        let reports = dispatcher.perform(.stopPlayback, state: state)
        XCTAssertEqual(playback.stops, 1)
        guard case .playback(.stopped)? = reports.first else { return XCTFail("the stop is reported: \(reports)") }
        XCTAssertEqual(played.count, 1)
        XCTAssertNil(played.first.flatMap { $0 }, "the observer hears the stop as nil")
    }

    func testRedrawRemoteStudioAndQuitGoWhereTheyBelong() {
        let dispatcher = dispatcher(remote: true)
        XCTAssertTrue(dispatcher.perform(.redrawAll, state: state).isEmpty)
        XCTAssertEqual(screen.redraws, 1)
        _ = dispatcher.perform(.remote(.openParent), state: state)
        _ = dispatcher.perform(.remote(.retry(itemID: "a")), state: state)
        XCTAssertEqual(remote.effects, [.openParent, .retry(itemID: "a")])
        _ = dispatcher.perform(.studio(.stopEffectPreview), state: state)
        XCTAssertEqual(studio.requests, [.stopEffectPreview])
        XCTAssertTrue(dispatcher.perform(.quit, state: state).isEmpty)
        XCTAssertEqual(screen.redraws, 1)
        XCTAssertTrue(triage.requests.isEmpty && scans.started.isEmpty && playback.started.isEmpty)
    }

    /// The real worker writes the rating beside the photo, off the caller's thread, and posts nothing back for
    /// a sidecar written.
    func testALocalRatingIsWrittenByTheTriageWorker() throws {
        let posted = self.posted
        let worker = TriageWorker(environment: RuntimeEnvironment()) { action in posted.withLockedValue { $0.append(action) } }
        let dispatcher = dispatcher(triage: worker)
        XCTAssertTrue(dispatcher.perform(.triage(.writeState(TriageState(rating: 4), item)), state: state).isEmpty)
        worker.waitUntilIdle()
        let sidecar = SidecarLocator.preferredSidecar(for: item.primary.path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: sidecar), "no sidecar at \(sidecar)")
        XCTAssertEqual(TriageStore.sidecarsOnly.read([item])[item.id]?.rating, 4)
        XCTAssertTrue(posted.value.isEmpty, "\(posted.value)")
    }

    /// Remote items are names on a server: file work is refused (the refusal goes back as a result), ratings
    /// kept in the index go to the worker, an export downloads through the remote session with the ratings shown.
    func testRemoteTriageIsRefusedKeptInTheIndexOrExportedThroughTheSession() {
        let dispatcher = dispatcher(remote: true)
        state.triage.states[item.id] = TriageState(rating: 3)
        _ = dispatcher.perform(.triage(.trash([item])), state: state)
        XCTAssertTrue(triage.requests.isEmpty, "a trash of a remote item reached the worker")
        guard case .triage(.result(.failed(.notAvailableRemotely)))? = posted.value.first else {
            return XCTFail("no refusal: \(posted.value)")
        }

        let subject = TriageStore.RemoteSubject(itemID: item.id, location: "https://example.com/train.jpg", file: item.primary,
                                                displayName: "train.jpg")
        _ = dispatcher.perform(.triage(.writeRemoteState(TriageState(rating: 2), subject)), state: state)
        XCTAssertEqual(triage.requests, [.writeRemoteState(TriageState(rating: 2), subject)])

        _ = dispatcher.perform(.triage(.export(items: [item], choices: [], destination: "/tmp/out", stripLocation: true)), state: state)
        XCTAssertEqual(remote.exports.map(\.items), [[item.id]])
        XCTAssertEqual(remote.exports.first?.ratings, [item.id: TriageState(rating: 3)])
        XCTAssertEqual(triage.requests.count, 1, "the export went to the worker directly")

        _ = dispatcher.perform(.triage(.cancelExport), state: state)
        XCTAssertEqual(remote.cancels, 1)
        XCTAssertEqual(triage.requests.last, .cancelExport, "the worker cancels an export already writing")
    }

    func testLocalTriageGoesToTheWorkerAsAsked() {
        let dispatcher = dispatcher()
        _ = dispatcher.perform(.triage(.trash([item])), state: state)
        _ = dispatcher.perform(.triage(.cancelExport), state: state)
        XCTAssertEqual(triage.requests, [.trash([item]), .cancelExport])
        XCTAssertTrue(posted.value.isEmpty)
    }
}

private final class RecordingScreen: ScreenControl {
    var redraws = 0
    func redrawAll() { redraws += 1 }
}

private final class RecordingPlayback: PlaybackService {
    var started: [(shownID: ItemID, purpose: PlaybackPurpose)] = []
    var stops = 0
    var startReports: [BrowserAction] = []
    func start(_ item: LibraryItem, shownID: ItemID, purpose: PlaybackPurpose, state: BrowserState) -> [BrowserAction] {
        started.append((shownID, purpose))
        return startReports
    }
    func stop() -> [BrowserAction] {
        stops += 1
        return [.playback(.stopped)]
    }
}

private final class RecordingScans: ScanService {
    var started: [(folder: String, recursive: Bool)] = []
    func startScan(folder: String, recursive: Bool) { started.append((folder, recursive)) }
}

private final class RecordingTriage: TriageService, @unchecked Sendable {
    var requests: [TriageRequest] = []   // written on the test's thread only
    func perform(_ request: TriageRequest) { requests.append(request) }
}

private final class RecordingStudio: StudioService {
    var requests: [StudioRequest] = []
    func perform(_ request: StudioRequest) { requests.append(request) }
}

private final class RecordingRemote: RemoteService {
    var effects: [RemoteEffect] = []
    var exports: [(items: [ItemID], ratings: [ItemID: TriageState])] = []
    var cancels = 0
    func perform(_ effect: RemoteEffect) { effects.append(effect) }
    func export(_ items: [LibraryItem], choices: [ExportChoice], destination: String, stripLocation: Bool,
                ratings: [ItemID: TriageState]) {
        exports.append((items.map(\.id), ratings))
    }
    func cancelExport() { cancels += 1 }
}
