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

    /// Decodes any byte source described by `info` (from `MediaProbe.probe`). Failures come out in the user's
    /// terms (`ImagingError.problem`): the format named, "ends early" told apart from "corrupt", a file that
    /// is no picture said to be text, HTML, empty...
    public static func decode(source: any ByteSource, info: MediaInfo, fitting box: PixelSize,
                              options: DecodeOptions = .default) throws(ImagingError) -> DecodedImage
    {
        // Trust the bytes over a probe that may have failed: sniff again when the probe said unknown.
        var format = info.format
        if format == .unknown, let head = try? source.read(at: 0, count: 16) { format = MediaProbe.sniff(head) }   // try?: unread = unknown, the decode says why
        do {
            return try decode(source: source, format: format, info: info, box: box, options: options)
        } catch {
            throw error.about(format).refined(by: source)
        }
    }

    /// More pixels than this in a libav still's header is refused before decoding (800 MB of RGBA).
    static var maxLibavPixels: Int64 { LibavFrameSource.maximumPixels }

    private static func decode(source: any ByteSource, format: ContainerFormat, info: MediaInfo, box: PixelSize,
                               options: DecodeOptions) throws(ImagingError) -> DecodedImage
    {
        guard box.width > 0, box.height > 0 else { throw ImagingError(.other("cannot draw a picture of size \(box)")) }
        switch format {
        case .jpeg:
            return try JPEGDecoder.decode(source: source, info: info, box: box, options: options)
        case .heif:
            return try HEIFDecoder.decode(source: source, info: info, box: box, options: options)
        case .png, .gif, .webp, .tiff, .bmp:
            // The probe read the header's size: an absurd one is "too large", not whatever libav says of it.
            // Multiplied with overflow checking: two 32-bit sizes overflow Int64 (found by the decode fuzzer).
            if let width = info.pixelWidth, let height = info.pixelHeight,
               case let (pixels, overflow) = Int64(width).multipliedReportingOverflow(by: Int64(height)),
               overflow || pixels > maxLibavPixels {
                throw ImagingError.tooLarge(width: width, height: height)
            }
            return try OtherStillDecoder.decode(source: source, info: info, box: box)
        case .quickTime, .mp4:
            throw ImagingError(.movieNotPicture(format: PictureProblem.formatName(format)))
        case .unknown:
            let head = (try? source.read(at: 0, count: ContentGuess.sniffBytes)) ?? []   // try?: only refines the sentence
            throw ImagingError(.notAPicture(ContentGuess.guess(head)))
        }
    }
}
