/// Splits one sixel image into several stacked sixel images, each starting on a cell row, so that each fits
/// in tmux's passthrough buffer (tmux 3.3a drops a sequence above 1 MiB without a word: a large viewer
/// picture on a big terminal would simply not appear). Works on chafa's output: `ESC P p1;p2;p3 q`, raster
/// attributes `" 1;1;W;H`, every palette entry `#n;2;r;g;b` up front, then six-pixel bands separated by `-`,
/// then `ESC \`. Pure, so the split is unit-tested byte for byte.
public enum SixelBands {
    public struct Piece: Equatable, Sendable {
        /// Cell rows below the image's top row where this piece starts.
        public var rowOffset: Int
        public var bytes: [UInt8]
        public init(rowOffset: Int, bytes: [UInt8]) {
            self.rowOffset = rowOffset
            self.bytes = bytes
        }
    }

    /// The pieces, each at most `maxBytes` where the image allows (one band group is the smallest piece);
    /// the whole image as one piece when it fits or is not laid out as expected.
    public static func split(_ bytes: [UInt8], cellHeight: Int, maxBytes: Int) -> [Piece] {
        let whole = [Piece(rowOffset: 0, bytes: bytes)]
        guard bytes.count > maxBytes, cellHeight > 0, let layout = Layout(bytes) else { return whole }
        // A piece must start on a cell boundary and a band boundary: a multiple of lcm(6, cellHeight) px.
        let unitBands = lcm(6, cellHeight) / 6
        let fixed = layout.introducer.count + layout.palette.count + 32
        var pieces: [Piece] = []
        var firstBand = 0
        while firstBand < layout.bands.count {
            var lastBand = min(layout.bands.count, firstBand + unitBands)
            var size = fixed + layout.bands[firstBand..<lastBand].reduce(0) { $0 + $1.count + 1 }
            while lastBand < layout.bands.count {
                let next = min(layout.bands.count, lastBand + unitBands)
                let more = layout.bands[lastBand..<next].reduce(0) { $0 + $1.count + 1 }
                if size + more > maxBytes { break }
                size += more
                lastBand = next
            }
            let top = firstBand * 6
            let height = min(layout.height, lastBand * 6) - top
            var piece = layout.introducer + Array("\"1;1;\(layout.width);\(max(height, 1))".utf8) + layout.palette
            for (index, band) in layout.bands[firstBand..<lastBand].enumerated() {
                if index > 0 { piece.append(UInt8(ascii: "-")) }
                piece += band
            }
            piece += [0x1B, UInt8(ascii: "\\")]
            pieces.append(Piece(rowOffset: top / cellHeight, bytes: piece))
            firstBand = lastBand
        }
        return pieces
    }

    struct Layout {
        var introducer: [UInt8]
        var width: Int
        var height: Int
        var palette: [UInt8]
        var bands: [ArraySlice<UInt8>]

        init?(_ bytes: [UInt8]) {
            guard bytes.count > 4, bytes[0] == 0x1B, bytes[1] == UInt8(ascii: "P"),
                  bytes[bytes.count - 2] == 0x1B, bytes[bytes.count - 1] == UInt8(ascii: "\\"),
                  let q = bytes.firstIndex(of: UInt8(ascii: "q")) else { return nil }
            introducer = Array(bytes[...q])
            var i = q + 1
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
            var raster: [Int] = []
            var number = 0
            i += 1
            while i < bytes.count, bytes[i] == UInt8(ascii: ";") || (48...57).contains(bytes[i]) {
                if bytes[i] == UInt8(ascii: ";") { raster.append(number); number = 0 } else { number = number * 10 + Int(bytes[i] - 48) }
                i += 1
            }
            raster.append(number)
            guard raster.count == 4, raster[2] > 0, raster[3] > 0 else { return nil }
            width = raster[2]
            height = raster[3]
            // Palette: `#n;2;a;b;c` entries; the first `#n` not followed by `;` selects a colour: data begins.
            let paletteStart = i
            while i < bytes.count, bytes[i] == UInt8(ascii: "#") {
                var j = i + 1
                while j < bytes.count, (48...57).contains(bytes[j]) { j += 1 }
                guard j < bytes.count, bytes[j] == UInt8(ascii: ";") else { break }
                while j < bytes.count, bytes[j] == UInt8(ascii: ";") || (48...57).contains(bytes[j]) { j += 1 }
                i = j
            }
            palette = Array(bytes[paletteStart..<i])
            var body = bytes[i..<(bytes.count - 2)]
            if body.last == UInt8(ascii: "-") { body = body.dropLast() }
            bands = body.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
            guard !bands.isEmpty, bands.count * 6 >= height - 5 else { return nil }
        }
    }

    static func lcm(_ a: Int, _ b: Int) -> Int {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return a / x * b
    }
}
