import LibraryCore
import LivePairing

/// The order of the grid (`s` cycles it; `--sort`, `[grid] sort`).
public enum LibrarySortOrder: String, Sendable, CaseIterable {
    /// The scan's natural name order (folders, then names with numbers compared as numbers).
    case name
    /// Oldest capture date first; items without one after the dated ones, in name order.
    case date
    /// Largest first (all files of the item together).
    case size

    /// The settings vocabulary: the same words on the command line and in the config file.
    public init?(userName: String) { self.init(rawValue: userName.lowercased()) }

    public var next: LibrarySortOrder {
        let all = Self.allCases
        return all[((all.firstIndex(of: self) ?? 0) + 1) % all.count]
    }
}

/// How the grid is split into sections with header rows (`t` cycles it; `--group`, `[grid] group`).
public enum LibraryGrouping: String, Sendable, CaseIterable {
    /// One run of items, no headers (the default).
    case none
    /// One section per folder (useful with `-r`).
    case folder
    /// A timeline: a year header, then one section per month of capture date; undated items last.
    case date

    public init?(userName: String) {
        switch userName.lowercased() {
        case "timeline": self = .date
        default: self.init(rawValue: userName.lowercased())
        }
    }

    public var next: LibraryGrouping {
        let all = Self.allCases
        return all[((all.firstIndex(of: self) ?? 0) + 1) % all.count]
    }
}

/// One run of the shown items under a header row. A section with an empty range is a header on its own
/// (the year line of the timeline).
public struct ViewSection: Sendable, Hashable {
    public var title: String
    /// Indices into `BrowserState.items`.
    public var range: Range<Int>
    public init(title: String, range: Range<Int>) {
        self.title = title
        self.range = range
    }
}

/// Sorting and grouping of a filtered item list: a pure function of the items and the two settings, so the
/// reducer can apply it after every scan or filter change.
public enum LibraryArrangement {
    /// The items in display order and the sections over them (none without grouping).
    public static func arrange(_ items: [LibraryItem], order: LibrarySortOrder,
                               grouping: LibraryGrouping) -> (items: [LibraryItem], sections: [ViewSection]) {
        if order == .name, grouping == .none { return (items, []) }
        // Keys are computed once per item (not per comparison), as integers (undated = UInt64.max, after every
        // date, as `CaptureDateKey` orders them); ties fall back to the scan position, which makes every order
        // stable and total. Positions are sorted, then each item is copied once into its place.
        let dates = order == .date || grouping == .date ? items.map(\.captureDateSortKey) : []
        var positions: [Int]
        switch order {
        case .name:
            positions = Array(items.indices)
        case .date:
            positions = sortedPositions(dates, ascending: true)
        case .size:
            positions = sortedPositions(items.map(\.totalSize), ascending: false)
        }
        switch grouping {
        case .none:
            return (positions.map { items[$0] }, [])
        case .folder:
            return groupedByFolder(items, positions: positions)
        case .date:
            return groupedByMonth(items, positions: positions, dates: dates)
        }
    }

    /// Positions of `keys` ordered by key (ascending or descending), equal keys by position: one sort of
    /// (key, position) pairs, compared as two integers.
    static func sortedPositions(_ keys: [UInt64], ascending: Bool) -> [Int] {
        var pairs = keys.enumerated().map { (key: ascending ? $0.element : ~$0.element, position: $0.offset) }
        pairs.sort { $0.key != $1.key ? $0.key < $1.key : $0.position < $1.position }
        return pairs.map(\.position)
    }

    /// Folders in the order of their first item in the scan's name order; items inside by the sort order.
    private static func groupedByFolder(_ items: [LibraryItem], positions: [Int])
        -> (items: [LibraryItem], sections: [ViewSection]) {
        var folderOfPosition = [Int](repeating: 0, count: items.count)
        // Folders by the primary file's prefix (the path up to its last "/"), not by a path made per item; the
        // last folder is compared first, as neighbours mostly share it (and its buffer).
        var folderIndex: [String: Int] = [:]
        var folderNames: [Substring] = []
        var lastPrefix: String?
        var lastFolder = 0
        for position in items.indices {
            let prefix = items[position].primaryFolderPrefix
            if let lastPrefix, lastPrefix == prefix {
                folderOfPosition[position] = lastFolder
                continue
            }
            if let known = folderIndex[prefix] {
                lastFolder = known
            } else {
                lastFolder = folderNames.count
                folderIndex[prefix] = folderNames.count
                folderNames.append(folderName(of: prefix))
            }
            folderOfPosition[position] = lastFolder
            lastPrefix = prefix
        }
        var buckets = [[Int]](repeating: [], count: folderNames.count)
        for position in positions { buckets[folderOfPosition[position]].append(position) }
        var ordered: [LibraryItem] = []
        ordered.reserveCapacity(items.count)
        var sections: [ViewSection] = []
        for (folder, bucket) in buckets.enumerated() where !bucket.isEmpty {
            let start = ordered.count
            ordered.append(contentsOf: bucket.map { items[$0] })
            let name = folderNames[folder].isEmpty ? "." : String(folderNames[folder])
            sections.append(ViewSection(title: "\(name) · \(count(bucket.count))", range: start..<ordered.count))
        }
        return (ordered, sections)
    }

    /// Months in time order (the year gets its own header row when it changes), undated items last.
    /// A counting sort: each position's month is looked up once, the months (a few hundred) are sorted, and
    /// every position is placed into its month's run in the order `positions` has them; then each item is
    /// copied once. (An array per month and a copy per bucket showed at 100,000 items.)
    private static func groupedByMonth(_ items: [LibraryItem], positions: [Int], dates: [UInt64])
        -> (items: [LibraryItem], sections: [ViewSection]) {
        let undatedMonth = Int.max
        var monthIndex: [Int: Int] = [:]
        var months: [Int] = []
        var bucketOfPosition = [Int](repeating: 0, count: positions.count)
        // Neighbours mostly share a month (sorted by date, or named in shooting order): the last month's
        // bucket is remembered, so most items cost no dictionary lookup.
        var lastMonth = -1, lastBucket = 0
        for (rank, position) in positions.enumerated() {
            let month = dates[position] == CaptureDateKey.undatedSortKey ? undatedMonth : Int(dates[position] / 100_000_000)
            if month == lastMonth {
                bucketOfPosition[rank] = lastBucket
                continue
            }
            lastMonth = month
            if let known = monthIndex[month] {
                bucketOfPosition[rank] = known
                lastBucket = known
            } else {
                lastBucket = months.count
                monthIndex[month] = months.count
                bucketOfPosition[rank] = months.count
                months.append(month)
            }
        }
        var counts = [Int](repeating: 0, count: months.count)
        for bucket in bucketOfPosition { counts[bucket] += 1 }
        // Undated (Int.max) sorts last.
        let monthOrder = months.indices.sorted { months[$0] < months[$1] }
        var starts = [Int](repeating: 0, count: months.count)
        var sections: [ViewSection] = []
        var next = 0
        var lastYear: Int?
        for bucket in monthOrder {
            starts[bucket] = next
            let range = next..<next + counts[bucket]
            next = range.upperBound
            let month = months[bucket]
            guard month != undatedMonth else {
                sections.append(ViewSection(title: "Undated · \(count(range.count))", range: range))
                continue
            }
            let year = month / 100
            if year != lastYear {
                sections.append(ViewSection(title: "\(year)", range: range.lowerBound..<range.lowerBound))
                lastYear = year
            }
            sections.append(ViewSection(title: "\(monthNames[month % 100 - 1]) \(year) · \(count(range.count))",
                                        range: range))
        }
        var order = [Int](repeating: 0, count: positions.count)
        for (rank, position) in positions.enumerated() {
            let bucket = bucketOfPosition[rank]
            order[starts[bucket]] = position
            starts[bucket] += 1
        }
        return (order.map { items[$0] }, sections)
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]

    static func count(_ n: Int) -> String { n == 1 ? "1 item" : "\(n) items" }

    /// The folder part of an item's path ("" at the root), without copying the string.
    static func folderName(of path: String) -> Substring {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return path[..<slash]
    }
}
