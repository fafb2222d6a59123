@testable import BrowserCore
import LibraryCore
import LibraryCore
import LivePairing
import XCTest

/// Press-and-hold playback as the reducer's state machine, driven by an injected clock: the test advances
/// time with `.playbackTick(at:)` and stamps input with it, as swift-nio's EmbeddedEventLoop.advanceTime does,
/// so no test waits on real time.
final class PlaybackMachineTests: XCTestCase {
    private let live = TestItems.live("IMG_0001")
    private let still = TestItems.still("a.jpg")

    private func state(hints: Bool = false, kittyKeys: Bool = false) -> BrowserState {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        state.playback.hintsEnabled = hints
        state.playback.useKeyInput(kittyKeys: kittyKeys)
        state.reduce(.playbackTick(at: 100))
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: [live, still], warnings: [])))
        return state
    }

    func testHoldGoesThroughLoadingPlayingReturningIdle() {
        var state = state()
        XCTAssertEqual(state.reduce(.playInput(.key(.press), at: 100.0)), [.startPlayback(itemID: live.id)])
        XCTAssertEqual(state.playback.phase, .loading(itemID: live.id, purpose: .hold))
        XCTAssertTrue(state.isPlayPressed)
        XCTAssertEqual(state.playback.statusNote, "◎ hold: key repeat ♪", "the note shows while the movie loads")
        state.reduce(.playback(.firstFrame(itemID: live.id)))
        XCTAssertEqual(state.playback.phase, .playing(itemID: live.id, purpose: .hold))
        XCTAssertEqual(state.playback.statusNote, "◎ hold: key repeat ♪")
        // Auto-repeat: repeats keep the hold; the clock ends it once they stop.
        XCTAssertEqual(state.reduce(.playInput(.key(.press), at: 100.5)), [])
        XCTAssertEqual(state.reduce(.playInput(.key(.press), at: 100.53)), [])
        XCTAssertEqual(state.playback.nextDeadline ?? 0, 100.53 + state.playback.input.keys.repeatTimeout, accuracy: 1e-9)
        XCTAssertEqual(state.reduce(.playbackTick(at: 100.6)), [], "within the repeat timeout")
        XCTAssertEqual(state.reduce(.playbackTick(at: 101.5)), [.stopPlayback])
        XCTAssertEqual(state.playback.phase, .returning(itemID: live.id))
        XCTAssertFalse(state.isPlayPressed)
        state.reduce(.playback(.stopped))
        XCTAssertEqual(state.playback.phase, .idle)
        XCTAssertNil(state.playback.nextDeadline, "nothing to time: the loop sleeps")
    }

    func testKittyReleaseEndsAtOnceAndAStrayReleaseKeepsTheMessage() {
        var state = state(kittyKeys: true)
        XCTAssertEqual(state.reduce(.playInput(.key(.press), at: 100)), [.startPlayback(itemID: live.id)])
        XCTAssertNil(state.playback.nextDeadline, "explicit releases need no timer")
        XCTAssertEqual(state.reduce(.playInput(.key(.release), at: 105)), [.stopPlayback])
        state.reduce(.playback(.stopped))
        state.reduce(.showMessage("note"))
        XCTAssertEqual(state.reduce(.playInput(.key(.release), at: 106)), [])
        XCTAssertEqual(state.message, "note", "a release with nothing held changes nothing")
    }

    func testFailuresBecomeLiveOffMessagesInTheReducer() {
        var state = state(kittyKeys: true)
        state.reduce(.playInput(.key(.press), at: 100))
        state.reduce(.playback(.failed(itemID: live.id, .cannotDecode("damaged"))))
        XCTAssertEqual(state.playback.phase, .idle)
        XCTAssertEqual(state.message, "LIVE OFF: cannot play its movie: damaged")
        XCTAssertEqual(state.liveOffReason(for: live), "cannot play its movie: damaged")
        state.reduce(.playInput(.key(.release), at: 101))
        // Pressing again: the remembered reason, no second attempt.
        XCTAssertEqual(state.reduce(.playInput(.key(.press), at: 102)), [])
        XCTAssertEqual(state.message, "LIVE OFF: cannot play its movie: damaged")
    }

    func testTooSmallHereIsSaidButNotRemembered() {
        var state = state(kittyKeys: true)
        state.reduce(.playInput(.key(.press), at: 100))
        state.reduce(.playback(.refused(itemID: live.id, .tooSmall)))
        XCTAssertEqual(state.message, "LIVE OFF: the picture is too small to play here")
        XCTAssertNil(state.liveOffReason(for: live))
        state.reduce(.playInput(.key(.release), at: 101))
        XCTAssertEqual(state.reduce(.playInput(.key(.press), at: 102)), [.startPlayback(itemID: live.id)])
    }

    func testMovingTheSelectionStopsTheMovie() {
        var state = state(kittyKeys: true)
        state.reduce(.playInput(.key(.press), at: 100))
        state.reduce(.playback(.firstFrame(itemID: live.id)))
        XCTAssertEqual(state.reduce(.move(.right)), [.stopPlayback])
        XCTAssertEqual(state.playback.phase, .returning(itemID: live.id))
    }

    func testHintPlaysOnceAfterTheItemStaysSelected() {
        var state = state(hints: true)
        XCTAssertNil(state.playback.nextDeadline, "the selection's timer starts with the next tick of the clock")
        state.reduce(.playbackTick(at: 100))
        XCTAssertEqual(state.playback.nextDeadline ?? 0, 100 + PlaybackSession.hintDelay, accuracy: 1e-9)
        XCTAssertEqual(state.reduce(.playbackTick(at: 100.5)), [])
        XCTAssertEqual(state.reduce(.playbackTick(at: 101.0)), [.startHint(itemID: live.id)])
        XCTAssertEqual(state.playback.phase, .loading(itemID: live.id, purpose: .hint))
        XCTAssertFalse(state.isPlayPressed, "a hint is not a hold")
        XCTAssertNil(state.playback.statusNote)
        state.reduce(.playback(.firstFrame(itemID: live.id)))
        state.reduce(.playback(.ended(itemID: live.id)))
        XCTAssertEqual(state.playback.phase, .idle)
        XCTAssertNil(state.playback.nextDeadline)
        XCTAssertEqual(state.reduce(.playbackTick(at: 110)), [], "once per selection")
        // Away and back: the timer starts again from the next tick.
        state.reduce(.move(.right))
        state.reduce(.move(.left))
        XCTAssertEqual(state.reduce(.playbackTick(at: 120)), [])
        XCTAssertEqual(state.reduce(.playbackTick(at: 121)), [.startHint(itemID: live.id)])
    }

    func testHintWaitsForTheFirstScreenAndStaysOffOnASlowLink() {
        var state = state(hints: true)
        state.playback.holdHints(.firstScreen)
        state.reduce(.playbackTick(at: 100))
        XCTAssertNil(state.playback.nextDeadline, "no hint timer while the first screen's pictures arrive")
        XCTAssertEqual(state.reduce(.playbackTick(at: 105)), [], "selected for 5 s: still held")
        // The first screen is complete at 105: the hint plays a full delay later, not at once.
        state.playback.holdHints(nil)
        XCTAssertEqual(state.playback.nextDeadline ?? 0, 105 + PlaybackSession.hintDelay, accuracy: 1e-9)
        XCTAssertEqual(state.reduce(.playbackTick(at: 105.5)), [])
        // The link turned slow before it came due: it stays off, the timer too.
        state.playback.holdHints(.slowLink)
        XCTAssertNil(state.playback.nextDeadline)
        XCTAssertEqual(state.reduce(.playbackTick(at: 107)), [])
        state.playback.holdHints(nil)
        XCTAssertEqual(state.reduce(.playbackTick(at: 107.5)), [])
        XCTAssertEqual(state.reduce(.playbackTick(at: 108)), [.startHint(itemID: live.id)])
    }

    func testHintWaitsWhileAHoldPlays() {
        var state = state(hints: true, kittyKeys: true)
        XCTAssertEqual(state.reduce(.playInput(.key(.press), at: 100.2)), [.startPlayback(itemID: live.id)])
        XCTAssertEqual(state.reduce(.playbackTick(at: 102)), [], "the hold started: its hint is done")
    }

    func testMouseHoldSelectsAndPlaysAndAQuickClickOnTheSelectionOpens() {
        var state = state()
        state.reduce(.move(.right))
        let effects = state.reduce(.playInput(.mouseDown(x: 2, y: 3, index: 0), at: 100))
        XCTAssertEqual(state.selection, 0)
        XCTAssertEqual(effects, [.startPlayback(itemID: live.id)])
        XCTAssertEqual(state.reduce(.playInput(.mouseUp, at: 101.2)), [.stopPlayback])
        XCTAssertEqual(state.mode, .grid, "a hold is not a click")
        state.reduce(.playback(.stopped))
        state.reduce(.playInput(.mouseDown(x: 2, y: 3, index: 0), at: 102))
        state.reduce(.playInput(.mouseUp, at: 102.1))
        XCTAssertEqual(state.mode, .viewer, "a quick press on the selected item still opens it")
    }
}

/// Where a movie plays: the selected grid cell, or the viewer's picture area beside the info panel.
final class PictureRectTests: XCTestCase {
    func testSelectedPictureRectFollowsTheModeAndTheInfoPanel() {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: TestItems.stills(10), warnings: [])))
        state.reduce(.move(.right))
        XCTAssertEqual(state.selectedPictureRect, state.layout.pictureRect(index: 1, scrollRow: state.scrollRow))
        state.reduce(.openViewer)
        let content = state.layout.content
        XCTAssertEqual(state.selectedPictureRect, CellRect(x: content.x, y: content.y, width: content.width, height: content.height - 1))
        state.reduce(.toggleInfo)
        XCTAssertEqual(state.selectedPictureRect?.width, content.width - min(48, max(20, content.width / 2)),
                       "the info panel takes its share")
        state.reduce(.toggleHelp)
        XCTAssertEqual(state.selectedPictureRect, state.viewerPictureRect, "help is drawn over the viewer")
    }
}
