import MediaFormats

/// The libavcodec path for HEVC-coded HEIF images: reads the `meta` box, decodes the thumbnail item or the
/// primary image's tiles straight to the requested size (HEVCTileGrid), then applies clap/irot/imir on the
/// small result. Throws for anything it does not handle (av01, alpha, grids of other grids, unknown
/// essential properties, corrupt data): the caller falls back to libheif.
extension HEIFDecoder {
    static func decodeWithLibav(source: any ByteSource, box: PixelSize, options: DecodeOptions,
                                limits: ParseLimits = .default) throws(ImagingError) -> DecodedImage {
        let meta: HEIFMeta
        let primary: HEIFCodedImage
        do throws(MediaError) {
            meta = try HEIFMeta.load(from: source, limits: limits)
            guard let primaryID = meta.primaryItemID else { throw MediaError.invalid("no primary item (pitm)") }
            primary = try meta.codedImage(primaryID, source: source, limits: limits, allowingMissingTiles: true)
        } catch {
            throw ImagingError(error)
        }
        guard let fullSize = primary.uprightSize else { throw ImagingError.cannotDecode("HEIF clap leaves no picture") }
        let target = fullSize.fittedDown(in: box)

        // try?: a thumbnail that cannot be rendered is no thumbnail; the primary image is decoded below.
        if options.useEmbeddedThumbnails, let thumbnail = largestThumbnail(of: primary.itemID, in: meta, source: source, limits: limits),
           let thumbnailSize = thumbnail.uprightSize,
           options.embeddedThumbnail(thumbnailSize, serves: target, of: fullSize),
           let (frame, thumbnailDamage) = try? render(thumbnail, source: source,   // try?: see above
                                                      upright: thumbnailSize.covers(target) ? target : thumbnailSize, limits: limits),
           thumbnailDamage == nil
        {
            return DecodedImage(frame: frame, path: .heifThumbnail, fullSize: fullSize)
        }
        let (frame, damage) = try render(primary, source: source, upright: target, limits: limits)
        // Tiles that could not be decoded are grey: the picture is shown, marked damaged.
        return DecodedImage(frame: frame, path: .heifPrimary, fullSize: fullSize,
                            damage: damage?.about(.heif).refined(by: source))
    }

    /// The biggest HEVC thumbnail item of `itemID` (files usually have 0 or 1).
    private static func largestThumbnail(of itemID: UInt32, in meta: HEIFMeta, source: any ByteSource,
                                         limits: ParseLimits) -> HEIFCodedImage? {
        meta.items(referring: "thmb", to: itemID).prefix(64)
            .compactMap { try? meta.codedImage($0, source: source, limits: limits) }   // try?: an unusable candidate is skipped
            .max { $0.width * $0.height < $1.width * $1.height }
    }

    /// Draws `image` so that, once its transforms are applied, it is `target` (its upright size, or less).
    /// The tiles are scaled while drawing; the transforms then work on the small picture.
    static func render(_ image: HEIFCodedImage, source: any ByteSource, upright target: PixelSize,
                       limits: ParseLimits) throws(ImagingError) -> (PixelFrame, damage: ImagingError?) {
        guard let upright = image.uprightSize, !target.isEmpty else { throw ImagingError.cannotDecode("HEIF clap leaves no picture") }
        if let colour = image.colour, colour.matrixCoefficients == 0 {
            throw ImagingError.unsupportedFormat("HEIF with RGB (identity matrix) coding")
        }
        let scaleX = Double(target.width) / Double(upright.width), scaleY = Double(target.height) / Double(upright.height)
        let (canvasScaleX, canvasScaleY) = image.swapsAxes ? (scaleY, scaleX) : (scaleX, scaleY)
        let canvas = PixelSize(width: min(image.width, max(1, Int((Double(image.width) * canvasScaleX).rounded()))),
                               height: min(image.height, max(1, Int((Double(image.height) * canvasScaleY).rounded()))))
        var (frame, damage) = try HEVCTileGrid(image: image, limits: limits).render(source: source, size: canvas)
        // The full-size dimensions the transforms are defined on, followed alongside the small frame.
        var full = PixelSize(width: image.width, height: image.height)
        for transform in image.transforms {
            switch transform {
            case .cleanAperture(let clap):
                guard let crop = clap.cropRectangle(width: full.width, height: full.height) else {
                    throw ImagingError.cannotDecode("HEIF clap leaves no picture")
                }
                frame = frame.cropped(fromFullSize: full, rectangle: crop)
                full = PixelSize(width: crop.width, height: crop.height)
            case .rotation(let quarterTurns):
                frame = frame.rotated(clockwiseDegrees: -90 * quarterTurns)
                if quarterTurns % 2 == 1 { full = full.transposed }
            case .mirror(let axis):
                frame = axis == 0 ? frame.flippedHorizontally() : frame.flippedVertically()
            default:
                break
            }
        }
        return (frame.size == target ? frame : frame.resized(to: target), damage)
    }
}

extension HEIFCodedImage {
    /// The displayed size (after clap and irot).
    var uprightSize: PixelSize? { displaySize.map { PixelSize(width: $0.width, height: $0.height) } }

    /// True when the transforms turn the picture an odd number of quarter turns.
    var swapsAxes: Bool {
        transforms.reduce(false) { swapped, transform in
            if case .rotation(let quarterTurns) = transform, quarterTurns % 2 == 1 { return !swapped }
            return swapped
        }
    }
}

extension PixelFrame {
    /// The part of this frame that `rectangle` (in a `fullSize` picture this frame is a scaled copy of)
    /// covers, edges rounded to this frame's pixels, at least one pixel.
    func cropped(fromFullSize fullSize: PixelSize, rectangle: (x: Int, y: Int, width: Int, height: Int)) -> PixelFrame {
        func span(_ start: Int, _ length: Int, _ full: Int, _ actual: Int) -> (Int, Int) {
            let scale = Double(actual) / Double(max(1, full))
            let first = min(actual - 1, max(0, Int((Double(start) * scale).rounded())))
            let end = min(actual, max(first + 1, Int((Double(start + length) * scale).rounded())))
            return (first, end - first)
        }
        guard width > 0, height > 0 else { return self }
        let (x, w) = span(rectangle.x, rectangle.width, fullSize.width, width)
        let (y, h) = span(rectangle.y, rectangle.height, fullSize.height, height)
        if x == 0, y == 0, w == width, h == height { return self }
        var output = [UInt8](repeating: 0, count: w * h * 4)
        rgba.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                guard let source = input.baseAddress, let destination = out.baseAddress else { return }
                for row in 0..<h {
                    (destination + row * w * 4).copyMemory(from: source + ((y + row) * width + x) * 4, byteCount: w * 4)
                }
            }
        }
        return PixelFrame(width: w, height: h, rgba: output)
    }
}
