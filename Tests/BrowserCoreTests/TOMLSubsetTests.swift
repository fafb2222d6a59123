import BrowserCore
import XCTest

final class TOMLSubsetTests: XCTestCase {
    func testParsesTablesStringsIntegersBooleans() throws {
        let entries = try TOMLSubset.parse("""
        # comment
        top = 1
        [badge]
        corner = "top-right"   # trailing comment
        style = 'solid'
        [grid]
        zoom = +1_0
        flag = false
        text = "a \\"q\\" \\u00e9\\n"
        """)
        XCTAssertEqual(entries.map(\.key), ["top", "corner", "style", "zoom", "flag", "text"])
        XCTAssertEqual(entries[1].table, "badge")
        XCTAssertEqual(entries[1].value, .string("top-right"))
        XCTAssertEqual(entries[2].value, .string("solid"))
        XCTAssertEqual(entries[3].value, .integer(10))
        XCTAssertEqual(entries[4].value, .boolean(false))
        XCTAssertEqual(entries[5].value, .string("a \"q\" é\n"))
        XCTAssertEqual(entries[3].line, 7)
    }

    func testErrorsNameTheLine() {
        let cases: [(String, Int)] = [
            ("a = 1\nb = [1, 2]", 2),
            ("a = \"open", 1),
            ("\n\n[t\n", 3),
            ("a = 1\na = 2", 2),
            ("[t]\n[t]", 2),
            ("a = 1.5", 1),
            ("a = 1 b", 1),
            ("= 3", 1),
            ("a = tru", 1),
            ("a = \"\\q\"", 1),
            ("a = 99999999999999999999999", 1),
            ("a = '''x'''", 1),
            ("[[arr]]", 1),
            ("a", 1),
        ]
        for (text, line) in cases {
            XCTAssertThrowsError(try TOMLSubset.parse(text), text) { error in
                XCTAssertEqual((error as? TOMLError)?.line, line, text)
            }
        }
    }
}
