import BrowserCore
import LibraryCore
import LivePairing
import MediaFormats
import TestSupport
import XCTest

/// `LibraryArrangement` sorts integer keys and places items by a counting sort (issue 17 item 3: the timeline of
/// 100,000 items). These tests hold it to the plain algorithm it replaced (kept below as the reference) on
/// generated libraries full of ties: equal dates, missing and invalid dates, time zones, equal sizes.
final class LibraryArrangementReferenceTests: XCTestCase {
    func testEveryOrderAndGroupingEqualsTheReferenceOnGeneratedLibraries() {
        for seed in 1...40 {
            var random = SplitMix64(seed: UInt64(seed))
            let items = Self.library(count: 1 + Int(random.next() % 300), random: &random)
            for order in LibrarySortOrder.allCases {
                for grouping in LibraryGrouping.allCases {
                    let arranged = LibraryArrangement.arrange(items, order: order, grouping: grouping)
                    let expected = Reference.arrange(items, order: order, grouping: grouping)
                    XCTAssertEqual(arranged.items.map(\.id), expected.items.map(\.id), "seed \(seed) \(order) \(grouping)")
                    XCTAssertEqual(arranged.sections, expected.sections, "seed \(seed) \(order) \(grouping)")
                }
            }
        }
    }

    func testCaptureDateKeyParseEqualsTheReferenceOnEveryForm() {
        let texts = ["2023:07:14 10:22:33", "2023-07-14T10:22:33+0200", "2023-07-14T10:22:33Z", "2023-07-14 10:22:33.123",
                     "2023-07", "2023", "2023:07:14", "2023/07/14 10:22", "0000:00:00 00:00:00", "2023-13-01",
                     "2023-07-32", "12345-01-01", "July 2023", "", "2023-07-14T24:00:00", "2023-07-14T10:60:00",
                     "1799-12-31", "9999-12-31 23:59:60", "2023-07-14T10:22:33-07:00 extra", "2023-07-14 10:22:33 1 2 3",
                     "2023:07:14 10:22:33\u{0}", "  2023-07-14", "2023--07--14"]
        for text in texts {
            for minimum in 1...4 {
                XCTAssertEqual(CaptureDateKey.parse(text, minimumFields: minimum), Reference.parse(text, minimumFields: minimum),
                               "\"\(text)\" minimum \(minimum)")
            }
        }
    }

    /// An Exif date is read from MediaInfo's packed digits, not its text: the key must equal parsing the text,
    /// valid or not, and a still without a date takes its movie's.
    func testCaptureDateKeyFromPackedExifDigitsEqualsParsingTheText() {
        let texts = ["2023:07:14 10:22:33", "0000:00:00 00:00:00", "2023:13:01 00:00:00", "2023:07:32 00:00:00",
                     "1799:12:31 23:59:59", "1800:01:01 00:00:00", "9999:12:31 24:59:60", "2023:07:14 25:00:00",
                     "2023:07:14 10:60:00", "2023:07:14 10:22:61", "2023:00:14 10:22:33", "2023:07:00 10:22:33",
                     "2023:07:14 10:22:33Z", "2023-07-14 10:22:33"]
        for text in texts {
            var info = MediaInfo(format: .jpeg)
            info.captureDate = text
            XCTAssertEqual(info.captureDate, text, "packed date reads back")
            let still = MediaFile(path: "/lib/IMG_1.jpg", size: 1, modificationTime: 0, info: info)
            XCTAssertEqual(CaptureDateKey(item: LibraryItem(kind: .still, still: still)).value,
                           CaptureDateKey.parse(text, minimumFields: 3), text)
            var movieInfo = MediaInfo(format: .quickTime)
            movieInfo.captureDate = text
            let undated = MediaFile(path: "/lib/IMG_2.jpg", size: 1, modificationTime: 0, info: MediaInfo(format: .jpeg))
            let movie = MediaFile(path: "/lib/IMG_2.mov", size: 1, modificationTime: 0, info: movieInfo)
            XCTAssertEqual(CaptureDateKey(item: LibraryItem(kind: .live, still: undated, movie: movie)).value,
                           CaptureDateKey.parse(text, minimumFields: 3), "movie's date: \(text)")
        }
        XCTAssertEqual(CaptureDateKey(item: LibraryItem(kind: .still, still: MediaFile(
            path: "/lib/IMG_3.jpg", size: 1, modificationTime: 0, info: MediaInfo(format: .jpeg)))).value, nil)
    }

    func testSortKeyOrdersLikeTheComparableKey() {
        let keys = [CaptureDateKey(value: nil), CaptureDateKey(value: 20230714102233), CaptureDateKey(value: 18000101000000),
                    CaptureDateKey(value: 99991231246060), CaptureDateKey(value: nil)]
        for a in keys {
            for b in keys {
                XCTAssertEqual(a < b, a.sortKey < b.sortKey, "\(a) \(b)")
            }
        }
    }

    // MARK: - generated libraries

    /// Items in name order across a few folders; dates drawn from a small pool (many ties), some missing or
    /// unusable, some in other forms and time zones; sizes from a small pool.
    private static func library(count: Int, random: inout SplitMix64) -> [LibraryItem] {
        let dates: [String?] = [nil, "2021:04:03 10:00:00", "2021:04:03 10:00:00", "2021-04-03T10:00:00+0900",
                                "2020:05:17 08:00:00", "2020:12:31 23:59:59", "2021:01:01 00:00:00",
                                "0000:00:00 00:00:00", "2024-03", "garbage", "2019:08:01 12:00:00-07:00"]
        let folders = ["", "a/", "a/b/", "z/"]
        return (0..<count).map { index in
            let folder = folders[Int(random.next() % UInt64(folders.count))]
            var info = MediaInfo(format: random.next() % 5 == 0 ? .quickTime : .jpeg)
            info.captureDate = dates[Int(random.next() % UInt64(dates.count))]
            let file = MediaFile(path: "/lib/\(folder)IMG_\(index).jpg", size: 100 * (random.next() % 4),
                                 modificationTime: 0, info: info)
            return info.format == .quickTime ? LibraryItem(kind: .video, movie: file) : LibraryItem(kind: .still, still: file)
        }
    }


    /// The arrangement as it was before integer keys and the counting sort (main c21e12f).
    private enum Reference {
        static func arrange(_ items: [LibraryItem], order: LibrarySortOrder,
                            grouping: LibraryGrouping) -> (items: [LibraryItem], sections: [ViewSection]) {
            if order == .name, grouping == .none { return (items, []) }
            let dates = order == .date || grouping == .date ? items.map { key($0) } : []
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
                var folderOf: [Int] = []
                var folderIndex: [Substring: Int] = [:]
                var folderNames: [Substring] = []
                for item in items {
                    let id = item.id.rawValue
                    let folder = id.utf8.lastIndex(of: UInt8(ascii: "/")).map { id[..<$0] } ?? ""
                    if folderIndex[folder] == nil {
                        folderIndex[folder] = folderNames.count
                        folderNames.append(folder)
                    }
                    folderOf.append(folderIndex[folder]!)
                }
                var buckets = [[Int]](repeating: [], count: folderNames.count)
                for position in positions { buckets[folderOf[position]].append(position) }
                var ordered: [LibraryItem] = []
                var sections: [ViewSection] = []
                for (folder, bucket) in buckets.enumerated() where !bucket.isEmpty {
                    let start = ordered.count
                    ordered.append(contentsOf: bucket.map { items[$0] })
                    let name = folderNames[folder].isEmpty ? "." : String(folderNames[folder])
                    sections.append(ViewSection(title: "\(name) · \(count(bucket.count))", range: start..<ordered.count))
                }
                return (ordered, sections)
            case .date:
                var months: [Int: [Int]] = [:]
                var undated: [Int] = []
                for position in positions {
                    if let month = dates[position].month { months[month, default: []].append(position) } else { undated.append(position) }
                }
                var ordered: [LibraryItem] = []
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
                    let names = ["January", "February", "March", "April", "May", "June", "July", "August",
                                 "September", "October", "November", "December"]
                    sections.append(ViewSection(title: "\(names[month % 100 - 1]) \(year) · \(count(bucket.count))",
                                                range: start..<ordered.count))
                }
                if !undated.isEmpty {
                    let start = ordered.count
                    ordered.append(contentsOf: undated.map { items[$0] })
                    sections.append(ViewSection(title: "Undated · \(count(undated.count))", range: start..<ordered.count))
                }
                return (ordered, sections)
            }
        }

        static func count(_ n: Int) -> String { n == 1 ? "1 item" : "\(n) items" }

        static func key(_ item: LibraryItem) -> CaptureDateKey {
            let text = item.still?.info.captureDate ?? item.movie?.info.captureDate
            return CaptureDateKey(value: text.flatMap { parse($0, minimumFields: 3) })
        }

        static func parse(_ text: String, minimumFields: Int) -> UInt64? {
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
}
