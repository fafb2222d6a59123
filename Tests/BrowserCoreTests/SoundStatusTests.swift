@testable import BrowserCore
import LibraryCore
import LibraryCore
import LivePairing
import XCTest

/// The sound's words and mark in the reducer (issue 29): the once-only "no sound: ..." note never covers a
/// LIVE OFF reason (it waits for the next key), and the playing item's mark follows the hold and the sound.
final class SoundStatusTests: XCTestCase {
    private let live = TestItems.live("IMG_0001")
    private let still = TestItems.still("a.jpg")
    private let noServer = "no sound: no PulseAudio or PipeWire server here"

    private func state() -> BrowserState {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        state.playback.hintsEnabled = false
        state.playback.useKeyInput(kittyKeys: true)
        state.reduce(.playbackTick(at: 100))
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: [live, still], warnings: [])))
        return state
    }

    func testTheSoundNoteNeverCoversALiveOffReasonAndShowsAfterTheNextKey() {
        var state = state()
        state.reduce(.playInput(.key(.press), at: 100))
        state.reduce(.playback(.failed(itemID: live.id, .cannotDecode("damaged"))))
        XCTAssertEqual(state.messagePriority, .reason)
        // The sound server was asked in the background: its answer comes after the reason.
        state.reduce(.playback(.soundNote(noServer)))
        XCTAssertEqual(state.message, "LIVE OFF: cannot play its movie: damaged")
        // Said once, so it is not lost: the next key clears the reason and the note shows then.
        state.reduce(.redraw)
        XCTAssertEqual(state.message, noServer)
        XCTAssertEqual(state.messagePriority, .note)
        state.reduce(.redraw)
        XCTAssertNil(state.message, "the note goes with the key after it, like any message")
    }

    func testALiveOffReasonReplacesTheSoundNote() {
        var state = state()
        state.reduce(.playInput(.key(.press), at: 100))
        state.reduce(.playback(.soundNote(noServer)))
        XCTAssertEqual(state.message, noServer, "nothing else to say: the note shows at once")
        state.reduce(.playback(.refused(itemID: live.id, .noMovie("/photos/IMG_0001.MOV"))))
        XCTAssertEqual(state.message, "LIVE OFF: no movie found for /photos/IMG_0001.MOV")
        state.reduce(.redraw)
        XCTAssertNil(state.message, "the replaced note does not come back")
    }

    func testTheRememberedReasonOfASecondPressIsNotCoveredEither() {
        var state = state()
        state.reduce(.playInput(.key(.press), at: 100))
        state.reduce(.playback(.failed(itemID: live.id, .cannotDecode("damaged"))))
        state.reduce(.playInput(.key(.release), at: 101))
        state.reduce(.redraw)
        XCTAssertEqual(state.reduce(.playInput(.key(.press), at: 102)), [], "LIVE OFF: no second attempt")
        state.reduce(.playback(.soundNote(noServer)))
        XCTAssertEqual(state.message, "LIVE OFF: cannot play its movie: damaged")
    }

    func testAnOrdinaryMessageIsNotCoveredByTheNoteButAnErrorAfterItIsShown() {
        var state = state()
        state.reduce(.toggleSound)
        XCTAssertEqual(state.message, "sound off")
        state.reduce(.playback(.soundNote(noServer)))
        XCTAssertEqual(state.message, "sound off")
        state.reduce(.showMessage("cannot write the cache"))
        XCTAssertEqual(state.message, "cannot write the cache")
        XCTAssertEqual(state.messagePriority, .ordinary)
    }

    func testTheSoundMarkShowsOnTheHeldItemOnlyWhileItsSoundIsHeard() {
        var state = state()
        XCTAssertNil(state.playback.soundMark(for: live.id))
        state.reduce(.playInput(.key(.press), at: 100))
        XCTAssertNil(state.playback.soundMark(for: live.id), "no mark before the sound is heard (no server: never)")
        state.reduce(.playback(.firstFrame(itemID: live.id)))
        state.reduce(.playback(.soundPlaying))
        XCTAssertEqual(state.playback.soundMark(for: live.id), "\u{266A}")
        XCTAssertNil(state.playback.soundMark(for: still.id), "only on the playing item")
        XCTAssertFalse(state.playback.soundMark(for: live.id)?.contains("\u{25B6}") ?? false, "never a play triangle")
        state.reduce(.toggleSound)
        XCTAssertEqual(state.playback.soundMark(for: live.id), "\u{266A} muted")
        state.reduce(.toggleSound)
        state.reduce(.playInput(.key(.release), at: 101))
        XCTAssertNil(state.playback.soundMark(for: live.id), "released: the key photo, no mark")
        state.reduce(.playback(.stopped))
        // The next hold starts without a mark until its own sound is heard.
        state.reduce(.playInput(.key(.press), at: 102))
        XCTAssertNil(state.playback.soundMark(for: live.id))
    }
}
