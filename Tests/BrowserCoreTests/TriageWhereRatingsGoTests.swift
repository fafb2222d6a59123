import Foundation
import LibraryCore
import XCTest
@testable import BrowserCore
import LibraryCore
import LivePairing
import MediaFormats
import TerminalProtocol

/// Issue 31.4-5 in the state machine: a remote item's rating goes to the index under its URL and is undone
/// there; the status bar says once where ratings go; auto-advance moves on after a rating.
final class TriageWhereRatingsGoTests: XCTestCase {
    private let base = URL(string: "http://127.0.0.1:8080/my%20photos/")!
    private let keymap = Keymap()

    private func remoteState() -> BrowserState {
        var state = BrowserState(rootPath: "", terminal: TerminalSize(columns: 120, rows: 40))
        state.beginRemote(libraryURL: URL(string: "http://user:secret@127.0.0.1:8080/my%20photos/")!)
        state.remote?.url = base
        state.reduce(.scanStarted)
        return state
    }

    private func remoteItem(_ name: String) -> RemoteItem {
        let file = MediaFile(path: name, size: 1000, modificationTime: 0, info: MediaInfo(format: .jpeg))
        return RemoteItem(item: LibraryItem(kind: .still, still: file), isPlaceholder: false,
                          stillURL: base.appendingPathComponent(name), movieURL: nil)
    }

    @discardableResult
    private func press(_ key: Character, in state: inout BrowserState) -> [BrowserEffect] {
        guard let action = keymap.action(for: .character(key), in: state) else { return [] }
        return state.reduce(action)
    }

    func testARemoteRatingIsWrittenUnderItsURLLoadedAfterTheListingAndUndoneThere() throws {
        var state = remoteState()
        let a = remoteItem("A 1.JPG")
        let effects = state.reduce(.remote(.event(directory: base, .listed(items: [a], subdirectories: [], rejected: []))))
        let subject = RemoteTriageSubject(itemID: "A 1.JPG", location: "http://127.0.0.1:8080/my photos/A 1.JPG",
                                                file: a.item.primary, displayName: "A 1.JPG")
        XCTAssertEqual(effects, [.triage(.loadRemoteStates([subject]))], "no password, decoded, as scan names it")
        state.reduce(.select(index: 0))
        XCTAssertEqual(press("4", in: &state), [.triage(.writeRemoteState(TriageState(rating: 4), subject))])
        XCTAssertEqual(state.triage.captionMarks(for: "A 1.JPG"), "★★★★")
        XCTAssertEqual(state.message, "rated A 1.JPG ★★★★ · ratings are kept in livegrid's index: livegrid never writes to a remote library",
                       "said with the first remote rating")
        press("3", in: &state)
        XCTAssertEqual(state.message, "rated A 1.JPG ★★★", "once")
        state.reduce(.triage(.result(.keptInIndex(reason: TriageIndexReason.remote))))
        XCTAssertEqual(state.message, "rated A 1.JPG ★★★", "the result does not say it again")
        XCTAssertEqual(press("u", in: &state), [.triage(.writeRemoteState(TriageState(rating: 4), subject))])
        XCTAssertEqual(press("u", in: &state), [.triage(.writeRemoteState(.unrated, subject))])
    }

    func testTheStatusBarSaysOnceWhereRatingsGo() {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        state.message = "rated A.JPG ★"
        state.reduce(.triage(.result(.keptInIndex(reason: TriageIndexReason.readOnly))))
        XCTAssertEqual(state.message, "rated A.JPG ★ · ratings are kept in livegrid's index: this folder is read-only")
        state.message = "rated A.JPG ★★"
        state.reduce(.triage(.result(.keptInIndex(reason: TriageIndexReason.readOnly))))
        XCTAssertEqual(state.message, "rated A.JPG ★★", "said once")
    }

    func testAutoAdvanceMovesOnAfterARatingAPickAndARejectOnly() {
        let items = [TestItems.still("A.JPG"), TestItems.still("B.JPG"), TestItems.still("C.JPG"), TestItems.still("D.JPG")]
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: items, warnings: [])))
        press("3", in: &state)
        XCTAssertEqual(state.selection, 0, "off by default")
        state.triage.autoAdvance = true
        XCTAssertEqual(press("3", in: &state), [], "A is already ★★★: nothing written, but the cursor moves on")
        XCTAssertEqual(state.selection, 1)
        XCTAssertEqual(press("p", in: &state), [.triage(.writeState(TriageState(flag: .pick), items[1]))])
        XCTAssertEqual(state.selection, 2)
        press("x", in: &state)
        XCTAssertEqual(state.selection, 3)
        press("5", in: &state)
        XCTAssertEqual(state.selection, 3, "the last item stays selected")
        XCTAssertEqual(state.triage.state(of: items[3].id).rating, 5)
    }

    func testAutoAdvanceIsReadFromTheConfig() throws {
        XCTAssertTrue(try BrowserConfig(parsing: "[triage]\nauto_advance = true\n").autoAdvance)
        XCTAssertFalse(try BrowserConfig(parsing: "").autoAdvance)
        XCTAssertThrowsError(try BrowserConfig(parsing: "[triage]\nauto_advance = \"yes\"\n"))
    }
}
