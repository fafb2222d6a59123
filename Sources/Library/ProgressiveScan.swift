import LibraryIndex
import LivePairing
import MediaFormats

/// What a progressive scan knows before it has probed everything: the first screen's items.
public struct LibraryScanProgress: Sendable {
    /// Items of the first files in display order, paired among themselves (a half whose partner lies further
    /// on shows alone until the final scan).
    public var scan: LibraryScan
    /// Media files the listing found (what the final scan will look at).
    public var listedFiles: Int
    public init(scan: LibraryScan, listedFiles: Int) {
        self.scan = scan
        self.listedFiles = listedFiles
    }
}

extension LibraryScanner {
    /// Files probed before the first progress report: enough for a full screen at the smallest zoom of a
    /// large terminal, plus the partners that sort right after them.
    public static let firstScreenFiles = 256

    /// The scan the browser uses: list the folder, sort the names, probe the first `firstScreen` files in
    /// display order and report their items through `progress` (the first paint needs no more), then probe
    /// the rest and return exactly what `scan(directory:recursive:limits:index:)` returns (the pairer does
    /// not depend on the order files arrive in; `ProgressiveScanTests` checks it on generated folders).
    public static func scanProgressively(directory: String, recursive: Bool = false, limits: ParseLimits = .default,
                                         index: LibraryIndex? = nil, firstScreen: Int = firstScreenFiles,
                                         progress: (LibraryScanProgress) -> Void) throws -> LibraryScan {
        guard PathBytes.isDirectory(directory) else {
            throw PathBytes.exists(directory) ? LibraryScanError.notADirectory(directory) : LibraryScanError.missing(directory)
        }
        var warnings: [String] = []
        let paths = try listMediaFiles(root: directory, recursive: recursive, warnings: &warnings)
        let counter = ReadCounter()
        // Only the first screen needs display order now: the pairer sorts the whole folder at the end.
        let headIndices = NaturalOrder.firstIndices(paths, count: max(0, firstScreen))
        let head = probeAll(headIndices.map { paths[$0] }, limits: limits, counter: counter, index: index)
        if headIndices.count < paths.count {
            progress(LibraryScanProgress(scan: LibraryScan(root: directory, items: LivePairer.pair(head.map(\.file)),
                                                           warnings: warnings),
                                         listedFiles: paths.count))
        }
        var inHead = [Bool](repeating: false, count: paths.count)
        for i in headIndices { inHead[i] = true }
        // The files go straight into one array for the pairer: `head + rest` made a third copy of every probe
        // (with its stamp) alive at the pairing peak (issue 17 item 4).
        var files: [MediaFile] = []
        var probedFiles = head.count(where: { !$0.fromIndex })
        do {
            let rest = probeAll(paths.indices.filter { !inHead[$0] }.map { paths[$0] }, limits: limits,
                                counter: counter, index: index)
            probedFiles += rest.count(where: { !$0.fromIndex })
            files.reserveCapacity(head.count + rest.count)
            files.append(contentsOf: head.lazy.map(\.file))
            files.append(contentsOf: rest.lazy.map(\.file))
        }
        let items = LivePairer.pair(files)
        if let warning = index?.warning { warnings.append(warning) }
        return LibraryScan(root: directory, items: items, warnings: warnings,
                           bytesRead: counter.bytes, reads: counter.reads, probedFiles: probedFiles)
    }
}
