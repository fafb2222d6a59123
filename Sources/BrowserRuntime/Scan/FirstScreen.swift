import BrowserCore
import Concurrent
import Library
import LibraryCore
import LivePairing

/// Remembers which pictures a local view showed first (`LibraryIndex.firstScreen`), by a key naming the folder,
/// `-r`, the order, the grouping and the cell size.
public struct FirstScreenMemory: Sendable {
    public var load: @Sendable (String) -> [ItemID]
    public var store: @Sendable ([ItemID], String) -> Void
    public init(load: @escaping @Sendable (String) -> [ItemID], store: @escaping @Sendable ([ItemID], String) -> Void) {
        self.load = load
        self.store = store
    }
}

/// The first screen of a local folder, before its scan names it: its cached thumbnails are loaded while the
/// folder is still listed (a warm first paint then waits only for the scan), and what it showed is remembered
/// for the next launch of the same view.
public struct FirstScreen {
    private let root: String
    private let recursive: Bool
    private let memory: FirstScreenMemory?

    public init(root: String, recursive: Bool, memory: FirstScreenMemory?) {
        self.root = root
        self.recursive = recursive
        self.memory = memory
    }

    /// While the first local scan runs. A progressive scan reports the first screen itself, sooner than a second
    /// listing would: then only the remembered first screen is loaded (cache hits only; a stale memory costs a
    /// few look-ups). Otherwise the directory's first stills by name (not with `-r`).
    public func prewarm(_ provider: ThumbnailProvider, state: BrowserState, scanIsProgressive: Bool) {
        let layout = state.layout
        guard !layout.isList else { return }
        if scanIsProgressive {
            guard let memory else { return }
            let view = viewKey(state)
            provider.prewarm(stills: { memory.load(view) }, width: layout.cellWidth, height: layout.pictureHeight)
        } else {
            guard !recursive else { return }
            let path = root, count = layout.itemsPerPage
            // A lone still is an item named by its path.
            provider.prewarm(stills: { LibraryScanner.firstStills(directory: path, count: count).map { ItemID($0) } },
                             width: layout.cellWidth, height: layout.pictureHeight)
        }
    }

    /// Remembers `itemIDs` as what this view showed first (on a thread of its own: it writes the index).
    public func remember(_ itemIDs: [ItemID], state: BrowserState) {
        guard let memory else { return }
        let view = viewKey(state)
        NamedThread.start("livegrid-first-screen") { memory.store(itemIDs, view) }
    }

    /// The key of the remembered first screen: folder, `-r`, order, grouping, cell size and cells per page.
    private func viewKey(_ state: BrowserState) -> String {
        let layout = state.layout
        return [root, recursive ? "-r" : "", state.sortOrder.rawValue, state.grouping.rawValue,
                "\(layout.cellWidth)x\(layout.pictureHeight)", "\(layout.itemsPerPage)"].joined(separator: "\u{1}")
    }
}
