/// Writes chafa's sixel image again with each colour the terminal can tell apart defined once (issue 28:
/// bytes per picture). Sixel colours are given in percent (`#n;2;r;g;b`, 0-100), and chafa 1.12's 256-colour
/// palette of a photo holds many entries equal at that precision (on the slow-link benchmark's first screen,
/// 5,388 entries in 28 pictures, 3,186 of them distinct). Every entry used in a six-pixel band costs a line of
/// its own in that band, so duplicates split one colour's pixels over several lines. Merging entries that are
/// the same colour on screen is lossless: the terminal draws the same pixels.
///
/// Layout read and written (chafa's, which `SixelBands` also splits): `ESC P p1;p2;p3 q`, raster attributes
/// `"1;1;W;H`, every palette entry up front, then bands separated by `-`, in each band one line per colour
/// (`#n` then sixel characters, `!count` repeats) separated by `$`, then `ESC \`. Anything else (another
/// colour space, an unexpected byte) leaves chafa's bytes as they are; so does a result that is not smaller.
/// Hand-written: the merge needs chafa's own palette indices, which libchafa 1.12 does not expose, and a sixel
/// library (libsixel) would quantise the picture again; this is one parse and one print of a known layout.
public enum SixelCompactor {
    /// Pictures up to this many pixels (grid thumbnails, ~40,000) are compacted; larger ones (the viewer, movie
    /// frames) go as chafa printed them. Measured on a 587x440 frame in a debug build on the loaded 2-core
    /// machine: 572,313 -> 512,914 B (-10 %) in 604 ms, far over a frame's time; a thumbnail has about a sixth of those pixels.
    public static let pixelLimit = 300_000

    public static func compact(_ bytes: [UInt8]) -> [UInt8] {
        guard let layout = SixelBands.Layout(bytes), layout.width > 0, layout.width <= 1 << 14,
              let palette = parsePalette(layout.palette) else { return bytes }
        // The first entry of each colour stands for all entries of that colour.
        var canonical = [Int](repeating: -1, count: 256)
        var firstOfColour: [PaletteEntry.RGB: Int] = [:]
        for entry in palette {
            canonical[entry.index] = firstOfColour[entry.rgb] ?? entry.index
            if firstOfColour[entry.rgb] == nil { firstOfColour[entry.rgb] = entry.index }
        }
        let width = layout.width
        var out = layout.introducer + Array("\"1;1;\(width);\(layout.height)".utf8)
        var used = [Bool](repeating: false, count: 256)
        var bandBytes: [UInt8] = []
        bandBytes.reserveCapacity(bytes.count)
        // One band at a time: per colour, the six bits of each column (0 = no pixel of that colour there).
        var bits = [UInt8](repeating: 0, count: 256 * width)
        var lastColumn = [Int](repeating: -1, count: 256)
        var order: [Int] = []
        for (bandIndex, band) in layout.bands.enumerated() {
            for colour in order {
                for x in 0...lastColumn[colour] { bits[colour * width + x] = 0 }
                lastColumn[colour] = -1
            }
            order.removeAll(keepingCapacity: true)
            guard decode(band, width: width, canonical: canonical, bits: &bits, lastColumn: &lastColumn, order: &order) else {
                return bytes
            }
            if bandIndex > 0 { bandBytes.append(UInt8(ascii: "-")) }
            for (line, colour) in order.enumerated() {
                if line > 0 { bandBytes.append(UInt8(ascii: "$")) }
                used[colour] = true
                bandBytes.append(UInt8(ascii: "#"))
                appendNumber(colour, to: &bandBytes)
                appendRuns(bits[(colour * width)...(colour * width + lastColumn[colour])], to: &bandBytes)
            }
        }
        for entry in palette where used[entry.index] { out += entry.text }
        out += bandBytes
        out += [0x1B, UInt8(ascii: "\\")]
        return out.count < bytes.count ? out : bytes
    }

    struct PaletteEntry {
        struct RGB: Hashable { var r, g, b: Int }
        var index: Int
        var rgb: RGB
        var text: ArraySlice<UInt8>
    }

    /// `#n;2;r;g;b` entries (colour space 2 is RGB in percent); nil for anything else.
    static func parsePalette(_ bytes: [UInt8]) -> [PaletteEntry]? {
        var entries: [PaletteEntry] = []
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "#") else { return nil }
            let start = i
            var numbers: [Int] = []
            var number = 0
            i += 1
            while i < bytes.count, bytes[i] != UInt8(ascii: "#") {
                if bytes[i] == UInt8(ascii: ";") {
                    numbers.append(number)
                    number = 0
                } else if (48...57).contains(bytes[i]), number < 100_000 {
                    number = number * 10 + Int(bytes[i] - 48)
                } else {
                    return nil
                }
                i += 1
            }
            numbers.append(number)
            guard numbers.count == 5, numbers[1] == 2, numbers[0] < 256 else { return nil }
            entries.append(PaletteEntry(index: numbers[0], rgb: .init(r: numbers[2], g: numbers[3], b: numbers[4]),
                                        text: bytes[start..<i]))
        }
        return entries
    }

    /// Sets the bits of one band's lines into `bits` (colours mapped to their canonical entry); false for a
    /// byte this layout does not have, a colour not in the palette or a line wider than the image.
    private static func decode(_ band: ArraySlice<UInt8>, width: Int, canonical: [Int], bits: inout [UInt8],
                               lastColumn: inout [Int], order: inout [Int]) -> Bool {
        var colour = -1
        var x = 0
        var i = band.startIndex
        while i < band.endIndex {
            let byte = band[i]
            switch byte {
            case UInt8(ascii: "#"):
                var number = 0
                i += 1
                while i < band.endIndex, (48...57).contains(band[i]), number < 1000 {
                    number = number * 10 + Int(band[i] - 48)
                    i += 1
                }
                guard number < 256, canonical[number] >= 0 else { return false }
                colour = canonical[number]
                continue
            case UInt8(ascii: "$"):
                x = 0
            case UInt8(ascii: "!"):
                var count = 0
                i += 1
                while i < band.endIndex, (48...57).contains(band[i]), count <= width {
                    count = count * 10 + Int(band[i] - 48)
                    i += 1
                }
                guard i < band.endIndex, (63...126).contains(band[i]), colour >= 0, x + count <= width else { return false }
                set(band[i] - 63, colour: colour, from: x, count: count, width: width, bits: &bits, lastColumn: &lastColumn, order: &order)
                x += count
            case 63...126:
                guard colour >= 0, x < width else { return false }
                set(byte - 63, colour: colour, from: x, count: 1, width: width, bits: &bits, lastColumn: &lastColumn, order: &order)
                x += 1
            default:
                return false
            }
            i += 1
        }
        return true
    }

    private static func set(_ value: UInt8, colour: Int, from x: Int, count: Int, width: Int, bits: inout [UInt8],
                            lastColumn: inout [Int], order: inout [Int]) {
        guard value != 0, count > 0 else { return }
        if lastColumn[colour] < 0 { order.append(colour) }
        let base = colour * width
        for column in x..<(x + count) { bits[base + column] |= value }
        lastColumn[colour] = max(lastColumn[colour], x + count - 1)
    }

    /// Sixel characters for `values`, a run of 4 or more as `!count` and the character (3 or fewer are
    /// shorter, or no longer, written out).
    private static func appendRuns(_ values: ArraySlice<UInt8>, to out: inout [UInt8]) {
        var i = values.startIndex
        while i < values.endIndex {
            var j = i + 1
            while j < values.endIndex, values[j] == values[i] { j += 1 }
            let count = j - i, character = values[i] + 63
            if count >= 4 {
                out.append(UInt8(ascii: "!"))
                appendNumber(count, to: &out)
                out.append(character)
            } else {
                for _ in 0..<count { out.append(character) }
            }
            i = j
        }
    }

    private static func appendNumber(_ value: Int, to out: inout [UInt8]) {
        if value >= 10 { appendNumber(value / 10, to: &out) }
        out.append(UInt8(48 + value % 10))
    }
}
