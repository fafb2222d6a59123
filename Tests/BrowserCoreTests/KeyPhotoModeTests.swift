import BrowserCore
import LibraryCore
import LibraryCore
import LivePairing
import TerminalProtocol
import XCTest

/// The viewer's key-photo mode in the state machine: keys through the keymap, the reducer, and the requests
/// it hands the front end (frame times, frames, the write), and what the status bar says.
final class KeyPhotoModeTests: XCTestCase {
    private let keymap = Keymap()
    private let items = [TestItems.live("IMG_1"), TestItems.still("IMG_2.JPG")]
    private let times = [0.0, 0.1, 0.2, 0.3, 0.4]

    private func inViewer(selecting index: Int = 0) -> BrowserState {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: items, warnings: [])))
        for _ in 0..<index { state.reduce(.move(.right)) }
        state.reduce(.openViewer)
        XCTAssertEqual(state.mode, .viewer)
        return state
    }

    @discardableResult
    private func press(_ keys: KeyInput..., in state: inout BrowserState) -> [BrowserEffect] {
        var effects: [BrowserEffect] = []
        for key in keys {
            guard let action = keymap.action(for: key, in: state) else { continue }
            effects += state.reduce(action)
        }
        return effects
    }

    /// K, then the frame times arrive with the still-image time at 0.2 s.
    private func inKeyPhotoMode() -> BrowserState {
        var state = inViewer()
        XCTAssertEqual(press(.character("K"), in: &state), [.studio(.loadFrameTimes(items[0]))])
        XCTAssertNotNil(state.keyPhoto)
        let effects = state.reduce(.studio(.frameTimesLoaded(itemID: items[0].id, times: times, stillImageTime: 0.2)))
        XCTAssertEqual(effects, [.studio(.showFrame(items[0], time: 0.2))], "starts on the current key photo")
        return state
    }

    func testKIsOnlyTheModeInTheViewer() {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: items, warnings: [])))
        XCTAssertEqual(press(.character("K"), in: &state), [], "K does nothing in the grid")
        XCTAssertNil(state.keyPhoto)
        XCTAssertTrue(HelpScreen.lines(keymap: keymap).contains { $0.hasPrefix("Key photo") && $0.hasSuffix("K") })
    }

    func testAStillIsRefusedWithAReason() {
        var state = inViewer(selecting: 1)
        XCTAssertEqual(press(.character("K"), in: &state), [])
        XCTAssertNil(state.keyPhoto)
        XCTAssertEqual(state.message, "key photo: IMG_2.JPG is not a Live Photo")
    }

    func testArrowsStepFramesAndTheStatusShowsTheTime() throws {
        var state = inKeyPhotoMode()
        XCTAssertEqual(state.message, "frame 3/5  0.200 s  (the key photo) · " + "←/→ frame · Enter writes a new Live Photo · Esc leaves")
        XCTAssertEqual(press(.right, in: &state), [.studio(.showFrame(items[0], time: 0.3))])
        XCTAssertEqual(state.selection, 0, "right steps frames, not items")
        XCTAssertEqual(press(.left, .left, in: &state).last, .studio(.showFrame(items[0], time: 0.1)))
        XCTAssertTrue(try XCTUnwrap(state.message).hasPrefix("frame 2/5  0.100 s  (key photo 0.200 s)"))
        press(.left, .left, .left, in: &state)
        XCTAssertEqual(state.keyPhoto?.picker?.time, 0, "stops at the first frame")
        press(.end, in: &state)
        XCTAssertEqual(state.keyPhoto?.picker?.time, 0.4, "End goes to the last frame")
        // The decoded frame arriving marks the line; a stale one (another time) does not.
        state.reduce(.studio(.frameShown(itemID: items[0].id, time: 0.1)))
        XCTAssertFalse(try XCTUnwrap(state.message).contains("shown"))
        state.reduce(.studio(.frameShown(itemID: items[0].id, time: 0.4)))
        XCTAssertTrue(try XCTUnwrap(state.message).contains("0.400 s  (key photo 0.200 s) · shown"))
    }

    func testEnterWritesBesideTheOriginalThenRescans() throws {
        var state = inKeyPhotoMode()
        XCTAssertEqual(press(.enter, in: &state), [], "the current key photo is not written again")
        XCTAssertTrue(try XCTUnwrap(state.message).contains("already the key photo"))
        press(.right, in: &state)
        XCTAssertEqual(press(.enter, in: &state), [.studio(.writeKeyPhoto(items[0], seconds: 0.3, directory: "/photos"))])
        XCTAssertEqual(state.keyPhoto?.isWriting, true)
        XCTAssertEqual(press(.right, in: &state), [], "frames stay while writing")
        let effects = state.reduce(.studio(.written(itemID: items[0].id, paths: ["/photos/IMG_1-edit.HEIC", "/photos/IMG_1-edit.MOV"])))
        XCTAssertEqual(effects, [.studio(.leave), .startScan])
        XCTAssertNil(state.keyPhoto)
        XCTAssertEqual(state.message, "wrote a new Live Photo IMG_1-edit.HEIC + IMG_1-edit.MOV")
        XCTAssertEqual(state.mode, .viewer)
    }

    func testEscLeavesWithoutWritingAndStaysInTheViewer() {
        var state = inKeyPhotoMode()
        press(.right, in: &state)
        XCTAssertEqual(press(.escape, in: &state), [.studio(.leave)])
        XCTAssertNil(state.keyPhoto)
        XCTAssertEqual(state.mode, .viewer, "Esc leaves the mode, not the viewer")
        XCTAssertEqual(state.message, "key photo: left, nothing written")
        XCTAssertEqual(press(.right, in: &state), [], "arrows step items again")
        XCTAssertEqual(state.selection, 1)
    }

    /// The worker posts the kind of failure; the sentence is made here, in the words the status bar always had.
    func testStudioFailuresSayTheirSentence() {
        XCTAssertEqual(StudioFailure.noMovie(itemName: "IMG_0001").description, "IMG_0001 has no movie")
        XCTAssertEqual(StudioFailure.noFrame(seconds: 1.5).description, "no frame at 1.500 s")
        XCTAssertEqual(StudioFailure.frameUndecodable(seconds: 0.0334, cause: "corrupt").description,
                       "the frame at 0.033 s does not decode (corrupt)")
        XCTAssertEqual(StudioFailure.notWritten(cause: "disk full").description, "nothing written: disk full")
        XCTAssertEqual(StudioFailure.effectNotRendered(cause: "cannot decode").description, "cannot decode")
    }

    func testAFailureEndsTheModeWithItsReason() {
        var state = inViewer()
        press(.character("K"), in: &state)
        XCTAssertEqual(state.reduce(.studio(.failed(itemID: items[0].id, .framesUnreadable(cause: "x")))),
                       [.studio(.leave)])
        XCTAssertNil(state.keyPhoto)
        XCTAssertEqual(state.message, "key photo: the movie's frames cannot be read (x)")
        // A failed write also ends it, nothing else happens.
        state = inKeyPhotoMode()
        press(.right, .enter, in: &state)
        XCTAssertEqual(state.reduce(.studio(.failed(itemID: items[0].id, .notWritten(cause: "disk full")))), [.studio(.leave)])
        XCTAssertEqual(state.message, "key photo: nothing written: disk full")
    }

    func testAMovieWithoutFramesLeavesAtOnce() {
        var state = inViewer()
        press(.character("K"), in: &state)
        XCTAssertEqual(state.reduce(.studio(.frameTimesLoaded(itemID: items[0].id, times: [], stillImageTime: nil))), [.studio(.leave)])
        XCTAssertNil(state.keyPhoto)
        XCTAssertEqual(state.message, "key photo: the movie has no frames")
    }
}
