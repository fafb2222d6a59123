import TerminalProtocol
import XCTest

/// What the start-up reply reader keeps for the main loop: keys typed, in order, never the terminal's replies.
final class TypedKeyTests: XCTestCase {
    func testKeysTypedBetweenRepliesAreKeptInOrderAndRepliesAreNot() {
        var decoder = InputDecoder()
        let bytes = Array("l\u{1B}[?1u\u{1B}[6;15;7tj\u{1B}[A\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4c".utf8)
        let typed = decoder.feed(bytes).compactMap(\.typedKey)
        XCTAssertEqual(typed, [KeyEvent(.character("l")), KeyEvent(.character("j")), KeyEvent(.up)])
    }

    func testReleasesAreNotTypedKeys() {
        XCTAssertNil(InputEvent.key(KeyEvent(.character(" "), type: .release)).typedKey)
        XCTAssertNotNil(InputEvent.key(KeyEvent(.character(" "), type: .repeat)).typedKey)
        XCTAssertNil(InputEvent.primaryDeviceAttributes([62, 4]).typedKey)
    }
}
