import Foundation
import TestSupport
import XCTest

/// Issue 31, "keys typed in one burst after `/` or `f` run as grid commands": a paste, an ssh packet or fast
/// typing delivers several keys in one read. Each key belongs to what the key before it opened: `/IMG_02` in one
/// burst is typed into the search prompt (it inverted and set all marks, jumped to the end and rated a video with
/// a sidecar written), and `f4` picks "rating ≥ 4" in the filter menu (it rated the photo 4 stars). tmux
/// `send-keys` with several keys in ONE call writes them to the pane at once.
final class BurstKeysEndToEndTests: XCTestCase {
    private var fixture: BrowserFixture!
    private var session: TmuxSession!

    override func setUpWithError() throws {
        fixture = try BrowserFixture.make()
        session = try TmuxSession(command: fixture.command(), columns: 160)
        let count = fixture.names.count
        try session.waitFor("the grid with \(count) items", timeout: 30) { screen in
            screen.first?.contains("\(count) items") == true && screen.contains { $0.contains(" 1/\(count) ") }
        }
    }

    override func tearDown() {
        session = nil
        fixture?.remove()
        super.tearDown()
    }

    private var sidecars: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: fixture.directory.path)) ?? []).filter { $0.hasSuffix(".xmp") }
    }

    /// All `keys` in one `send-keys`: one write to the pane.
    private func burst(_ keys: String...) throws {
        try session.run(["send-keys", "-t", session.name] + keys, capture: false)
    }

    func testASearchTypedInOneBurstGoesIntoThePrompt() throws {
        try burst("/", "I", "M", "G", "_", "0", "2")
        let screen = try session.waitFor("the search prompt holding IMG_02") { screen in
            screen.first?.contains("/IMG_02▏") == true
        }
        let text = screen.joined(separator: "\n")
        XCTAssertFalse(text.contains("✓"), "no item marked (I inverted the marks, M marked all):\n\(text)")
        XCTAssertFalse(text.contains("marked"), "no marks reported:\n\(text)")
        XCTAssertFalse(text.contains("rated"), "no rating reported:\n\(text)")
        // The prompt is still open: Escape cancels it, and the grid is back with nothing changed on disk.
        try session.send("Escape")
        try session.waitFor("the prompt closed") { $0.first?.contains("/IMG_02") == false }
        XCTAssertEqual(sidecars, [], "no rating sidecar written")
    }

    /// Any prompt, not only search: the date typed after `D` in the same burst is the date (`2`, `0`, `4` rated).
    func testADateTypedInOneBurstAfterDGoesIntoTheDatePrompt() throws {
        try burst("D", "2", "0", "2", "4", "-", "0", "1")
        let screen = try session.waitFor("the date prompt holding 2024-01") { screen in
            screen.first?.contains("jump to date (2023-07-14): 2024-01▏") == true
        }
        XCTAssertFalse(screen.joined(separator: "\n").contains("rated"), "nothing rated:\n\(screen.joined(separator: "\n"))")
        try session.send("Escape")
        try session.waitFor("the prompt closed") { $0.first?.contains("jump to date") == false }
        XCTAssertEqual(sidecars, [], "no rating sidecar written")
    }

    /// The other way round: Esc closes the prompt, and the key after it in the same burst is a grid key again.
    func testEscapeAndAKeyInOneBurstCloseThePromptThenMove() throws {
        try burst("/", "x")
        try session.waitFor("the search prompt holding x") { $0.first?.contains("/x▏") == true }
        try burst("Escape", "l")
        let count = fixture.names.count
        let screen = try session.waitFor("the prompt closed and the selection on item 2") { screen in
            screen.first?.contains("/x") == false && screen.contains { $0.contains(" 2/\(count) ") }
        }
        XCTAssertFalse(screen.first?.contains("/xl") ?? true, "l was not typed into the prompt")
    }

    func testFThenFourInOneBurstFiltersInsteadOfRating() throws {
        try burst("f", "4")
        try session.waitFor("the rating filter applied") { screen in
            screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.contains("filter: ★≥4") == true
        }
        let text = try session.screen().joined(separator: "\n")
        XCTAssertFalse(text.contains("rated"), "nothing rated:\n\(text)")
        XCTAssertEqual(sidecars, [], "no rating sidecar written")
    }
}
