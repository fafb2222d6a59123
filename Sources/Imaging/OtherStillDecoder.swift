import MediaFormats

/// PNG, WebP, GIF (first frame), TIFF and BMP through the libav layer. Their orientation, if any, is not
/// in MediaInfo for these formats, so the pixels are shown as stored.
enum OtherStillDecoder {
    static func decode(source: any ByteSource, info: MediaInfo, box: PixelSize) throws(ImagingError) -> DecodedImage {
        let decoded: LibavImageDecoder.Decoded
        // libav 5.1 reads no animated WebP: its first frame is handed over as a still WebP (as timg shows it).
        let firstFrame = info.format == .webp ? WebPAnimation.firstFrameStill(source).map(MemoryByteSource.init) : nil
        do {
            decoded = try LibavImageDecoder.decodeFirst(source: firstFrame ?? source, maxSize: box)
        } catch {
            throw ImagingError(error)
        }
        let full = info.pixelWidth.flatMap { w in info.pixelHeight.map { PixelSize(width: w, height: $0) } }
        // libav drew a picture from a damaged file (a GIF cut part-way gives its first rows): show it, and
        // say it is damaged, as ImageMagick and browsers do.
        var damage: ImagingError?
        if FileEnd.isCutShort(source, format: info.format) {
            damage = ImagingError(.damaged(format: PictureProblem.formatName(info.format), .endsEarly),
                                  detail: decoded.corruption.map { "libav: \($0)" } ?? "the file is shorter than its structure says")
        } else if let corruption = decoded.corruption {
            damage = ImagingError(.damaged(format: PictureProblem.formatName(info.format), .corruptData), detail: "libav: \(corruption)")
        }
        return DecodedImage(frame: decoded.frame, path: .libav, fullSize: full, damage: damage)
    }
}
