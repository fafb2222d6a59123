import Foundation
import XCTest

/// Keys typed while livegrid starts: the start-up probe reads the tty before curses does, so what it decodes
/// that is not a reply must reach the browser (it used to be dropped).
final class TypeAheadEndToEndTests: XCTestCase {
    func testKeysTypedDuringTheStartUpProbeAreActedOn() throws {
        let fixture = try BrowserFixture.make()
        defer { fixture.remove() }
        let count = fixture.names.count
        XCTAssertGreaterThanOrEqual(count, 3, "the fixture has at least three items")
        // `--graphics sixel` inside tmux always probes (through passthrough, which this tmux server leaves off:
        // no reply comes, so the probe reads the tty for its whole deadline, the keys below included).
        let session = try TmuxSession(command: fixture.command("--graphics sixel"))
        try session.send("l", "l")
        try session.waitFor("the selection on item 3 from the keys typed at launch") { screen in
            screen.first?.contains("\(count) items") == true && screen.contains { $0.contains(" 3/\(count) ") }
        }
    }
}
