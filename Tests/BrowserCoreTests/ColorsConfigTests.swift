import BrowserCore
import GraphicsSettings
import XCTest

/// `[graphics] colors`: the same words as `--colors` (one `ColorDepth` vocabulary), "auto" = decide.
final class ColorsConfigTests: XCTestCase {
    func testColorsTakeTheFlagsWords() throws {
        XCTAssertNil(BrowserConfig().colors, "auto by default")
        for (word, depth) in [("full", ColorDepth.truecolor), ("24bit", .truecolor), ("256", .indexed256),
                              ("16", .indexed16), ("8", .indexed8)] {
            XCTAssertEqual(try BrowserConfig(parsing: "[graphics]\ncolors = \"\(word)\"").colors, depth, word)
        }
        XCTAssertNil(try BrowserConfig(parsing: "[graphics]\ncolors = \"auto\"").colors)
    }

    func testBadColorsThrowWithTheLineAndTheChoices() {
        XCTAssertThrowsError(try BrowserConfig(parsing: "[graphics]\n\ncolors = \"lots\"")) { error in
            XCTAssertEqual((error as? TOMLError)?.line, 3)
            XCTAssertTrue("\(error)".contains("auto, full, 256, 16 or 8"), "\(error)")
        }
        XCTAssertThrowsError(try BrowserConfig(parsing: "[graphics]\ncolors = 256"))
    }
}
