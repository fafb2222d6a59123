/// An animated WebP's first frame, rewritten as a still WebP that any WebP decoder reads.
///
/// Why by hand: FFmpeg 5.1's WebP decoder (Debian 12's, which livegrid decodes with) knows no `ANIM`/`ANMF`
/// chunks and calls every animated WebP corrupt; libwebp's demuxer would be one more library loaded for one
/// chunk walk. The container is plain RIFF: the first `ANMF` chunk holds a 16-byte frame header, then the
/// frame's own `ALPH` (optional) and `VP8 ` or `VP8L` chunks, which become the still's only chunks (under a
/// `VP8X` header when there is an alpha plane). The frame's offset on the canvas is dropped: the still is the
/// first frame's own rectangle, as timg shows it.
public enum WebPAnimation {
    /// Frame data larger than this is not a first frame worth showing (the limit of a WebP frame is 16383 px
    /// square; lossless at 4 bytes a pixel stays far below it).
    public static let maximumFrameBytes = 64 << 20

    /// True when the file starts with a `VP8X` header whose animation flag is set.
    public static func isAnimated(_ source: any ByteSource) -> Bool {
        guard let head = try? source.read(at: 0, count: 21), head.count == 21 else { return false }   // try?: too short is "not animated"
        return Array(head[0..<4]) == riff && Array(head[8..<12]) == webp && Array(head[12..<16]) == vp8x && head[20] & 0x02 != 0
    }

    /// The first frame as the bytes of a still WebP file, or nil when the file is not an animated WebP, or its
    /// chunks are cut short or lie about their sizes.
    public static func firstFrameStill(_ source: any ByteSource) -> [UInt8]? {
        guard isAnimated(source) else { return nil }
        var offset: UInt64 = 12
        while offset + 8 <= source.size {
            guard let header = try? source.read(at: offset, count: 8), header.count == 8 else { return nil }   // try?: a read error ends the walk
            let size = UInt64(littleEndian32(header, 4))
            let payload = offset + 8
            guard payload + size <= source.size else { return nil }
            if Array(header[0..<4]) == anmf {
                return frame(source, at: payload, size: size)
            }
            offset = payload + size + (size & 1)
        }
        return nil
    }

    private static func frame(_ source: any ByteSource, at start: UInt64, size: UInt64) -> [UInt8]? {
        guard size >= 16 + 8, size <= UInt64(maximumFrameBytes),
              let bytes = try? source.read(at: start, count: Int(size)), bytes.count == Int(size) else { return nil }   // try?: unreadable is no frame
        let width = Int(littleEndian24(bytes, 6)) + 1, height = Int(littleEndian24(bytes, 9)) + 1
        var alpha: ArraySlice<UInt8>?
        var position = 16
        while position + 8 <= bytes.count {
            let fourCC = Array(bytes[position..<position + 4])
            let length = Int(littleEndian32(bytes, position + 4))
            let end = position + 8 + length
            guard length >= 0, end <= bytes.count else { return nil }
            let chunk = bytes[position..<end]
            if fourCC == alph {
                alpha = chunk
            } else if fourCC == vp8l {
                return still(chunks: [chunk])
            } else if fourCC == vp8 {
                guard let alpha else { return still(chunks: [chunk]) }
                var header = vp8x + [10, 0, 0, 0, 0x10, 0, 0, 0]
                header += littleEndian24Bytes(width - 1) + littleEndian24Bytes(height - 1)
                return still(chunks: [header[...], padded(alpha), chunk])
            }
            position = end + (length & 1)
        }
        return nil
    }

    private static func still(chunks: [ArraySlice<UInt8>]) -> [UInt8] {
        let body = chunks.map(padded).reduce(into: webp) { $0 += $1 }
        return riff + littleEndian32Bytes(body.count) + body
    }

    /// RIFF chunks are padded to an even length.
    private static func padded(_ chunk: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        chunk.count.isMultiple(of: 2) ? chunk : chunk + [0]
    }

    private static let riff = Array("RIFF".utf8), webp = Array("WEBP".utf8), vp8x = Array("VP8X".utf8)
    private static let anmf = Array("ANMF".utf8), alph = Array("ALPH".utf8), vp8 = Array("VP8 ".utf8), vp8l = Array("VP8L".utf8)

    private static func littleEndian32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
    private static func littleEndian24(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16
    }
    private static func littleEndian32Bytes(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
    private static func littleEndian24Bytes(_ value: Int) -> [UInt8] {
        (0..<3).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
