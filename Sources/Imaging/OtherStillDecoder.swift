import MediaFormats

/// PNG, WebP, GIF (first frame), TIFF and BMP through the libav layer. Their orientation, if any, is not
/// in MediaInfo for these formats, so the pixels are shown as stored.
enum OtherStillDecoder {
    static func decode(source: any ByteSource, info: MediaInfo, box: PixelSize) throws(ImagingError) -> DecodedImage {
        do {
            let frame = try LibavImageDecoder.decodeFirstFrame(source: source, maxSize: box)
            let full = info.pixelWidth.flatMap { w in info.pixelHeight.map { PixelSize(width: w, height: $0) } }
            return DecodedImage(frame: frame, path: .libav, fullSize: full)
        } catch {
            throw ImagingError.cannotDecode("\(info.format.rawValue): \(error.description)")
        }
    }
}
