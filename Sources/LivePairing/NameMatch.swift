/// Base-name matching of a still and a movie, with the variants exports produce:
/// `IMG_1234.HEIC` + `IMG_1234.MOV`, `IMG_1234_3.mov` (Photos library), `IMG_1234_HEVC.MOV` (iCloud),
/// `.JPG` after conversion. Case-insensitive.
enum NameMatch {
    static func matches(still: MediaFile, movie: MediaFile) -> Bool {
        let s = still.baseName.lowercased()
        let m = movie.baseName.lowercased()
        if s == m { return true }
        for suffix in ["_hevc", "_3", "_2", "-hevc"] where m == s + suffix { return true }
        return false
    }
}

/// Natural, case-insensitive order ("IMG_2" before "IMG_10"), so the grid reads like a file manager.
public enum NaturalOrder {
    public static func less(_ a: String, _ b: String) -> Bool {
        var i = a.unicodeScalars.makeIterator(), j = b.unicodeScalars.makeIterator()
        var ca = i.next(), cb = j.next()
        while let x = ca, let y = cb {
            if isDigit(x) && isDigit(y) {
                var na: [Unicode.Scalar] = [], nb: [Unicode.Scalar] = []
                while let c = ca, isDigit(c) { na.append(c); ca = i.next() }
                while let c = cb, isDigit(c) { nb.append(c); cb = j.next() }
                let ta = trimZeros(na), tb = trimZeros(nb)
                if ta.count != tb.count { return ta.count < tb.count }
                for (p, q) in zip(ta, tb) where p != q { return p.value < q.value }
                continue
            }
            let lx = lower(x), ly = lower(y)
            if lx != ly { return lx < ly }
            ca = i.next(); cb = j.next()
        }
        if ca == nil && cb != nil { return true }
        if ca != nil && cb == nil { return false }
        return a < b
    }
    private static func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 48 && c.value <= 57 }
    private static func lower(_ c: Unicode.Scalar) -> UInt32 { (c.value >= 65 && c.value <= 90) ? c.value + 32 : c.value }
    private static func trimZeros(_ s: [Unicode.Scalar]) -> [Unicode.Scalar] {
        let t = s.drop { $0 == "0" }
        return t.isEmpty ? ["0"] : Array(t)
    }
}

/// Capture times as cameras write them: Exif "2021:05:02 12:34:56" or QuickTime "2021-05-02T12:34:56+0200".
/// Compared as local wall-clock times (Exif has no zone; QuickTime's creationdate is local with an offset).
enum CaptureTime {
    static func gapSeconds(_ a: String?, _ b: String?) -> Double? {
        guard let a, let b, let x = seconds(a), let y = seconds(b) else { return nil }
        return abs(x - y)
    }

    /// Seconds of a proleptic day count, enough for differences.
    static func seconds(_ text: String) -> Double? {
        let digits = text.unicodeScalars.map { $0 }
        var numbers: [Int] = []
        var current = 0, inNumber = false
        for c in digits.prefix(19) {
            if c.value >= 48 && c.value <= 57 {
                current = current * 10 + Int(c.value - 48)
                inNumber = true
            } else if inNumber {
                numbers.append(current)
                current = 0
                inNumber = false
            }
        }
        if inNumber { numbers.append(current) }
        guard numbers.count >= 6 else { return nil }
        let (y, mo, d, h, mi, s) = (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
        guard y > 1900, (1...12).contains(mo), (1...31).contains(d), h < 25, mi < 60, s < 61 else { return nil }
        // Days from civil (Howard Hinnant's algorithm).
        let yy = mo <= 2 ? y - 1 : y
        let era = yy / 400
        let yoe = yy - era * 400
        let doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe
        return Double(days * 86400 + h * 3600 + mi * 60 + s)
    }
}
