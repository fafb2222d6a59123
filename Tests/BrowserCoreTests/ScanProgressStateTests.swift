import BrowserCore
import LibraryCore
import LibraryCore
import LivePairing
import XCTest

/// Issue 17: the first screen's items arrive before the scan ends; the rest settles without moving the
/// selected item, a probable pair split later keeps its still selected, and a late report never undoes a
/// finished scan.
final class ScanProgressStateTests: XCTestCase {
    private func progress(_ items: [LibraryItem], listed: Int) -> BrowserAction {
        .scanProgress(LibraryScanProgress(scan: LibraryScan(root: "/photos", items: items, warnings: []), listedFiles: listed))
    }

    func testFirstScreenShowsWhileScanningAndTheSelectionSurvivesTheFinalScan() {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        state.reduce(.scanStarted)
        let first = TestItems.stills(6)
        state.reduce(progress(first, listed: 20))
        XCTAssertTrue(state.isScanning)
        XCTAssertEqual(state.scanListedFiles, 20)
        XCTAssertEqual(state.items.count, 6)
        state.reduce(.move(.right))
        state.reduce(.move(.right))
        let selected = state.selectedItem?.id
        // The final scan: an item the first screen did not know sorts before the selection.
        var all = TestItems.stills(20)
        all.insert(TestItems.still("IMG_0000a.JPG"), at: 1)
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: all, warnings: [])))
        XCTAssertFalse(state.isScanning)
        XCTAssertNil(state.scanListedFiles)
        XCTAssertEqual(state.selectedItem?.id, selected, "the selected item stays selected")
    }

    func testProbablePairSplitLaterKeepsItsStillSelected() {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        state.reduce(.scanStarted)
        var probable = TestItems.live("IMG_0002")
        probable.pairing = .probableByName
        state.reduce(progress([TestItems.still("IMG_0001.JPG"), probable], listed: 4))
        state.reduce(.move(.right))
        XCTAssertEqual(state.selectedItem?.id, "/photos/IMG_0002.HEIC")
        // The movie turned out to belong elsewhere: still and movie become two items.
        let split = [TestItems.still("IMG_0001.JPG"), TestItems.still("IMG_0002.HEIC"), TestItems.video("IMG_0002.MOV")]
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: split, warnings: [])))
        XCTAssertEqual(state.selectedItem?.id, "/photos/IMG_0002.HEIC")
        XCTAssertEqual(state.selection, 1)
    }

    func testLateReportAfterTheScanEndedIsIgnored() {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: TestItems.stills(10), warnings: [])))
        state.reduce(progress(TestItems.stills(2), listed: 10))
        XCTAssertEqual(state.items.count, 10)
        XCTAssertNil(state.scanListedFiles)
    }
}

extension ScanProgressStateTests {
    func testFileToSelectBeyondTheFirstScreenIsSelectedWhenTheScanEnds() {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        state.pendingSelection = "/photos/IMG_1015.JPG"
        state.reduce(.scanStarted)
        state.reduce(progress(TestItems.stills(4), listed: 20))
        XCTAssertEqual(state.selection, 0)
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: TestItems.stills(20), warnings: [])))
        XCTAssertEqual(state.selectedItem?.id, "/photos/IMG_1015.JPG")
    }
}

extension ScanProgressStateTests {
    func testRescanKeepsTheFullGridUntilItsResult() {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: TestItems.stills(30), warnings: [])))
        for _ in 0..<25 { state.reduce(.move(.right)) }
        let selected = state.selectedItem?.id
        state.reduce(.scanStarted)
        state.reduce(progress(TestItems.stills(4), listed: 30))
        XCTAssertEqual(state.items.count, 30, "the rescan's first screen does not shrink the grid")
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: TestItems.stills(30), warnings: [])))
        XCTAssertEqual(state.selectedItem?.id, selected)
    }
}

extension ScanProgressStateTests {
    /// A known library: the first screen, then the whole view from the index (a second report of the same scan)
    /// replaces it with the selection kept; the header says the scan is checking; the final scan clears it.
    func testWholeViewFromTheIndexReplacesTheFirstScreenAndARescanIgnoresIt() {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        state.reduce(.scanStarted)
        state.reduce(progress(TestItems.stills(6), listed: 30))
        state.reduce(.move(.right))
        let selected = state.selectedItem?.id
        let whole = TestItems.stills(30)
        state.reduce(.scanProgress(LibraryScanProgress(scan: LibraryScan(root: "/photos", items: whole, warnings: []),
                                                       listedFiles: 30, fromIndex: true)))
        XCTAssertEqual(state.items.count, 30)
        XCTAssertTrue(state.showsIndexedView)
        XCTAssertTrue(state.isScanning)
        XCTAssertEqual(state.selectedItem?.id, selected)
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: whole, warnings: [])))
        XCTAssertFalse(state.showsIndexedView)
        XCTAssertFalse(state.showsPartialScan)

        // A rescan (`r`) keeps its full grid: no report of it replaces it, not even one from the index.
        state.reduce(.scanStarted)
        state.reduce(.scanProgress(LibraryScanProgress(scan: LibraryScan(root: "/photos", items: TestItems.stills(3), warnings: []),
                                                       listedFiles: 3, fromIndex: true)))
        XCTAssertEqual(state.items.count, 30)
        XCTAssertFalse(state.showsIndexedView)
    }
}
