import BrowserCore
import TestSupport
import XCTest

final class ConfigTests: XCTestCase {
    func testDocumentedDefaultConfigParsesToTheDefaults() throws {
        let path = Fixtures.packageRoot.appendingPathComponent("Resources/config.toml").path
        let config = try BrowserConfig.load(path: path)
        XCTAssertEqual(config.warnings, [])
        let defaults = BrowserConfig()
        XCTAssertEqual(config.graphicsMode, defaults.graphicsMode)
        XCTAssertEqual(config.badgeCorner, defaults.badgeCorner)
        XCTAssertEqual(config.badgeStyle, defaults.badgeStyle)
        XCTAssertEqual(config.zoom, defaults.zoom)
        XCTAssertEqual(config.keymap.bindings, defaults.keymap.bindings, "the documented keys are the defaults")
    }

    func testValuesAndWarnings() throws {
        let config = try BrowserConfig(parsing: """
        [badge]
        corner = "bottom-right"
        style = "overlay"
        colour = "red"
        [graphics]
        mode = "symbols"
        [keys]
        quit = "x Ctrl-q"
        teleport = "t"
        """)
        XCTAssertEqual(config.badgeCorner, .bottomRight)
        XCTAssertEqual(config.badgeStyle, .overlay)
        XCTAssertEqual(config.graphicsMode, .symbols)
        XCTAssertEqual(config.keymap.bindings[.character("x")], .quit)
        XCTAssertNil(config.keymap.bindings[.character("q")])
        XCTAssertEqual(config.warnings.count, 2)
        XCTAssertTrue(config.warnings[0].contains("line 4"), config.warnings[0])
    }

    func testBadValuesThrowWithLine() {
        for (text, line) in [("[badge]\ncorner = \"middle\"", 2), ("[grid]\nzoom = 40", 2), ("[keys]\nquit = \"Hyper-q\"", 2),
                             ("[mouse]\nenabled = 1", 2)] {
            XCTAssertThrowsError(try BrowserConfig(parsing: text), text) { error in
                XCTAssertEqual((error as? TOMLError)?.line, line, text)
            }
        }
    }

    func testPathFollowsXDG() {
        XCTAssertEqual(BrowserConfig.defaultPath(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]),
                       "/x/livegrid/config.toml")
        XCTAssertEqual(BrowserConfig.defaultPath(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]),
                       "/h/.config/livegrid/config.toml")
        XCTAssertNil(BrowserConfig.defaultPath(environment: [:]))
    }

    func testMissingFileIsTheDefault() throws {
        XCTAssertEqual(try BrowserConfig.load(path: "/nonexistent/livegrid.toml").zoom, GridLayout.defaultZoom)
    }
}
