import GraphicsSettings
import TerminalGraphics
import TerminalProtocol
import XCTest

/// One vocabulary for the graphics settings: the command line, config.toml and LIVEGRID_GRAPHICS.
final class GraphicsSettingsTests: XCTestCase {
    func testModeSettingAcceptsCanonicalWordsAndTheModeSynonyms() {
        for setting in GraphicsModeSetting.allCases {
            XCTAssertEqual(GraphicsModeSetting(userName: setting.rawValue), setting)
        }
        XCTAssertEqual(GraphicsModeSetting(userName: "sixels"), .sixel)
        XCTAssertEqual(GraphicsModeSetting(userName: "ITerm2"), .iterm)
        XCTAssertEqual(GraphicsModeSetting(userName: "block"), .symbols)
        XCTAssertNil(GraphicsModeSetting(userName: "braille"))
        XCTAssertEqual(GraphicsModeSetting.userNames, "auto, symbols, sixel, kitty, iterm, none")
    }

    func testForcedModeRoundTrips() {
        for mode in GraphicsMode.allCases { XCTAssertEqual(GraphicsModeSetting(mode).forcedMode, mode) }
        XCTAssertNil(GraphicsModeSetting.auto.forcedMode)
        XCTAssertNil(GraphicsModeSetting.none.forcedMode)
    }

    /// LIVEGRID_GRAPHICS takes the same words as the browser's --graphics (it used to take only
    /// GraphicsMode's names here and only GraphicsModeSetting's raw values in the browser).
    func testEnvironmentOverrideUsesTheSameWords() {
        var env = ["TERM": "xterm-256color", "COLORTERM": "truecolor"]
        for (word, mode) in [("sixel", GraphicsMode.sixels), ("sixels", .sixels), ("kitty", .kitty), ("symbols", .symbols)] {
            env[TerminalCapabilities.overrideVariable] = word
            XCTAssertEqual(TerminalCapabilities.detect(environment: env).graphicsMode, mode, word)
        }
        env[TerminalCapabilities.overrideVariable] = "auto"
        XCTAssertEqual(TerminalCapabilities.detect(environment: env).graphicsMode, .symbols, "auto: detection decides")
    }

    func testColorDepthSetting() {
        XCTAssertEqual(ColorDepthSetting(userName: "auto"), .auto)
        XCTAssertEqual(ColorDepthSetting(userName: "truecolor"), .depth(.truecolor))
        XCTAssertEqual(ColorDepthSetting(userName: "16")?.depth, .indexed16)
        XCTAssertNil(ColorDepthSetting(userName: "88"))
        XCTAssertNil(ColorDepthSetting.auto.depth)
    }

    func testBadgeWordsAreTheConfigWords() {
        XCTAssertEqual(BadgeCorner(rawValue: "bottom-right"), .bottomRight)
        XCTAssertEqual(LiveBadge.Style(rawValue: "overlay"), .overlay)
    }
}
