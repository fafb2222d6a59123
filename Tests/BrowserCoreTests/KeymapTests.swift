import BrowserCore
import LibraryCore
import LibraryCore
import LivePairing
import TerminalProtocol
import XCTest

final class KeymapTests: XCTestCase {
    private func state(mode: BrowserMode = .grid) -> BrowserState {
        var state = BrowserState(rootPath: "/", terminal: TerminalSize(columns: 80, rows: 24))
        state.reduce(.scanFinished(LibraryScan(root: "/", items: TestItems.stills(3), warnings: [])))
        if mode == .viewer { state.reduce(.openViewer) }
        if mode == .help { state.reduce(.toggleHelp) }
        return state
    }

    func testDefaultBindings() {
        let keymap = Keymap()
        let grid = state()
        XCTAssertEqual(keymap.action(for: .character("j"), in: grid).map(String.init(describing:)), "move(BrowserCore.MoveDirection.down)")
        XCTAssertNotNil(keymap.action(for: .pageDown, in: grid))
        if case .quit? = keymap.action(for: .character("q"), in: grid) {} else { XCTFail("q quits in the grid") }
        if case .back? = keymap.action(for: .character("q"), in: state(mode: .viewer)) {} else {
            XCTFail("q goes back in the viewer")
        }
        if case .back? = keymap.action(for: .character("q"), in: state(mode: .help)) {} else {
            XCTFail("q closes help")
        }
        if case .openViewer? = keymap.action(for: .enter, in: grid) {} else { XCTFail("Enter opens") }
        XCTAssertNil(keymap.action(for: .character("Z"), in: grid))
    }

    func testFilterEditingTakesPrintableKeys() {
        var editing = state()
        editing.reduce(.beginFilter)
        let keymap = Keymap()
        if case .filterInput("q")? = keymap.action(for: .character("q"), in: editing) {} else {
            XCTFail("q is text while typing a filter")
        }
        if case .cancelFilter? = keymap.action(for: .escape, in: editing) {} else { XCTFail() }
        if case .commitFilter? = keymap.action(for: .enter, in: editing) {} else { XCTFail() }
    }

    func testRebindReplacesDefaults() {
        var keymap = Keymap()
        keymap.rebind(.quit, to: [.character("x")])
        XCTAssertNil(keymap.action(for: .character("q"), in: state()))
        if case .quit? = keymap.action(for: .character("x"), in: state()) {} else { XCTFail() }
    }

    func testKeyNames() {
        XCTAssertEqual(KeyInput(name: "PageDown"), .pageDown)
        XCTAssertEqual(KeyInput(name: "Space"), .character(" "))
        XCTAssertEqual(KeyInput(name: "Ctrl-f"), .character("\u{06}"))
        XCTAssertEqual(KeyInput(name: "F12"), .function(12))
        XCTAssertEqual(KeyInput(name: "G"), .character("G"))
        XCTAssertNil(KeyInput(name: "Hyper-x"))
        XCTAssertEqual(KeyInput.character("\u{06}").displayName, "Ctrl-f")
    }
}
