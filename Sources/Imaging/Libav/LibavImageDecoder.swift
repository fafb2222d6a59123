import CFFmpeg
import MediaFormats

/// Decodes still images libavcodec knows (PNG, WebP, GIF's first frame, TIFF, BMP, ...) through
/// libavformat's image demuxers, which probe the bytes themselves (image2pipe-style), so no file name or
/// extension is needed. JPEG and HEIC have their own faster decoders elsewhere in Imaging.
public enum LibavImageDecoder {
    /// The first frame of the image in `source`, fitted inside `maxSize` keeping its aspect ratio (never
    /// enlarged; nil = full size). Throws `LibavError` ("cannot decode: ...") for data it cannot read.
    public static func decodeFirstFrame(source: any ByteSource, maxSize: PixelSize? = nil) throws(LibavError) -> PixelFrame {
        if let maxSize, maxSize.isEmpty { throw LibavError.invalidArgument("maximum size \(maxSize)") }
        let input = try LibavInput(source: source)
        let (stream, decoder) = try input.bestVideoStream()
        if let parameters = stream.pointee.codecpar,
           Int64(parameters.pointee.width) * Int64(parameters.pointee.height) > LibavFrameSource.maximumPixels {
            throw LibavError.unsupported("image size \(parameters.pointee.width)x\(parameters.pointee.height) (over the pixel limit)")
        }
        // One thread: a single still gains nothing from frame threading and would pay its start-up.
        let frames = try LibavFrameSource(input: input, stream: stream, decoder: decoder, threadCount: 1)
        guard let frame = try frames.nextFrame() else {
            throw LibavError.noVideoStream("no picture in \(input.formatName) data")
        }
        let full = PixelSize(width: Int(frame.pointee.width), height: Int(frame.pointee.height))
        guard !full.isEmpty, full.width <= 65535, full.height <= 65535 else {
            throw LibavError.unsupported("image size \(full)")
        }
        let size = maxSize.map { full.fitting(inside: $0, allowUpscale: false) } ?? full
        return try FrameScaler().scale(frame, to: size)
    }

    /// Convenience: decodes a file by path.
    public static func decodeFirstFrame(path: String, maxSize: PixelSize? = nil) throws(LibavError) -> PixelFrame {
        let source = try LibavInput.openFile(path)
        return try decodeFirstFrame(source: source, maxSize: maxSize)
    }
}
