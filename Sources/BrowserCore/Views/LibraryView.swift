import Library
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
        // Keys are computed once per item (not per comparison); ties fall back to the scan position, which
        // makes every order stable and total.
        let dates = order == .date || grouping == .date ? items.map { CaptureDateKey(item: $0) } : []
        var positions = Array(items.indices)
        switch order {
        case .name: break
        case .date:
            positions.sort { a, b in
                let x = dates[a], y = dates[b]
                if x != y { return x < y }
                return a < b
            }
        case .size:
            let sizes = items.map { $0.files.reduce(UInt64(0)) { $0 + $1.size } }
            positions.sort { a, b in sizes[a] != sizes[b] ? sizes[a] > sizes[b] : a < b }
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

    /// Folders in the order of their first item in the scan's name order; items inside by the sort order.
    private static func groupedByFolder(_ items: [LibraryItem], positions: [Int])
        -> (items: [LibraryItem], sections: [ViewSection]) {
        var folderOfPosition = [Int](repeating: 0, count: items.count)
        var folderIndex: [Substring: Int] = [:]
        var folderNames: [Substring] = []
        for (position, item) in items.enumerated() {
            let folder = folderName(of: item.id)
            if let known = folderIndex[folder] {
                folderOfPosition[position] = known
            } else {
                folderIndex[folder] = folderNames.count
                folderOfPosition[position] = folderNames.count
                folderNames.append(folder)
            }
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
    private static func groupedByMonth(_ items: [LibraryItem], positions: [Int], dates: [CaptureDateKey])
        -> (items: [LibraryItem], sections: [ViewSection]) {
        var months: [Int: [Int]] = [:]
        var undated: [Int] = []
        for position in positions {
            if let month = dates[position].month { months[month, default: []].append(position) } else { undated.append(position) }
        }
        var ordered: [LibraryItem] = []
        ordered.reserveCapacity(items.count)
        var sections: [ViewSection] = []
        var lastYear: Int?
        for month in months.keys.sorted() {
            let bucket = months[month] ?? []
            let year = month / 100
            if year != lastYear {
                sections.append(ViewSection(title: "\(year)", range: ordered.count..<ordered.count))
                lastYear = year
            }
            let start = ordered.count
            ordered.append(contentsOf: bucket.map { items[$0] })
            sections.append(ViewSection(title: "\(monthNames[month % 100 - 1]) \(year) · \(count(bucket.count))",
                                        range: start..<ordered.count))
        }
        if !undated.isEmpty {
            let start = ordered.count
            ordered.append(contentsOf: undated.map { items[$0] })
            sections.append(ViewSection(title: "Undated · \(count(undated.count))", range: start..<ordered.count))
        }
        return (ordered, sections)
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

/// A capture date as one comparable number (yyyymmddhhmmss), read from the still's EXIF date or the movie's
/// QuickTime creation date. Undated sorts after every date.
public struct CaptureDateKey: Sendable, Hashable, Comparable {
    /// nil = no usable capture date.
    public var value: UInt64?

    public init(value: UInt64?) { self.value = value }

    public init(item: LibraryItem) {
        let text = item.still?.info.captureDate ?? item.movie?.info.captureDate
        value = text.flatMap { Self.parse($0, minimumFields: 3) }
    }

    /// yyyymm, for the timeline's month sections.
    public var month: Int? { value.map { Int($0 / 100_000_000) } }

    public static func < (a: CaptureDateKey, b: CaptureDateKey) -> Bool {
        switch (a.value, b.value) {
        case let (x?, y?): return x < y
        case (_?, nil): return true
        default: return false
        }
    }

    /// "2023:07:14 10:22:33", "2023-07-14T10:22:33+0200", "2023-07" → yyyymmddhhmmss; missing fields are 0
    /// (a month alone is its first moment). nil when fewer than `minimumFields` numbers or out of range.
    public static func parse(_ text: String, minimumFields: Int) -> UInt64? {
        var numbers: [UInt64] = []
        var current: UInt64 = 0, digits = 0
        for byte in text.utf8.prefix(32) {
            if byte >= 48, byte <= 57 {
                guard digits < 4 else { return nil }
                current = current * 10 + UInt64(byte - 48)
                digits += 1
            } else {
                if digits > 0 { numbers.append(current) }
                current = 0
                digits = 0
                if numbers.count == 6 { break }
                // Only separators of dates and times; anything else ("July") is not a date.
                guard byte == 58 || byte == 45 || byte == 84 || byte == 32 || byte == 43 || byte == 46 || byte == 90
                    || byte == 47 else { return nil }
            }
        }
        if digits > 0, numbers.count < 6 { numbers.append(current) }
        guard numbers.count >= minimumFields, numbers.count >= 2 else { return nil }
        while numbers.count < 6 { numbers.append(numbers.count == 2 ? 1 : 0) }
        let (y, mo, d, h, mi, s) = (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
        guard (1800...9999).contains(y), (1...12).contains(mo), (1...31).contains(d), h < 25, mi < 60, s < 61 else {
            return nil
        }
        return ((((y * 100 + mo) * 100 + d) * 100 + h) * 100 + mi) * 100 + s
    }
}
