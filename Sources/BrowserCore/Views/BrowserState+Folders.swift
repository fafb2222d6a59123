import LibraryCore
import LivePairing
import MediaFormats

/// Where a local browser is in the folder tree (issue 31.2): the folder shown, the folder the breadcrumb
/// starts from, and `-r`.
public struct LocalFolderNavigation: Sendable {
    /// The folder livegrid was opened on (or the parent Backspace went to from there): the breadcrumb starts
    /// here, and Esc, Left and `h` never go above it.
    public var top: String
    /// The folder shown, as the scanner spells paths (`top` + "/" + names).
    public var current: String
    /// Every photo below `current` (`-r`, or the toggle key), no folder cells.
    public var recursive: Bool
    /// The item to select once the scan of `current` arrives (the folder just left, after going up).
    var selectAfterScan: ItemID?
    /// The scan the view waits for since the user moved (folder and `-r`): results of an earlier scan still
    /// running are dropped. nil before any move: every result is taken, as before folders existed.
    var awaited: AwaitedScan?

    struct AwaitedScan: Sendable, Equatable {
        var root: String
        var recursive: Bool
    }

    public init(top: String, recursive: Bool = false) {
        self.top = top
        self.current = top
        self.recursive = recursive
    }

    /// Whether `scan` is the view's (see `awaited`).
    func accepts(_ scan: LibraryScan) -> Bool {
        guard let awaited else { return true }
        return awaited == AwaitedScan(root: scan.root, recursive: scan.recursive)
    }

    /// `current` below `top`, one name per level (empty at the top).
    public var levels: [String] {
        guard current != top else { return [] }
        let prefix = top.hasSuffix("/") ? top : top + "/"
        guard current.hasPrefix(prefix) else { return [current] }
        return current.dropFirst(prefix.count).split(separator: "/").map(String.init)
    }

    /// The folder above `path`, as a path spelled from it ("a/b" → "a", "a" → ".", "." → "..", "/a" → "/");
    /// nil for "/". Lexical, like the shell's `cd ..`: a folder reached through a link goes back the way it came.
    static func parent(of path: String) -> String? {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        if trimmed == "/" { return nil }
        let last = trimmed.split(separator: "/").last.map(String.init) ?? ""
        if last == "." || last == ".." || last.isEmpty {
            // "." → "..", "../.." → "../../..": going up from a relative name that is already "up".
            return trimmed == "." ? ".." : trimmed + "/.."
        }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
}

extension LibraryItem {
    /// A folder cell (a local subfolder or a remote directory entry): its only file is a path ending in "/".
    public var isFolderEntry: Bool { still?.name.isEmpty == true && movie == nil }

    /// Folder cells for `paths` (a scan's `folders`): an item whose only file is `path/`, so the grid, the
    /// filter and the selection treat it like any cell; the renderer draws it as a folder.
    static func folderEntries(_ paths: [String]) -> [LibraryItem] {
        paths.map { path in
            LibraryItem(kind: .still, still: MediaFile(path: path.hasSuffix("/") ? path : path + "/", size: 0,
                                                       modificationTime: 0, info: MediaInfo(format: .unknown)))
        }
    }
}

extension BrowserState {
    /// The header's place: the top folder, then one escaped name per level below it ("photos › 2024 › trip"),
    /// and "-r" while every photo below is shown. Names are data: a control character never reaches the
    /// terminal raw (`VisibleText`).
    public var breadcrumb: String {
        guard remote == nil else { return VisibleText.escaped(rootPath) }
        let parts = [folders.top] + folders.levels
        return parts.map(VisibleText.escaped).joined(separator: " › ") + (folders.recursive ? " (-r)" : "")
    }

    /// The shown folder cells and the rest ("3 items · 2 folders" in the header).
    public var folderCellCount: Int { items.prefix(while: \.isFolderEntry).count }

    /// The items of a scan as the grid shows them: folder cells first, then the photos.
    func shownItems(of scan: LibraryScan) -> [LibraryItem] {
        guard !scan.folders.isEmpty else { return scan.items }
        return LibraryItem.folderEntries(scan.folders) + scan.items
    }

    /// After a scan of the folder entered: the folder just left is selected.
    mutating func selectAfterFolderScan(partial: Bool) {
        guard let id = folders.selectAfterScan else { return }
        let parts = LibraryItem.idParts(id)
        if let index = items.firstIndex(where: { $0.hasID(parts) }) {
            selectIndex(index)
            folders.selectAfterScan = nil
        } else if !partial {
            folders.selectAfterScan = nil
        }
    }

    // MARK: moving through folders

    /// Enter (or a click) on a local folder cell opens it; nil when the selection is not one.
    mutating func openLocalFolderIfSelected() -> [BrowserEffect]? {
        guard remote == nil, let item = selectedItem, item.isFolderEntry else { return nil }
        var path = item.id.rawValue
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return showFolder(path, selecting: nil)
    }

    /// Up one folder. Below the top it goes to the parent, selecting the folder it leaves. At the top only
    /// `aboveTop` (Backspace) goes on: the parent becomes the new top, so the breadcrumb starts there.
    mutating func openLocalParent(aboveTop: Bool) -> [BrowserEffect]? {
        guard remote == nil else { return nil }
        let atTop = folders.current == folders.top
        guard !atTop || aboveTop else { return nil }
        guard let parent = LocalFolderNavigation.parent(of: folders.current) else {
            message = "\(VisibleText.escaped(folders.current)) has no parent folder"
            return []
        }
        let leaving = folders.current + "/"
        if atTop {
            folders.top = parent
            rootPath = parent
        }
        return showFolder(parent, selecting: ItemID(leaving))
    }

    /// The toggle key: every photo below the folder (`-r`), or the folder's own photos and subfolders again.
    mutating func toggleRecursive() -> [BrowserEffect] {
        guard remote == nil else {
            message = "-r is for local folders: a remote folder shows its subfolders to open"
            return []
        }
        folders.recursive.toggle()
        let keep = selectedItem.flatMap { $0.isFolderEntry ? nil : $0.id }
        let effects = showFolder(folders.current, selecting: keep)
        message = folders.recursive ? "every photo below this folder (-r)" : "this folder's photos and subfolders"
        return effects
    }

    /// Shows `path` (with the current `-r`): the grid empties and says "Scanning…" until its scan arrives.
    private mutating func showFolder(_ path: String, selecting id: ItemID?) -> [BrowserEffect] {
        let stop = stopPlaybackIfNeeded()
        folders.current = path
        folders.selectAfterScan = id
        folders.awaited = .init(root: path, recursive: folders.recursive)
        pendingSelection = nil
        scanListedFiles = nil
        scanError = nil
        scanWarnings = []
        // The scan still running (of the folder left) is not this view's: a new one starts, and the old
        // one's result is dropped (`accepts`).
        isScanning = false
        selection = 0
        scrollRow = 0
        mode = .grid
        setFilter("")
        setItems([])
        return stop + [.startScan]
    }

    /// Left or `h` on the first cell: up one folder (local or remote), never above the top.
    mutating func parentFromLeftEdge() -> [BrowserEffect]? {
        guard mode == .grid, selection == 0 else { return nil }
        if remote != nil { return openRemoteParent() }
        return openLocalParent(aboveTop: false)
    }

    /// A file key on a folder cell acts on nothing: a folder is not a photo to rate, trash or export.
    /// Returns the message when `action` is refused.
    func refusalOnFolder(_ action: TriageAction) -> String? {
        guard !triage.isModal, !triage.actsOnMarked, let item = selectedItem, item.isFolderEntry else { return nil }
        switch action {
        case .toggleMark, .rate, .pick, .reject, .trash, .copy, .move, .export, .rotate, .markRange, .toggleLocation:
            return "\(VisibleText.escaped(item.displayName)) is a folder (Enter opens it): file keys act on photos"
        default:
            return nil
        }
    }

    /// Folder cells never stay marked (M and I mark every cell shown).
    mutating func dropFolderMarks() {
        guard !triage.marks.isEmpty else { return }
        for item in items.prefix(while: \.isFolderEntry) where triage.marks.contains(item.id) {
            triage.marks.toggle(item.id)
        }
    }

    /// The viewer shows photos only: a step onto a folder cell lands on the first photo instead.
    mutating func keepViewerOffFolders() {
        guard mode == .viewer, let item = selectedItem, item.isFolderEntry else { return }
        if let photo = items.indices.first(where: { $0 >= selection && !items[$0].isFolderEntry }) {
            selectIndex(photo)
        } else {
            mode = .grid
        }
    }
}
