import BrowserCore
import LibraryCore
import LibraryCore
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
        state.reduce(.scanFailed(ScanFailure(LibraryScanError.unreadable("/photos", "Permission denied"))))
        XCTAssertEqual(state.scanError, .folderUnreadable(path: "/photos", reason: "Permission denied"))
        XCTAssertTrue(state.showsScanFailure, "the status bar words it (BrowserRendererTests)")
        XCTAssertNil(state.message, "no sentence in the state")
        state.reduce(.move(.right))
        XCTAssertFalse(state.showsScanFailure, "a key clears it, as it clears a message")
        XCTAssertNotNil(state.scanError, "the empty grid keeps saying why")
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: TestItems.stills(2), warnings: [])))
        XCTAssertNil(state.scanError)
    }

    func testScanFailuresAreTypedAndWordedPlainly() {
        XCTAssertEqual(ScanFailure(LibraryScanError.missing("/media/card/DCIM")), .folderMissing(path: "/media/card/DCIM"))
        XCTAssertEqual("\(ScanFailure.folderMissing(path: "/media/card/DCIM"))",
                       "the folder /media/card/DCIM does not exist (deleted or on a disk that is not mounted)")
        XCTAssertEqual(ScanFailure(LibraryScanError.notADirectory("/photos/a.jpg")), .notAFolder(path: "/photos/a.jpg"))
        XCTAssertEqual("\(ScanFailure.notAFolder(path: "/photos/a.jpg"))", "/photos/a.jpg is a file, not a folder")
        XCTAssertEqual(ScanFailure(ScanFailure.notAFolder(path: "/x")), .notAFolder(path: "/x"), "a typed failure stays as it is")
        struct Odd: Error, CustomStringConvertible { var description: String { "the index is locked" } }
        XCTAssertEqual(ScanFailure(Odd()), .unexpected("the index is locked"))
    }
}
