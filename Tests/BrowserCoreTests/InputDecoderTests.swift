import BrowserCore
import TerminalProtocol
import XCTest

final class InputDecoderTests: XCTestCase {
    private func decode(_ s: String) -> [InputEvent] {
        var d = InputDecoder()
        return d.feed(Array(s.utf8))
    }

    func testPlainKeysArrowsAndControl() {
        XCTAssertEqual(decode("a"), [.key(KeyEvent(.character("a")))])
        XCTAssertEqual(decode("\u{1B}[A\u{1B}OB"), [.key(KeyEvent(.up)), .key(KeyEvent(.down))])
        XCTAssertEqual(decode("\r"), [.key(KeyEvent(.enter))])
        XCTAssertEqual(decode("\u{03}"), [.key(KeyEvent(.character("c"), modifiers: .ctrl))])
        XCTAssertEqual(decode("\u{1B}[5~\u{1B}[6~"), [.key(KeyEvent(.pageUp)), .key(KeyEvent(.pageDown))])
        XCTAssertEqual(decode("é"), [.key(KeyEvent(.character("é")))])
        XCTAssertEqual(decode("\u{1B}x"), [.key(KeyEvent(.character("x"), modifiers: .alt))])
    }

    func testKittyKeyboardProtocolPressRepeatRelease() {
        XCTAssertEqual(decode("\u{1B}[32u"), [.key(KeyEvent(.character(" "), type: .press))])
        XCTAssertEqual(decode("\u{1B}[32;1:2u"), [.key(KeyEvent(.character(" "), type: .repeat))])
        XCTAssertEqual(decode("\u{1B}[32;1:3u"), [.key(KeyEvent(.character(" "), type: .release))])
        XCTAssertEqual(decode("\u{1B}[1;1:3A"), [.key(KeyEvent(.up, type: .release))])
        XCTAssertEqual(decode("\u{1B}[97;5u"), [.key(KeyEvent(.character("a"), modifiers: .ctrl))])
        XCTAssertEqual(decode("\u{1B}[13u\u{1B}[27u"), [.key(KeyEvent(.enter)), .key(KeyEvent(.escape))])
    }

    func testQueryReplies() {
        XCTAssertEqual(decode("\u{1B}[?11u"), [.keyboardProtocolFlags(11)])
        XCTAssertEqual(decode("\u{1B}[?62;4;22c"), [.primaryDeviceAttributes([62, 4, 22])])
        XCTAssertEqual(decode("\u{1B}[6;20;10t"), [.cellPixels(height: 20, width: 10)])
        XCTAssertEqual(decode("\u{1B}_Gi=31;OK\u{1B}\\"), [.applicationReply("Gi=31;OK")])
    }

    func testSGRMousePressReleaseAndWheel() {
        XCTAssertEqual(decode("\u{1B}[<0;10;5M"),
                       [.mouse(MouseEvent(button: .left, kind: .press, column: 9, row: 4, modifiers: []))])
        XCTAssertEqual(decode("\u{1B}[<0;10;5m"),
                       [.mouse(MouseEvent(button: .left, kind: .release, column: 9, row: 4, modifiers: []))])
        XCTAssertEqual(decode("\u{1B}[<65;1;1M"),
                       [.mouse(MouseEvent(button: .wheelDown, kind: .press, column: 0, row: 0, modifiers: []))])
    }

    func testSplitSequencesWaitAndLoneEscapeNeedsAFlush() {
        var d = InputDecoder()
        XCTAssertEqual(d.feed([0x1B, UInt8(ascii: "[")]), [])
        XCTAssertEqual(d.feed(Array("32;1:3u".utf8)), [.key(KeyEvent(.character(" "), type: .release))])
        XCTAssertEqual(d.feed([0x1B]), [])
        XCTAssertTrue(d.hasPending)
        XCTAssertEqual(d.flushPending(), [.key(KeyEvent(.escape))])
    }

    func testGarbageNeverTrapsAndRunawaySequencesAreDropped() {
        var d = InputDecoder()
        d.maxSequenceLength = 64
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let n = Int.random(in: 0..<32, using: &rng)
            _ = d.feed((0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) })
        }
        _ = d.flushPending()
        XCTAssertFalse(d.feed([0x1B, UInt8(ascii: "P")] + Array(repeating: UInt8(ascii: "x"), count: 100)).isEmpty)
    }
}

final class HoldDetectorTests: XCTestCase {
    func testExplicitReleaseEndsAtOnce() {
        var h = HoldDetector(mode: .explicitRelease)
        XCTAssertEqual(h.handle(.press, at: 0), [.holdStarted])
        XCTAssertEqual(h.handle(.repeat, at: 0.5), [])
        XCTAssertEqual(h.tick(now: 10), [], "no timeout with real releases")
        XCTAssertEqual(h.handle(.release, at: 11), [.holdEnded])
    }

    func testAutoRepeatHoldLastsWhileRepeatsArriveAndLearnsTheInitialDelay() {
        var h = HoldDetector(mode: .autoRepeat)
        XCTAssertEqual(h.handle(.press, at: 0), [.holdStarted])
        XCTAssertEqual(h.tick(now: 0.6), [], "still inside the initial repeat delay")
        XCTAssertEqual(h.handle(.press, at: 0.66), [])          // X.Org: first repeat after 660 ms
        var t = 0.66
        for _ in 0..<20 {
            t += 0.04
            XCTAssertEqual(h.handle(.press, at: t), [])
            XCTAssertEqual(h.tick(now: t + 0.02), [])
        }
        XCTAssertEqual(h.tick(now: t + 0.3), [.holdEnded], "repeats stopped: released")
        XCTAssertGreaterThan(h.initialTimeout, 0.66)
        XCTAssertLessThanOrEqual(h.repeatTimeout, 0.2)
    }

    func testATapInAutoRepeatModeEndsAfterTheInitialTimeout() {
        var h = HoldDetector(mode: .autoRepeat, initialTimeout: 0.7)
        XCTAssertEqual(h.handle(.press, at: 0), [.holdStarted])
        XCTAssertEqual(h.nextDeadline, 0.7)
        XCTAssertEqual(h.tick(now: 0.71), [.holdEnded])
        XCTAssertNil(h.nextDeadline)
    }
}
