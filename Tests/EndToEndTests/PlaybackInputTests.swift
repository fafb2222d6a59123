import BrowserCore
import Foundation
import Library
import LibraryCore
import LivePairing
import MediaFormats
import TerminalProtocol
@testable import TerminalUI
import TestSupport
import XCTest

/// The hold logic and the kitty key mapping, without a terminal.
final class PlaybackInputTests: XCTestCase {
    private func names(_ actions: [BrowserAction]) -> [String] { actions.map { "\($0)" } }

    private func state(kinds: [ItemKind]) -> BrowserState {
        var state = BrowserState(rootPath: "/x", terminal: TerminalSize(columns: 120, rows: 40))
        let items = kinds.enumerated().map { index, kind in
            let file = MediaFile(path: "/x/\(index).jpg", size: 1, modificationTime: 0, info: MediaInfo(format: .jpeg))
            return kind == .video ? LibraryItem(kind: kind, movie: file) : LibraryItem(kind: kind, still: file)
        }
        state.reduce(.scanFinished(LibraryScan(root: "/x", items: items, warnings: [])))
        return state
    }

    func testAutoRepeatHoldEndsWhenTheRepeatsStop() {
        var hold = PlayHoldInput(kittyKeys: false)
        XCTAssertEqual(hold.keySource, .keyRepeat)
        XCTAssertEqual(names(hold.playKey(.press, now: 0)), ["playPressed"])
        XCTAssertEqual(hold.activeSource, .keyRepeat)
        XCTAssertEqual(names(hold.playKey(.press, now: 0.5)), [], "the first repeat after the initial delay")
        for i in 1...10 { XCTAssertEqual(names(hold.playKey(.press, now: 0.5 + Double(i) * 0.03)), []) }
        XCTAssertEqual(names(hold.tick(now: 0.82)), [], "within the learned repeat timeout")
        XCTAssertEqual(names(hold.tick(now: 1.5)), ["playReleased"])
        XCTAssertNil(hold.activeSource)
    }

    func testAutoRepeatTapWithoutRepeatsEndsAfterTheInitialTimeout() {
        var hold = PlayHoldInput(kittyKeys: false)
        XCTAssertEqual(names(hold.playKey(.press, now: 10)), ["playPressed"])
        XCTAssertEqual(names(hold.tick(now: 10.3)), [])
        XCTAssertEqual(names(hold.tick(now: 11.5)), ["playReleased"])
    }

    func testKittyReleaseEndsTheHoldAtOnce() {
        var hold = PlayHoldInput(kittyKeys: true)
        XCTAssertEqual(hold.keySource, .kittyKeys)
        XCTAssertEqual(names(hold.playKey(.press, now: 0)), ["playPressed"])
        XCTAssertEqual(names(hold.playKey(.repeat, now: 0.5)), [])
        XCTAssertEqual(names(hold.tick(now: 5)), [], "no timeout with explicit releases")
        XCTAssertEqual(names(hold.playKey(.release, now: 5.1)), ["playReleased"])
    }

    func testMouseHoldOnAnUnselectedLiveCellSelectsAndPlaysAndAClickStillOpens() {
        let state = state(kinds: [.still, .live, .video])
        var hold = PlayHoldInput(kittyKeys: false)
        XCTAssertEqual(names(hold.mouseDown(x: 30, y: 3, index: 1, state: state, now: 0)), ["select(index: 1)", "playPressed"])
        XCTAssertEqual(hold.activeSource, .mouse)
        XCTAssertEqual(names(hold.playKey(.press, now: 0.1)), [], "Space does not take over a mouse hold")
        XCTAssertEqual(names(hold.mouseUp(now: 1.2, mode: .grid)), ["playReleased"], "a hold is not a click")

        var selected = state
        selected.reduce(.select(index: 1))
        XCTAssertEqual(names(hold.mouseDown(x: 30, y: 3, index: 1, state: selected, now: 2)), ["playPressed"])
        XCTAssertEqual(names(hold.mouseUp(now: 2.1, mode: .grid)), ["playReleased", "click(x: 30, y: 3)"],
                       "a quick press on the selected item still opens it")
        XCTAssertEqual(names(hold.mouseDown(x: 2, y: 3, index: 0, state: state, now: 3)), ["click(x: 2, y: 3)"],
                       "a still is clicked as before")
        XCTAssertEqual(names(hold.mouseUp(now: 3.1, mode: .grid)), [])
    }

    func testKittyKeysMapToTheLegacyKeys() {
        XCTAssertEqual(KeyEvent(.character("l"), modifiers: .ctrl).keyInput, .character("\u{0C}"))
        XCTAssertEqual(KeyEvent(.character("g"), modifiers: .shift).keyInput, .character("G"))
        XCTAssertEqual(KeyEvent(.character("/"), modifiers: .shift).keyInput, .character("?"))
        XCTAssertEqual(KeyEvent(.character(" ")).keyInput, .character(" "))
        XCTAssertEqual(KeyEvent(.pageDown).keyInput, .pageDown)
        var decoder = InputDecoder()
        let events = decoder.feed(Array("\u{1B}[32u\u{1B}[32;1:2u\u{1B}[32;1:3u".utf8))
        let types: [KeyEventType] = events.compactMap { if case .key(let k) = $0 { return k.type } else { return nil } }
        XCTAssertEqual(types, [.press, .repeat, .release])
    }
}
