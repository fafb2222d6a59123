import BrowserCore
import LibraryCore
import LibraryCore
import LivePairing
import MediaFormats
import TerminalProtocol
import XCTest

/// Issue 31.2: a local folder shows its subfolders as cells; Enter goes in, Backspace (and Esc, and Left or
/// `h` on the first cell) come back with the cursor on the folder left; `F` toggles `-r`; Backspace at the
/// top goes to the parent, which becomes the top.
final class LocalFolderNavigationTests: XCTestCase {
    private let size = TerminalSize(columns: 100, rows: 30)

    private func photo(_ path: String) -> LibraryItem {
        var info = MediaInfo(format: .jpeg)
        info.pixelWidth = 400
        info.pixelHeight = 300
        return LibraryItem(kind: .still, still: MediaFile(path: path, size: 1000, modificationTime: 0, info: info))
    }

    private func scan(_ root: String, photos: [String], folders: [String] = [], recursive: Bool = false) -> LibraryScan {
        var scan = LibraryScan(root: root, items: photos.map { photo(root + "/" + $0) }, warnings: [])
        scan.folders = folders.map { root + "/" + $0 }
        scan.recursive = recursive
        return scan
    }

    /// /lib with a.jpg, b.jpg and the folders 2023 and 2024.
    private func opened() -> BrowserState {
        var state = BrowserState(rootPath: "/lib", terminal: size)
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(scan("/lib", photos: ["a.jpg", "b.jpg"], folders: ["2023", "2024"])))
        return state
    }

    func testSubfoldersAreCellsBeforeThePhotos() {
        let state = opened()
        XCTAssertEqual(state.items.map(\.displayName), ["2023", "2024", "a.jpg", "b.jpg"])
        XCTAssertEqual(state.items.map(\.isFolderEntry), [true, true, false, false])
        XCTAssertEqual(state.folderCellCount, 2)
        XCTAssertEqual(state.breadcrumb, "/lib")
    }

    func testEnterGoesInAndBackspaceComesBackToTheFolderLeft() {
        var state = opened()
        state.reduce(.move(.right))
        XCTAssertEqual(state.reduce(.openViewer), [.startScan], "Enter on a folder scans it")
        XCTAssertEqual(state.mode, .grid, "a folder is never opened in the viewer")
        XCTAssertEqual(state.folders.current, "/lib/2024")
        XCTAssertTrue(state.items.isEmpty, "the grid empties until the folder's scan arrives")
        XCTAssertEqual(state.breadcrumb, "/lib › 2024")
        state.reduce(.scanStarted)
        // A late result of the folder left is not this view's.
        state.reduce(.scanFinished(scan("/lib", photos: ["a.jpg"], folders: ["2023", "2024"])))
        XCTAssertTrue(state.isScanning)
        XCTAssertTrue(state.items.isEmpty)
        state.reduce(.scanFinished(scan("/lib/2024", photos: ["c.jpg"])))
        XCTAssertEqual(state.items.map(\.displayName), ["c.jpg"])

        let keymap = Keymap()
        guard case .view(.parentFolder)? = keymap.action(for: .backspace, in: state) else {
            return XCTFail("Backspace in a local grid goes to the parent folder")
        }
        XCTAssertEqual(state.reduce(.view(.parentFolder)), [.startScan])
        XCTAssertEqual(state.folders.current, "/lib")
        XCTAssertEqual(state.breadcrumb, "/lib")
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(scan("/lib", photos: ["a.jpg", "b.jpg"], folders: ["2023", "2024"])))
        XCTAssertEqual(state.selectedItem?.displayName, "2024", "the cursor is on the folder just left")
    }

    func testEscAndLeftOnTheFirstCellGoUpButNeverAboveTheTop() {
        var state = opened()
        state.reduce(.openViewer)   // 2023
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(scan("/lib/2023", photos: ["x.jpg", "y.jpg"], folders: ["trip"])))
        state.reduce(.openViewer)   // trip
        XCTAssertEqual(state.folders.current, "/lib/2023/trip")
        XCTAssertEqual(state.breadcrumb, "/lib › 2023 › trip")
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(scan("/lib/2023/trip", photos: ["t.jpg"])))
        XCTAssertEqual(state.reduce(.move(.left)), [.startScan], "Left on the first cell goes up")
        XCTAssertEqual(state.folders.current, "/lib/2023")
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(scan("/lib/2023", photos: ["x.jpg", "y.jpg"], folders: ["trip"])))
        XCTAssertEqual(state.selectedItem?.displayName, "trip")
        state.reduce(.move(.right))
        XCTAssertEqual(state.reduce(.move(.left)), [], "Left elsewhere only moves")
        XCTAssertEqual(state.reduce(.back), [.startScan], "Esc in the grid goes up too")
        XCTAssertEqual(state.folders.current, "/lib")
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(scan("/lib", photos: ["a.jpg"], folders: ["2023", "2024"])))
        state.reduce(.first)
        XCTAssertEqual(state.reduce(.move(.left)), [], "Left at the top never goes above it")
        XCTAssertEqual(state.reduce(.back), [], "nor does Esc")
        XCTAssertEqual(state.folders.current, "/lib")
    }

    func testBackspaceAtTheTopGoesToTheParentWhichBecomesTheTop() {
        var state = opened()
        XCTAssertEqual(state.reduce(.view(.parentFolder)), [.startScan])
        XCTAssertEqual(state.folders.current, "/")
        XCTAssertEqual(state.folders.top, "/", "the breadcrumb starts at the new top")
        XCTAssertEqual(state.breadcrumb, "/")
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(scan("/", photos: [], folders: ["etc", "lib"]).withRoot("/")))
        XCTAssertEqual(state.selectedItem?.displayName, "lib")
        XCTAssertEqual(state.reduce(.view(.parentFolder)), [], "/ has no parent")
        XCTAssertEqual(state.message, "/ has no parent folder")

        var relative = BrowserState(rootPath: ".", terminal: size)
        relative.reduce(.view(.parentFolder))
        XCTAssertEqual(relative.folders.current, "..")
        var nested = BrowserState(rootPath: "photos/2024", terminal: size)
        nested.reduce(.view(.parentFolder))
        XCTAssertEqual(nested.folders.current, "photos")
    }

    func testTheRecursiveToggleRescansWithEveryPhotoBelowAndBack() {
        var state = opened()
        state.reduce(.move(.right))
        state.reduce(.move(.right))   // a.jpg
        guard case .view(.toggleRecursive)? = Keymap().action(for: .character("F"), in: state) else {
            return XCTFail("F toggles -r")
        }
        XCTAssertEqual(state.reduce(.view(.toggleRecursive)), [.startScan])
        XCTAssertTrue(state.folders.recursive)
        XCTAssertEqual(state.breadcrumb, "/lib (-r)")
        state.reduce(.scanStarted)
        // The folder's own scan (without -r) still running is not this view's.
        state.reduce(.scanFinished(scan("/lib", photos: ["a.jpg", "b.jpg"], folders: ["2023", "2024"])))
        XCTAssertTrue(state.items.isEmpty)
        state.reduce(.scanFinished(scan("/lib", photos: ["2023/x.jpg", "2024/c.jpg", "a.jpg", "b.jpg"], recursive: true)))
        XCTAssertEqual(state.items.count, 4, "every photo below, no folder cells")
        XCTAssertEqual(state.folderCellCount, 0)
        XCTAssertEqual(state.selectedItem?.displayName, "a.jpg", "the photo selected stays selected")
        state.reduce(.view(.toggleRecursive))
        XCTAssertFalse(state.folders.recursive)
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(scan("/lib", photos: ["a.jpg", "b.jpg"], folders: ["2023", "2024"])))
        XCTAssertEqual(state.folderCellCount, 2)
        XCTAssertEqual(state.selectedItem?.displayName, "a.jpg")
    }

    func testAFolderOfOnlySubfoldersShowsThem() {
        var state = BrowserState(rootPath: "/lib", terminal: size)
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(scan("/lib", photos: [], folders: ["a", "b"])))
        XCTAssertEqual(state.items.map(\.displayName), ["a", "b"])
        XCTAssertNotNil(state.selectedItem)
    }

    func testFileKeysDoNothingToAFolderAndFoldersNeverStayMarked() {
        var state = opened()
        XCTAssertEqual(state.reduce(.triage(.trash)), [])
        XCTAssertNil(state.triage.prompt, "no prompt to trash a folder")
        XCTAssertTrue(state.message?.contains("is a folder") == true, state.message ?? "")
        XCTAssertEqual(state.reduce(.triage(.rate(3))), [], "no sidecar for a folder")
        state.reduce(.triage(.markAll))
        XCTAssertEqual(state.triage.marks.count, 2, "the two photos only")
        state.reduce(.playPressed)
        XCTAssertFalse(state.isPlayPressed)
    }

    func testTheViewerStepsOverFolderCellsAndSortingKeepsThemFirst() {
        var state = opened()
        state.reduce(.select(index: 2))
        state.reduce(.openViewer)
        XCTAssertEqual(state.mode, .viewer)
        state.reduce(.move(.left))
        XCTAssertEqual(state.selectedItem?.displayName, "a.jpg", "no folder in the viewer")
        XCTAssertEqual(state.mode, .viewer)
        state.reduce(.back)
        state.reduce(.view(.setSort(.size)))
        state.reduce(.view(.setGrouping(.folder)))
        XCTAssertEqual(Array(state.items.prefix(2)).map(\.isFolderEntry), [true, true])
        XCTAssertEqual(state.sections.first?.title, "Folders · 2")
        XCTAssertEqual(state.sections.first?.range, 0..<2)
    }

    func testAHostileFolderNameIsEscapedInTheBreadcrumb() {
        var state = BrowserState(rootPath: "/lib", terminal: size)
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(scan("/lib", photos: [], folders: ["\u{1B}[2J"])))
        state.reduce(.openViewer)
        XCTAssertEqual(state.breadcrumb, "/lib › \\e[2J")
        XCTAssertFalse(state.breadcrumb.unicodeScalars.contains { $0.value == 0x1B })
    }

    func testAPhotoPathOpensTheViewerAndEscShowsItsFolder() {
        var state = BrowserState(rootPath: "/lib", terminal: size)
        state.pendingSelection = "/lib/b.jpg"
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(scan("/lib", photos: ["a.jpg", "b.jpg"], folders: ["2023"])))
        XCTAssertEqual(state.mode, .viewer)
        XCTAssertEqual(state.selectedItem?.displayName, "b.jpg")
        state.reduce(.back)
        XCTAssertEqual(state.mode, .grid)
        XCTAssertEqual(state.selectedItem?.displayName, "b.jpg")
    }

    func testHelpListsTheToggleAndTheConfigCanRebindIt() throws {
        XCTAssertTrue(HelpScreen.lines(keymap: Keymap()).contains { $0.hasPrefix("All below (-r)") && $0.hasSuffix("F") })
        let config = try BrowserConfig(parsing: "[keys]\nrecursive = \"R\"\n")
        XCTAssertEqual(config.keymap.keys(for: .recursive), [.character("R")])
    }
}

private extension LibraryScan {
    func withRoot(_ root: String) -> LibraryScan {
        var scan = self
        scan.root = root
        scan.items = []
        scan.folders = scan.folders.map { "/" + ($0 as NSString).lastPathComponent }
        return scan
    }
}
