import Foundation
import Imaging
import TerminalProtocol

/// Pixel payloads made by livegrid rather than printed by chafa, for the protocols that carry a compressed
/// file: kitty gets PNG (`f=100`), iTerm2 JPEG (PNG for transparency or flat colour), each at exactly the
/// pixels of the cells it covers (issue 28.3: chafa 1.12 sends kitty raw RGBA and iTerm2 an uncompressed
/// TIFF, 5-14x the bytes). Sixel stays chafa's: its palette quantiser is the work there.
///
/// The one table from a protocol to its payload encoder is `for(_:)`.
public enum CompressedPayload {
    /// `box`: the pixels of the cells; the frame fills its width or its height (`PixelSize.fitted`).
    /// `fast`: speed over size (kitty: `PNGCodec.encodeForSpeed`), for movie frames.
    public typealias Encoder = @Sendable (PixelFrame, _ columns: Int, _ rows: Int, _ box: PixelSize, _ fast: Bool) throws(RenderError) -> [UInt8]

    /// The encoder of `mode`, or nil when chafa prints the payload (sixel) or there is none (symbols).
    public static func `for`(_ mode: GraphicsMode) -> Encoder? {
        switch mode {
        case .kitty: return { frame, columns, rows, box, fast throws(RenderError) in
            try kitty(frame, columns: columns, rows: rows, box: box, fast: fast)
        }
        case .iterm: return { frame, columns, rows, _, _ throws(RenderError) in try iTerm(frame, columns: columns, rows: rows) }
        case .sixels, .symbols: return nil
        }
    }

    /// Pictures above this many pixels (the viewer's) get libpng's fast PNG: the filtered one costs ~3.4x
    /// the time, which a grid thumbnail affords and a full-screen picture does not.
    public static let filteredPNGPixelLimit = 300_000

    /// kitty: a PNG (RGB when opaque), in base64 chunks of 4096 (the protocol's limit), the picture shown
    /// over `columns` x `rows` cells. Why PNG with row filters over raw pixels deflated (`o=z`): DECISIONS.md.
    /// Only the dimension the picture fills (`box`, the cells' pixels) is given in cells (`c=` or `r=`, both
    /// when it fills both): kitty derives the other from the picture's aspect ratio, as drawn.
    /// `fast`: a movie frame's PNG (`PNGCodec.encodeForSpeed`: one cheap row filter, zlib level 1), whatever
    /// the size: nearly as small as the most-effort PNG at a twentieth of the time.
    public static func kitty(_ frame: PixelFrame, columns: Int, rows: Int, box: PixelSize? = nil,
                             fast: Bool = false) throws(RenderError) -> [UInt8] {
        let png: [UInt8]
        do {
            png = fast ? try PNGCodec.encodeForSpeed(frame, opaque: frame.isOpaque)
                : try PNGCodec.encodePixels(frame, opaque: frame.isOpaque, fast: frame.width * frame.height > filteredPNGPixelLimit)
        } catch { throw RenderError.encoding("\(error)") }
        let encoded = Array(Data(png).base64EncodedData())
        var out: [UInt8] = []
        out.reserveCapacity(encoded.count + encoded.count / 4096 * 16 + 64)
        var offset = 0
        var first = true
        repeat {
            let end = min(encoded.count, offset + 4096)
            let more = end < encoded.count ? 1 : 0
            out += Array("\u{1B}_G".utf8)
            if first {
                let fillsWidth = box.map { frame.width >= $0.width } ?? true
                let fillsHeight = box.map { frame.height >= $0.height } ?? true
                out += Array("a=T,f=100,s=\(frame.width),v=\(frame.height),".utf8)
                if fillsWidth || !fillsHeight { out += Array("c=\(columns),".utf8) }
                if fillsHeight { out += Array("r=\(rows),".utf8) }
                first = false
            }
            out += Array("m=\(more);".utf8)
            out += encoded[offset..<end]
            out += [0x1B, UInt8(ascii: "\\")]
            offset = end
        } while offset < encoded.count
        return out
    }

    /// iTerm2: `OSC 1337 ; File=` with a JPEG, or a PNG when the picture has transparency or few colours
    /// (JPEG would blur its edges and be larger), stretched over exactly `columns` x `rows` cells.
    public static func iTerm(_ frame: PixelFrame, columns: Int, rows: Int) throws(RenderError) -> [UInt8] {
        let file: [UInt8]
        do {
            file = frame.isOpaque && !frame.hasFewColors ? try JPEGEncoder.encode(frame, quality: 85)
                : try PNGCodec.encodePixels(frame, opaque: frame.isOpaque)
        } catch { throw RenderError.encoding("\(error)") }
        return Array("\u{1B}]1337;File=inline=1;size=\(file.count);width=\(columns);height=\(rows);preserveAspectRatio=0:".utf8)
            + Array(Data(file).base64EncodedData()) + [0x07]
    }
}

extension PixelFrame {
    /// True when every pixel's alpha is 255.
    var isOpaque: Bool {
        rgba.withUnsafeBufferPointer { px in
            var index = 3
            while index < px.count {
                if px[index] != 255 { return false }
                index += 4
            }
            return true
        }
    }

    /// True when the picture has at most 256 colours (a drawing, a screenshot, a flat badge-only area): PNG
    /// keeps it exact and small.
    var hasFewColors: Bool {
        var seen = Set<UInt32>()
        return rgba.withUnsafeBufferPointer { px in
            var index = 0
            while index + 2 < px.count {
                seen.insert(UInt32(px[index]) << 16 | UInt32(px[index + 1]) << 8 | UInt32(px[index + 2]))
                if seen.count > 256 { return false }
                index += 4
            }
            return true
        }
    }
}
