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

    /// Issue 32.9: a file the user named must exist; a directory, a FIFO or a huge file is refused in one
    /// sentence (never Foundation's error dump, never a 38-second parse).
    func testANamedConfigThatIsNotAConfigFileIsRefusedInPlainWords() throws {
        let dir = try Fixtures.makeTemporaryDirectory("livegrid-config")
        defer { try? FileManager.default.removeItem(at: dir) }
        func message(_ path: String, explicit: Bool = true) -> String {
            do {
                _ = try BrowserConfig.load(path: path, explicit: explicit)
                return "loaded"
            } catch {
                return error.description
            }
        }
        XCTAssertEqual(message(dir.path + "/missing.toml"), dir.path + "/missing.toml: no such file")
        XCTAssertEqual(message(dir.path + "/missing.toml", explicit: false), "loaded", "the default path may be absent")
        XCTAssertEqual(message(dir.path), dir.path + ": is a directory, not a config file")
        let fifo = dir.path + "/fifo.toml"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertEqual(message(fifo), fifo + ": is not a regular file", "read without blocking on the FIFO")
        let huge = dir.path + "/huge.toml"
        XCTAssertTrue(FileManager.default.createFile(atPath: huge, contents: Data(repeating: 0x61, count: BrowserConfig.maximumFileSize + 1)))
        XCTAssertEqual(message(huge), huge + ": is 2 MB: a config file is at most 1 MB")
        let latin1 = dir.path + "/latin1.toml"
        XCTAssertTrue(FileManager.default.createFile(atPath: latin1, contents: Data([0x23, 0x20, 0xE9, 0x0A])))
        XCTAssertEqual(message(latin1), latin1 + ": not UTF-8 text")
    }
}
