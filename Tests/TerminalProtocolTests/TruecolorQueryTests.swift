import TerminalProtocol
import XCTest

/// Issue 31.6: the terminal's own answer on 24-bit colour, parsed from its DCS replies.
final class TruecolorQueryTests: XCTestCase {
    func testTheQueryAsksRGBAndTcHexEncodedThenDECRQSSThenDA1() {
        XCTAssertTrue(TruecolorQuery.sequence.hasPrefix("\u{1B}P+q524742;5463\u{1B}\\"))
        XCTAssertTrue(TruecolorQuery.sequence.contains("\u{1B}[48:2::1:2:3m\u{1B}P$qm\u{1B}\\\u{1B}[0m"))
        XCTAssertTrue(TruecolorQuery.sequence.hasSuffix("\u{1B}[c"))
    }

    func testXtgettcapYesAnswers() {
        XCTAssertEqual(TruecolorQuery.evidence(inDeviceControlReplies: ["1+r524742=382F382F38"]),
                       "the terminal answers XTGETTCAP RGB")
        XCTAssertEqual(TruecolorQuery.evidence(inDeviceControlReplies: ["0+r524742", "1+r5463"]),
                       "the terminal answers XTGETTCAP Tc")
        XCTAssertEqual(TruecolorQuery.evidence(inDeviceControlReplies: ["1+r5463=;524742=382F382F38"]),
                       "the terminal answers XTGETTCAP Tc")
    }

    func testNoesAndOtherRepliesAreNotEvidence() {
        XCTAssertNil(TruecolorQuery.evidence(inDeviceControlReplies: []))
        XCTAssertNil(TruecolorQuery.evidence(inDeviceControlReplies: ["0+r524742", "0+r5463"]))
        XCTAssertNil(TruecolorQuery.evidence(inDeviceControlReplies: ["1+r636F6C6F7273=323536"]))   // colors=256
        XCTAssertNil(TruecolorQuery.evidence(inDeviceControlReplies: [">|XTerm(379)"]))
        XCTAssertNil(TruecolorQuery.evidence(inDeviceControlReplies: ["1+rZZ"]))
        // DECRQSS naming a 256-colour approximation, or only the reset.
        XCTAssertNil(TruecolorQuery.evidence(inDeviceControlReplies: ["1$r0;48:5:16m"]))
        XCTAssertNil(TruecolorQuery.evidence(inDeviceControlReplies: ["1$r0m"]))
        XCTAssertNil(TruecolorQuery.evidence(inDeviceControlReplies: ["0$r"]))
    }

    func testDecrqssKeepingTheDirectColourAnswers() {
        XCTAssertEqual(TruecolorQuery.evidence(inDeviceControlReplies: ["1$r0;48:2::1:2:3m"]),
                       "DECRQSS: the terminal keeps a direct colour")
        XCTAssertEqual(TruecolorQuery.evidence(inDeviceControlReplies: ["1$r48:2:0:1:2:3m"]),
                       "DECRQSS: the terminal keeps a direct colour")
        XCTAssertEqual(TruecolorQuery.evidence(inDeviceControlReplies: ["1$r0;48;2;1;2;3m"]),
                       "DECRQSS: the terminal keeps a direct colour")
    }

    func testRepliesDecodedFromBytesAreDeviceControlReplies() {
        var decoder = InputDecoder()
        let events = decoder.feed(Array("\u{1B}P1+r524742=382F382F38\u{1B}\\\u{1B}[?62;4;22c".utf8))
        let bodies = events.compactMap { event -> String? in
            if case .deviceControlReply(let body) = event { return body }
            return nil
        }
        XCTAssertEqual(TruecolorQuery.evidence(inDeviceControlReplies: bodies), "the terminal answers XTGETTCAP RGB")
    }
}
