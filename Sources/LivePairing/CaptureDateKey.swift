import MediaFormats

/// A capture date as one comparable number (yyyymmddhhmmss), read from the still's EXIF date or the movie's
/// QuickTime creation date. Undated sorts after every date.
public struct CaptureDateKey: Sendable, Hashable, Comparable {
    /// nil = no usable capture date.
    public var value: UInt64?

    public init(value: UInt64?) { self.value = value }

    public init(item: LibraryItem) { self.init(info: item.captureDateInfo) }

    /// The key of `info`'s capture date (`LibraryItem.captureDateInfo`).
    init(info: MediaInfo?) {
        // An Exif date is read from its packed digits (making its text and parsing it again was most of
        // arranging 100,000 items).
        if let fields = info?.exifCaptureDateFields {
            value = Self.combine(UInt64(fields.year), UInt64(fields.month), UInt64(fields.day), UInt64(fields.hour),
                                 UInt64(fields.minute), UInt64(fields.second))
        } else {
            value = info?.captureDate.flatMap { Self.parse($0, minimumFields: 3) }
        }
    }

    /// The key as one integer ordered like `<`: undated is `undatedSortKey`, after every date (a date is at
    /// most 99991231246060, far below it).
    public var sortKey: UInt64 { value ?? Self.undatedSortKey }
    public static let undatedSortKey = UInt64.max

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
        // Six numbers at most, in a fixed tuple: this runs for every item when the timeline opens, where an
        // array per date showed at 100,000 items.
        var numbers: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        var found = 0
        func append(_ number: UInt64) {
            switch found {
            case 0: numbers.0 = number
            case 1: numbers.1 = number
            case 2: numbers.2 = number
            case 3: numbers.3 = number
            case 4: numbers.4 = number
            default: numbers.5 = number
            }
            found += 1
        }
        var current: UInt64 = 0, digits = 0
        for byte in text.utf8.prefix(32) {
            if byte >= 48, byte <= 57 {
                guard digits < 4 else { return nil }
                current = current * 10 + UInt64(byte - 48)
                digits += 1
            } else {
                if digits > 0 { append(current) }
                current = 0
                digits = 0
                if found == 6 { break }
                // Only separators of dates and times; anything else ("July") is not a date.
                guard byte == 58 || byte == 45 || byte == 84 || byte == 32 || byte == 43 || byte == 46 || byte == 90
                    || byte == 47 else { return nil }
            }
        }
        if digits > 0, found < 6 { append(current) }
        guard found >= minimumFields, found >= 2 else { return nil }
        // A missing day is the 1st; missing times are 0.
        if found < 3 { numbers.2 = 1 }
        let (y, mo, d, h, mi, s) = numbers
        return combine(y, mo, d, h, mi, s)
    }

    /// yyyymmddhhmmss, or nil when a field is out of range.
    static func combine(_ y: UInt64, _ mo: UInt64, _ d: UInt64, _ h: UInt64, _ mi: UInt64, _ s: UInt64) -> UInt64? {
        guard (1800...9999).contains(y), (1...12).contains(mo), (1...31).contains(d), h < 25, mi < 60, s < 61 else {
            return nil
        }
        return ((((y * 100 + mo) * 100 + d) * 100 + h) * 100 + mi) * 100 + s
    }
}
