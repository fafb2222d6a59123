import MediaFormats

/// PNG, WebP, GIF, TIFF and BMP go through the libav layer (the `video` branch's LibavImageDecoder).
enum OtherStillDecoder {
    static func decode(source: any ByteSource, info: MediaInfo, box: PixelSize) throws(ImagingError) -> DecodedImage {
        throw ImagingError.unsupportedFormat("\(info.format.rawValue) (libav still decoding not merged yet)")
    }
}
