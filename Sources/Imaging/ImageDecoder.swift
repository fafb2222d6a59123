import MediaFormats

/// The one entry point for stills: any supported file → an upright `PixelFrame` fitted into a pixel box,
/// decoded at the smallest size that covers the box (never the full image when a small one is asked).
public enum ImageDecoder {
    /// Stills larger than this are refused before reading (a 12 MP HEIC is ~2-5 MB, a 100 MP JPEG ~40 MB).
    public static let maxFileBytes: UInt64 = 512 << 20

    /// Decodes a file; probes it first when `info` is nil.
    public static func decode(path: String, info: MediaInfo? = nil, fitting box: PixelSize,
                              options: DecodeOptions = .default) throws(ImagingError) -> DecodedImage
    {
        let source: FileByteSource
        do {
            source = try FileByteSource(path: path)
        } catch {
            throw ImagingError(error)
        }
        return try decode(source: source, info: info ?? MediaProbe.probe(source), fitting: box, options: options)
    }

    /// Decodes any byte source described by `info` (from `MediaProbe.probe`).
    public static func decode(source: any ByteSource, info: MediaInfo, fitting box: PixelSize,
                              options: DecodeOptions = .default) throws(ImagingError) -> DecodedImage
    {
        guard box.width > 0, box.height > 0 else { throw ImagingError.cannotDecode("empty target size \(box)") }
        // Trust the bytes over a probe that may have failed: sniff again when the probe said unknown.
        var format = info.format
        if format == .unknown, let head = try? source.read(at: 0, count: 16) { format = MediaProbe.sniff(head) }
        switch format {
        case .jpeg:
            return try JPEGDecoder.decode(source: source, info: info, box: box, options: options)
        case .heif:
            return try HEIFDecoder.decode(source: source, info: info, box: box, options: options)
        case .png, .gif, .webp, .tiff, .bmp:
            return try OtherStillDecoder.decode(source: source, info: info, box: box)
        case .quickTime, .mp4:
            throw ImagingError.unsupportedFormat("\(format.rawValue) (a movie, not a still)")
        case .unknown:
            throw ImagingError.unsupportedFormat("unrecognised file signature")
        }
    }
}
