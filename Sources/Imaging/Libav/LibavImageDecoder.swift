import CFFmpeg
import MediaFormats

/// Decodes still images libavcodec knows (PNG, WebP, GIF's first frame, TIFF, BMP, ...) through
/// libavformat's image demuxers, which probe the bytes themselves (image2pipe-style), so no file name or
/// extension is needed. JPEG and HEIC have their own faster decoders elsewhere in Imaging.
public enum LibavImageDecoder {
    /// The first frame of the image in `source`, fitted inside `maxSize` keeping its aspect ratio (never
    /// enlarged; nil = full size). Throws `LibavError` ("cannot decode: ...") for data it cannot read.
    public static func decodeFirstFrame(source: any ByteSource, maxSize: PixelSize? = nil) throws(LibavError) -> PixelFrame {
        try decodeFirst(source: source, maxSize: maxSize).frame
    }

    /// A first frame and, when libav flagged it as damaged, what it said.
    struct Decoded {
        var frame: PixelFrame
        var corruption: String?
    }

    static func decodeFirst(source: any ByteSource, maxSize: PixelSize?) throws(LibavError) -> Decoded {
        if let maxSize, maxSize.isEmpty { throw LibavError.invalidArgument("maximum size \(maxSize)") }
        let input = try LibavInput(source: source)
        let (stream, decoder) = try input.bestVideoStream()
        if let parameters = stream.pointee.codecpar,
           Int64(parameters.pointee.width) * Int64(parameters.pointee.height) > LibavFrameSource.maximumPixels {
            throw LibavError.tooLarge(width: Int(parameters.pointee.width), height: Int(parameters.pointee.height))
        }
        // One thread: a single still gains nothing from frame threading and would pay its start-up.
        // Damaged frames are wanted: a partly decoded picture beats none (the caller marks it damaged).
        let frames = try LibavFrameSource(input: input, stream: stream, decoder: decoder, threadCount: 1,
                                          outputCorrupt: true)
        guard let frame = try frames.nextFrame() else {
            throw LibavError.noVideoStream("no picture in \(input.formatName) data")
        }
        let full = PixelSize(width: Int(frame.pointee.width), height: Int(frame.pointee.height))
        guard !full.isEmpty else { throw LibavError.unsupported("image size \(full)") }
        guard full.width <= 65535, full.height <= 65535 else { throw LibavError.tooLarge(width: full.width, height: full.height) }
        let size = maxSize.map { full.fitting(inside: $0, allowUpscale: false) } ?? full
        var corruption: String?
        if frame.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 || frame.pointee.decode_error_flags != 0 {
            corruption = "frame flagged corrupt (decode_error_flags \(frame.pointee.decode_error_flags))"
        } else if frames.damagedPackets > 0 {
            corruption = "\(frames.damagedPackets) damaged packet(s) skipped"
        }
        return Decoded(frame: try FrameScaler().scale(frame, to: size), corruption: corruption)
    }

    /// Convenience: decodes a file by path.
    public static func decodeFirstFrame(path: String, maxSize: PixelSize? = nil) throws(LibavError) -> PixelFrame {
        let source = try LibavInput.openFile(path)
        return try decodeFirstFrame(source: source, maxSize: maxSize)
    }
}
