import LibraryCore
import LibraryIndex
import LivePairing
import MediaFormats

extension LibraryScanner {
    /// Files probed before the first progress report: enough for a full screen at the smallest zoom of a
    /// large terminal, plus the partners that sort right after them.
    public static let firstScreenFiles = 256

    /// The scan the browser uses: list the folder's names, pick the first `firstScreen` files in
    /// display order, probe them and report their items through `progress` (the first paint needs no more), then probe
    /// the rest and return exactly what `scan(directory:recursive:limits:index:)` returns (the pairer does
    /// not depend on the order files arrive in; `ProgressiveScanTests` checks it on generated folders).
    /// `beforeRest` runs after the whole listing, before the rest is looked at, when a first report was made
    /// (the browser waits there for its first screen to be drawn).
    ///
    /// With `index`, a library scanned before is then reported whole from its last scan (`ScanSnapshot`,
    /// `LibraryScanProgress.fromIndex`; `beforeRest` runs before that report instead, and before the listing),
    /// which the scan then checks against the listing and a `stat` of every file; each scan that ends the usual way is remembered for the next (on a thread of its own, or before
    /// returning when `remembersInBackground` is false).
    public static func scanProgressively(directory: String, recursive: Bool = false, limits: ParseLimits = .default,
                                         index: LibraryIndex? = nil, firstScreen: Int = firstScreenFiles,
                                         remembersInBackground: Bool = true,
                                         milestone: (String) -> Void = { _ in }, beforeRest: () -> Void = {},
                                         progress: (LibraryScanProgress) -> Void) throws -> LibraryScan {
        guard PathBytes.isDirectory(directory) else {
            throw PathBytes.exists(directory) ? LibraryScanError.notADirectory(directory) : LibraryScanError.missing(directory)
        }
        var warnings: [String] = []
        let remembered = index.flatMap { limits == .default ? RememberedScan(index: $0, root: directory, recursive: recursive,
                                                                             inBackground: remembersInBackground) : nil }
        // The listing is names only (readdir, no stat): the first screen's names are picked from it, then
        // only those files are stat'ed and probed before the first report. With `recursive`, only the folders
        // that can hold the first screen's files are listed before it (`firstScreenListings`); the whole tree
        // is listed after the report, while that screen is drawn.
        let partial = recursive && firstScreen > 0 ? try firstScreenListings(root: directory, count: firstScreen) : nil
        var listings = partial == nil ? try listFolders(root: directory, recursive: recursive, warnings: &warnings) : []
        let headListings = partial?.listings ?? listings
        let headListed = headListings.reduce(0) { $0 + $1.count }
        milestone("scan-listed")
        let counter = ReadCounter()
        let headRefs = FirstScreenNames.first(max(0, firstScreen), of: headListings)
        // The head is looked up file by file (a few hundred lookups in one transaction): the folder's rows
        // are read after the first report, while the first screen is drawn.
        var head = probeAll(headRefs.map { ScanInput(folder: $0.folder, entry: $0.entry) },
                            listings: headListings, folderRows: nil, limits: limits, counter: counter, index: index)
        milestone("scan-head-looked")
        // Reported only when something is left to look at (a small folder is one step).
        let reported = headRefs.count < headListed || partial?.complete == false
        if reported {
            var first = LibraryScan(root: directory, items: LivePairer.pair(head.map(\.file)), warnings: warnings)
            first.describeFolders(headListings, recursive: recursive)
            progress(LibraryScanProgress(scan: first, listedFiles: partial == nil ? headListed : nil))
        }
        // A library scanned before: its whole view from the last scan, once the first screen is drawn (decoding
        // 100,000 items on both cores delayed its pictures), then the rest is listed and checked.
        let snapshotFile = reported ? remembered?.open() : nil
        if snapshotFile != nil { beforeRest() }
        var snapshot = snapshotFile.flatMap { remembered?.decode($0, milestone: milestone) }
        if let snapshot {
            milestone("scan-snapshot-read")
            var whole = snapshot.scan
            // Without -r the folder was listed before the first report: its subfolders are known.
            whole.describeFolders(partial == nil ? listings : [], recursive: recursive)
            progress(LibraryScanProgress(scan: whole, listedFiles: snapshot.fileCount, fromIndex: true))
        }
        if partial != nil {
            listings = try listFolders(root: directory, recursive: recursive, warnings: &warnings)
            head = refiled(head, from: headListings, into: listings)
            milestone("scan-listed-all")
        }
        let listedFiles = listings.reduce(0) { $0 + $1.count }
        if reported && snapshotFile == nil { beforeRest() }
        if let known = snapshot {
            if known.matches(listings, warnings: warnings) {
                milestone("scan-confirmed")
                remembered?.used()
                var scan = known.scan
                scan.describeFolders(listings, recursive: recursive)
                if let warning = index?.warning { scan.warnings.append(warning) }
                return scan
            }
            // Changed since: the usual scan, whose result replaces the view (the view keeps the items it shows).
            milestone("scan-snapshot-stale")
            snapshot = nil
        }
        var inHead = listings.map { [Bool](repeating: false, count: $0.count) }
        let headEntries = partial == nil ? headRefs.map { (folder: $0.folder, entry: $0.entry) }
            : entries(of: headRefs, in: headListings, within: listings)
        for (folder, entry) in headEntries { inHead[folder][entry] = true }
        var restInputs: [ScanInput] = []
        restInputs.reserveCapacity(max(0, listedFiles - headRefs.count))
        for (folder, listing) in listings.enumerated() {
            for entry in 0..<listing.count where !inHead[folder][entry] {
                restInputs.append(ScanInput(folder: folder, entry: entry))
            }
        }
        milestone("scan-rest-started")
        var folderRows = index?.rows(inFolders: listings.map(\.folder))
        milestone("scan-index-read")
        inHead = []
        var rest = probeAll(restInputs, listings: listings, folderRows: folderRows, limits: limits, counter: counter,
                            index: index)
        milestone("scan-rest-looked")
        if let index, let folderRows { prune(index, listings: listings, folderRows: folderRows, seen: head, alsoSeen: rest) }
        // Let go before pairing, which makes the items (issue 17 item 4).
        folderRows = nil
        restInputs = []
        // The files go straight into one array per folder for the pairer, and the probes (with their stamps) are
        // let go before it builds its items: `head + rest` made a third copy alive at the pairing peak (issue 17
        // item 4).
        let probedFiles = head.count(where: { !$0.fromIndex }) + rest.count(where: { !$0.fromIndex })
        milestone("scan-pruned")
        // Remembered only for a folder bigger than its first screen (the only one that reads it back): browsing
        // small folders must not push a large library's snapshot out of the few kept.
        let rememberer = reported ? remembered : nil
        let stamps = rememberer.flatMap { _ in RememberedScan.stamps(of: head, rest, folders: listings.count) }
        let items = pairByFolder(&rest, after: head, listings: listings)
        milestone("scan-paired")
        rememberer?.remember(items: items, warnings: warnings, listings: listings, stamps: stamps)
        if let warning = index?.warning { warnings.append(warning) }
        var scan = LibraryScan(root: directory, items: items, warnings: warnings,
                               bytesRead: counter.bytes, reads: counter.reads, probedFiles: probedFiles)
        scan.describeFolders(listings, recursive: recursive)
        return scan
    }

    /// `head`'s probes filed under the folders of the whole listing (matched by path): the first screen's
    /// folders were listed on their own before it. A probe whose folder the whole listing no longer has
    /// (removed in between) is dropped, as the plain scan would not see it.
    private static func refiled(_ head: [Probed], from partial: [FolderListing], into listings: [FolderListing]) -> [Probed] {
        let position = Dictionary(listings.enumerated().map { ($1.directory, $0) }, uniquingKeysWith: { first, _ in first })
        return head.compactMap { probed in
            guard let folder = position[partial[probed.folder].directory] else { return nil }
            var moved = probed
            moved.folder = folder
            return moved
        }
    }

    /// The (folder, entry) of each of `refs` (into `partial`) in `listings`, matched by folder path and name.
    private static func entries(of refs: [FirstScreenNames.FileRef], in partial: [FolderListing],
                                within listings: [FolderListing]) -> [(folder: Int, entry: Int)] {
        let position = Dictionary(listings.enumerated().map { ($1.directory, $0) }, uniquingKeysWith: { first, _ in first })
        var wanted: [Int: Set<[UInt8]>] = [:]
        for ref in refs {
            guard let folder = position[partial[ref.folder].directory] else { continue }
            wanted[folder, default: []].insert(Array(partial[ref.folder].nameBytes[partial[ref.folder].nameRange(ref.entry)]))
        }
        var found: [(folder: Int, entry: Int)] = []
        for (folder, names) in wanted {
            let listing = listings[folder]
            for entry in 0..<listing.count where names.contains(Array(listing.nameBytes[listing.nameRange(entry)])) {
                found.append((folder, entry))
            }
        }
        return found
    }
}
