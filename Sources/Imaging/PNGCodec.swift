import CPNG
import Glibc

/// PNG encode/decode with libpng's simplified API (errors come back in the struct, no longjmp), plus the
/// tEXt chunks the freedesktop thumbnail spec needs, written and read in Swift (`PNGChunks`).
public enum PNGCodec {
    /// Pictures above this many pixels are refused when reading (thumbnails are at most 1024x1024).
    public static let maxDecodePixels = 64_000_000

    /// Encodes `frame` as an 8-bit RGBA PNG carrying `text` as tEXt chunks (in the given order).
    public static func encode(_ frame: PixelFrame, text: [(key: String, value: String)] = []) throws(ImagingError) -> [UInt8] {
        try PNGChunks.inserting(text: text, into: encodePixels(frame, opaque: false))
    }

    /// Encodes `frame` as an 8-bit PNG, RGB when `opaque` (its alpha dropped: a quarter fewer bytes to deflate).
    /// `fast`: no row filters and deflate level 3 (libpng's PNG_IMAGE_FLAG_FAST); else libpng's adaptive
    /// filters and default level, smaller and slower.
    public static func encodePixels(_ frame: PixelFrame, opaque: Bool, fast: Bool = true) throws(ImagingError) -> [UInt8] {
        guard frame.width > 0, frame.height > 0 else { throw ImagingError.cannotEncode("empty picture") }
        var image = png_image()
        image.version = lg_png_image_version()
        image.width = UInt32(frame.width)
        image.height = UInt32(frame.height)
        image.format = opaque ? lg_png_format_rgb() : lg_png_format_rgba()
        // Speed over size: the default (maximum effort, all filters) spent 40 ms deflating one 256 px
        // thumbnail, more than decoding the photo.
        image.flags = fast ? lg_png_image_flag_fast() : 0
        let pixels: [UInt8]
        let rowBytes: Int
        if opaque {
            var rgb = [UInt8](repeating: 0, count: frame.width * frame.height * 3)
            frame.rgba.withUnsafeBufferPointer { src in
                rgb.withUnsafeMutableBufferPointer { dst in
                    for i in 0..<(frame.width * frame.height) {
                        dst[i * 3] = src[i * 4]
                        dst[i * 3 + 1] = src[i * 4 + 1]
                        dst[i * 3 + 2] = src[i * 4 + 2]
                    }
                }
            }
            pixels = rgb
            rowBytes = frame.width * 3
        } else {
            pixels = frame.rgba
            rowBytes = frame.rowBytes
        }
        // One deflate, into a buffer of libpng's own upper bound (PNG_IMAGE_PNG_SIZE_MAX: zlib's deflateBound
        // of the filtered rows, plus the chunks' headers). Measuring first (a call with no buffer) deflated
        // every picture twice: half of a kitty movie frame's encoding time (issue 28.4).
        let filtered = (rowBytes + 1) * frame.height
        var size = png_alloc_size_t(filtered + (filtered + 7) / 8 + (filtered + 63) / 64 + 11
                                    + 12 * (filtered / 4096 + 1) + 1024)
        var out = [UInt8](repeating: 0, count: Int(size))
        var written = write(&image, into: &out, size: &size, pixels: pixels, rowBytes: rowBytes)
        if written == 0, Int(size) > out.count {
            // libpng says the bound was too small (another zlib than zlib's own): once more at the size it needs.
            out = [UInt8](repeating: 0, count: Int(size))
            written = write(&image, into: &out, size: &size, pixels: pixels, rowBytes: rowBytes)
        }
        guard written != 0 else { throw ImagingError.cannotEncode(message(of: &image)) }
        out.removeSubrange(Int(size)...)
        return out
    }

    private static func write(_ image: inout png_image, into out: inout [UInt8], size: inout png_alloc_size_t,
                              pixels: [UInt8], rowBytes: Int) -> Int32 {
        size = png_alloc_size_t(out.count)
        return out.withUnsafeMutableBytes { dst in
            pixels.withUnsafeBytes { px in
                png_image_write_to_memory(&image, dst.baseAddress, &size, 0, px.baseAddress, Int32(rowBytes), nil)
            }
        }
    }

    /// Encodes `frame` for a movie frame: every row with PNG's Sub filter, deflated at zlib level 1. On
    /// train.mov's frames at 293x220 this was within 1-5 % of the most-effort PNG's size and 20-40x faster
    /// (3 ms against 60-110 ms, which made a kitty frame's render twice its frame time); the unfiltered fast
    /// PNG was 28 % larger (issue 28.4, DECISIONS "link28c").
    public static func encodeForSpeed(_ frame: PixelFrame, opaque: Bool) throws(ImagingError) -> [UInt8] {
        guard frame.width > 0, frame.height > 0 else { throw ImagingError.cannotEncode("empty picture") }
        let (pixels, rowBytes) = opaque ? (rgb(of: frame), frame.width * 3) : (frame.rgba, frame.rowBytes)
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = pixels.withUnsafeBufferPointer { px in
            lg_png_encode_sub_filtered(px.baseAddress, UInt32(frame.width), UInt32(frame.height), rowBytes,
                                       opaque ? 3 : 4, 1, &out, &size)
        }
        guard status == 0, let out else { throw ImagingError.cannotEncode("libpng could not write the picture") }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    private static func rgb(of frame: PixelFrame) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: frame.width * frame.height * 3) { rgb, initialized in
            frame.rgba.withUnsafeBufferPointer { src in
                for i in 0..<(frame.width * frame.height) {
                    rgb[i * 3] = src[i * 4]
                    rgb[i * 3 + 1] = src[i * 4 + 1]
                    rgb[i * 3 + 2] = src[i * 4 + 2]
                }
            }
            initialized = frame.width * frame.height * 3
        }
    }

    /// Decodes a PNG to RGBA (any PNG colour type is converted by libpng).
    public static func decode(_ bytes: [UInt8]) throws(ImagingError) -> PixelFrame {
        var image = png_image()
        image.version = lg_png_image_version()
        let began = bytes.withUnsafeBytes { raw in
            png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
        }
        guard began != 0 else { throw ImagingError.cannotDecode("PNG: \(message(of: &image))") }
        defer { png_image_free(&image) }
        let w = Int(image.width), h = Int(image.height)
        guard w > 0, h > 0, w <= maxDecodePixels / h else {
            throw ImagingError.tooLarge(width: w, height: h)
        }
        image.format = lg_png_format_rgba()
        var rgba = [UInt8](repeating: 0, count: w * h * 4)
        let finished = rgba.withUnsafeMutableBytes { dst in
            png_image_finish_read(&image, nil, dst.baseAddress, Int32(w * 4), nil)
        }
        guard finished != 0 else { throw ImagingError.cannotDecode("PNG: \(message(of: &image))") }
        return PixelFrame(width: w, height: h, rgba: rgba)
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let chars = raw.prefix(while: { $0 != 0 })
            return chars.isEmpty ? "libpng error" : String(decoding: chars, as: UTF8.self)
        }
    }
}
