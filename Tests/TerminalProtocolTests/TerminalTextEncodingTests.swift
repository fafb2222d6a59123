import TerminalProtocol
import XCTest

/// Issue 31.6: which locales get ASCII only, and the sentence that says so.
final class TerminalTextEncodingTests: XCTestCase {
    func testTheCAndPosixLocalesAndNoLocaleAreAsciiOnly() {
        for environment in [["LANG": "C"], ["LANG": "POSIX"], [:], ["LC_ALL": "C", "LANG": "C.UTF-8"],
                            ["LC_CTYPE": "POSIX", "LANG": "C.UTF-8"]] {
            XCTAssertTrue(TerminalTextEncoding.detect(environment: environment).asciiOnly, "\(environment)")
        }
    }

    func testUTF8LocalesAreNot() {
        for environment in [["LANG": "C.UTF-8"], ["LC_ALL": "C.UTF-8", "LANG": "C"], ["LC_CTYPE": "C.UTF-8"],
                            ["LC_ALL": "", "LANG": "C.UTF-8"]] {
            XCTAssertFalse(TerminalTextEncoding.detect(environment: environment).asciiOnly, "\(environment)")
        }
    }

    func testTheNoticeNamesTheVariableThatChoseTheLocale() {
        XCTAssertEqual(TerminalTextEncoding.detect(environment: ["LANG": "C"]).notice,
                       "ASCII only: the locale is not UTF-8 (LANG=C); set LANG=C.UTF-8 for pictures in block symbols")
        XCTAssertEqual(TerminalTextEncoding.detect(environment: [:]).notice,
                       "ASCII only: the locale is not UTF-8 (LANG unset); set LANG=C.UTF-8 for pictures in block symbols")
        XCTAssertEqual(TerminalTextEncoding.source(environment: ["LC_ALL": "POSIX", "LANG": "C.UTF-8"]), "LC_ALL=POSIX")
        XCTAssertNil(TerminalTextEncoding.detect(environment: ["LANG": "C.UTF-8"]).notice)
    }

    func testAMissingLocaleIsNotUTF8() {
        let missing = TerminalTextEncoding.detect(environment: ["LANG": "xx_NOWHERE.ISO-8859-1"])
        XCTAssertTrue(missing.asciiOnly)
        XCTAssertEqual(missing.notice?.contains("the locale is not installed (LANG=xx_NOWHERE.ISO-8859-1)"), true)
    }

    func testTheBadgeAndBoxSymbolsHaveAsciiStandIns() {
        XCTAssertEqual(TerminalTextEncoding.asciiStandIn(for: "\u{25CE}"), "@")
        XCTAssertEqual(TerminalTextEncoding.asciiStandIn(for: "\u{2500}"), "-")
        XCTAssertEqual(TerminalTextEncoding.asciiStandIn(for: "\u{2502}"), "|")
        XCTAssertEqual(TerminalTextEncoding.asciiStandIn(for: "\u{250C}"), "+")
        XCTAssertNil(TerminalTextEncoding.asciiStandIn(for: "\u{4E00}"))
    }
}
