import BrowserCore
import Library
import LivePairing
import XCTest

/// Issue 15.7: `livegrid PHOTO.jpg` selects the photo once the scan lists it; a failed scan says why
/// instead of leaving "No photos or videos".
final class BrowserPathSelectionTests: XCTestCase {
    private func scanned(_ items: [LibraryItem], selecting path: String?) -> BrowserState {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 60, rows: 12))
        state.pendingSelection = path
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: items, warnings: [])))
        return state
    }

    func testTheNamedFileIsSelectedAndScrolledIntoView() {
        var items = TestItems.stills(60)
        items.append(TestItems.live("ZZ_LIVE"))
        let still = scanned(items, selecting: "/photos/IMG_1042.JPG")
        XCTAssertEqual(still.selectedItem?.displayName, "IMG_1042.JPG")
        XCTAssertGreaterThan(still.scrollRow, 0, "a photo far down the grid is scrolled to")
        XCTAssertNil(still.pendingSelection, "only the first scan selects")

        let movie = scanned(items, selecting: "/photos/ZZ_LIVE.MOV")
        XCTAssertEqual(movie.selectedItem?.displayName, "ZZ_LIVE.HEIC", "a pair's movie selects its item")
        XCTAssertEqual(scanned(items, selecting: "/photos/gone.jpg").selection, 0)
    }

    func testAFailedScanKeepsItsReasonUntilAScanSucceeds() {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 60, rows: 12))
        state.reduce(.scanStarted)
        state.reduce(.scanFailed("cannot read the folder /photos: Permission denied"))
        XCTAssertEqual(state.scanError, "cannot read the folder /photos: Permission denied")
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: TestItems.stills(2), warnings: [])))
        XCTAssertNil(state.scanError)
    }
}
