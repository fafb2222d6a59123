import LibraryCore
import LivePairing

/// What fills the screen.
public enum BrowserMode: String, Sendable, Hashable {
    case grid
    /// One item at full size (`Enter`).
    case viewer
    /// The key reference (`?`), drawn over the previous mode.
    case help
}

/// The whole browser, as data. `reduce` is the only thing that changes it; the terminal front end draws it.
public struct BrowserState: Sendable {
    public var rootPath: String
    /// Every item of the last scan, in display order.
    public private(set) var allItems: [LibraryItem] = []
    /// The items the filter lets through; selection and scrolling index into this.
    public private(set) var items: [LibraryItem] = []
    public var scanWarnings: [String] = []
    /// True while a scan is running (first load or `r`).
    public var isScanning = false
    /// While a progressive scan runs: how many media files its listing found (the header says so).
    public var scanListedFiles: Int?
    /// The items shown are a scan's partial report (its first screen, or the whole view from the library
    /// index before the files are checked): a later report of the same scan may replace them.
    public private(set) var showsPartialScan = false
    /// The items shown are the whole library as its index knows it; the scan is checking them.
    public private(set) var showsIndexedView = false

    public var mode: BrowserMode = .grid
    /// The mode `help` returns to.
    public var modeBeforeHelp: BrowserMode = .grid
    /// The info panel (`i`), shown beside the viewer or over the grid.
    public var showsInfo = false

    public var selection = 0
    /// First grid row on screen.
    public var scrollRow = 0
    public var zoom = GridLayout.defaultZoom
    public var terminal: TerminalSize

    /// Name filter (case-insensitive substring); empty = everything.
    public private(set) var filter = ""
    /// True while the user types a filter after `/`.
    public var isEditingFilter = false

    /// Press-and-hold playback and the hint of movement (see `PlaybackSession`).
    public var playback = PlaybackSession()
    /// True between "play pressed" and "play released" on a live item (the playback seam).
    public var isPlayPressed: Bool { playback.phase.isHeld }
    public var wantsQuit = false
    /// Set when the browser shows a remote directory (see `BrowserState+Remote`).
    public var remote: RemoteBrowseState?
    /// Marks, ratings and flags, the triage filter, prompts and the export dialog.
    public var triage = TriageSession()
    /// The viewer's key-photo mode (`K` on a Live Photo), nil when off.
    public var keyPhoto: KeyPhotoSession?
    /// One-line message for the status bar (errors, hints); cleared by the next key. Any assignment makes it an
    /// ordinary message; a LIVE OFF reason and a background note say what they are through `messagePriority`.
    public var message: String? { didSet { messagePriority = .ordinary } }
    /// How much the shown message matters (issue 29: the once-only "no sound: ..." note must never cover the
    /// LIVE OFF reason of a hold).
    public internal(set) var messagePriority: MessagePriority = .ordinary
    /// A background note that arrived while another message showed: it shows when that one is cleared.
    public internal(set) var deferredNote: String?
    /// A file to select once the first scan lists it (`livegrid PHOTO.jpg`): a pair's movie selects its item,
    /// and the viewer opens on it (Esc then shows its folder's grid), as nsxiv, feh and xdg-open do.
    public var pendingSelection: String?
    /// Why the last scan failed (the folder became unreadable): the empty grid says it instead of "no photos".
    public var scanError: ScanFailure?
    /// The status bar shows the scan failure (worded there) until the next key, as it would a message.
    public var showsScanFailure = false

    /// Library-wide views (BrowserCore/Views): the order of the items, their sections, the date-jump prompt.
    public var sortOrder: LibrarySortOrder = .name
    public var grouping: LibraryGrouping = .none
    /// Header sections over `items` (empty without grouping); headers are rows of their own, never items.
    public private(set) var sections: [ViewSection] = []
    /// The text typed after the jump-to-date key; nil when the prompt is closed.
    public var dateJumpText: String?
    /// The local folder shown, the breadcrumb's top and `-r` (BrowserCore/Views/BrowserState+Folders).
    public var folders: LocalFolderNavigation

    /// The viewer's 1:1 zoom (`z`), nil when it fits the picture (BrowserCore/Viewer).
    public internal(set) var viewerZoom: ViewerZoom?
    /// The last click in the fitted viewer: where the next zoom centres.
    public internal(set) var viewerClickPoint: ViewerClickPoint?
    /// Where a drag of the zoomed picture began (button 1 down), nil when no drag is under way.
    public internal(set) var viewerDrag: ViewerDragAnchor?
    /// Image pixels per cell at 100 %: symbols' 2x4 unless the front end sets the pixel cell's size.
    public var zoomCellPixels = ZoomCellPixels.symbols

    public init(rootPath: String, terminal: TerminalSize, zoom: Int = GridLayout.defaultZoom) {
        self.rootPath = rootPath
        self.folders = LocalFolderNavigation(top: rootPath)
        self.terminal = terminal
        self.zoom = min(max(zoom, 0), GridLayout.zoomWidths.count - 1)
    }

    public var layout: GridLayout { GridLayout(terminal: terminal, zoom: zoom) }

    public var selectedItem: LibraryItem? {
        items.indices.contains(selection) ? items[selection] : nil
    }

    /// Live and Motion Photos among the shown items.
    public var liveCount: Int { items.reduce(0) { $0 + ($1.kind.isLive ? 1 : 0) } }

    /// Replaces the items (scan finished), keeping the selected item selected when it still exists.
    /// `partial` (a progressive scan's first screen): a file to select that is not among them yet stays wanted.
    mutating func setItems(_ newItems: [LibraryItem], partial: Bool = false, fromIndex: Bool = false) {
        showsPartialScan = partial
        showsIndexedView = fromIndex
        var selectedID = selectedItem?.id
        if let wanted = pendingSelection {
            if let item = newItems.first(where: { $0.files.contains { $0.path == wanted } }) {
                selectedID = item.id
                pendingSelection = nil
                if mode == .grid { mode = .viewer }
            } else if !partial {
                pendingSelection = nil
            }
        }
        allItems = newItems
        applyFilter(keeping: selectedID)
    }

    mutating func setFilter(_ text: String) {
        let selectedID = selectedItem?.id
        filter = text
        applyFilter(keeping: selectedID)
    }

    /// Applies the name and triage filters again (ratings or the triage filter changed).
    mutating func refilter() {
        applyFilter(keeping: selectedItem?.id)
    }

    private mutating func applyFilter(keeping selectedID: ItemID?) {
        if filter.isEmpty {
            items = allItems
        } else {
            let needle = filter.lowercased()
            items = allItems.filter { item in
                item.files.contains { $0.fileName.lowercased().contains(needle) }
            }
        }
        if triage.filter != .everything { items = triage.filter.apply(to: items, states: triage.states) }
        // Folder cells stay first, whatever the order, under a section of their own when grouped.
        let folderCount = items.prefix(while: \.isFolderEntry).count
        if folderCount == 0 {
            (items, sections) = LibraryArrangement.arrange(items, order: sortOrder, grouping: grouping)
        } else if sortOrder != .name || grouping != .none {
            let (photos, photoSections) = LibraryArrangement.arrange(Array(items.dropFirst(folderCount)), order: sortOrder,
                                                                     grouping: grouping)
            items = Array(items.prefix(folderCount)) + photos
            sections = photoSections.map { ViewSection(title: $0.title, range: ($0.range.lowerBound + folderCount)..<($0.range.upperBound + folderCount)) }
            if grouping != .none {
                sections.insert(ViewSection(title: "Folders · \(folderCount)", range: 0..<folderCount), at: 0)
            }
        } else {
            sections = []
        }
        if let selectedID {
            let parts = LibraryItem.idParts(selectedID)
            if let index = items.firstIndex(where: { $0.hasID(parts) }) { selection = index }
        }
        clampSelection()
    }

    /// Keeps selection and scroll inside the items and the selection on screen.
    mutating func clampSelection() {
        selection = items.isEmpty ? 0 : min(max(0, selection), items.count - 1)
        scrollRow = keptScrollRow()
    }

    /// The grid with header rows, when the items are grouped.
    public var sectionedGrid: SectionedGrid? {
        sections.isEmpty ? nil : SectionedGrid(layout: layout, sections: sections)
    }

    /// The scroll row that keeps the selection on screen, with or without header rows.
    func keptScrollRow() -> Int {
        if let grid = sectionedGrid { return grid.scrollRow(keeping: selection, current: scrollRow) }
        return layout.scrollRow(keeping: selection, current: scrollRow, itemCount: items.count)
    }
}
