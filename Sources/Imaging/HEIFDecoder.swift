import CHeif
import MediaFormats

/// HEIC/HEIF stills: the primary image's thumbnail item when it covers the requested size, else the primary
/// image. HEVC-coded images (`hvc1`, grids of them) go through libavcodec tile by tile, straight to the
/// requested size (HEIFDecoder+HEVC.swift); anything else, and anything that path refuses, through libheif.
/// Both apply irot/imir/clap, so the result is already upright: Exif Orientation must NOT be applied again
/// (HEIF writers keep it only for readers that ignore irot).
enum HEIFDecoder {
    static func decode(source: any ByteSource, info: MediaInfo, box: PixelSize, options: DecodeOptions)
        throws(ImagingError) -> DecodedImage
    {
        // try?: libheif below is the fallback for every failure of the libav path (DECISIONS.md, Pixels).
        if let decoded = try? decodeWithLibav(source: source, box: box, options: options) { return decoded }
        return try decodeWithLibheif(source: source, box: box, options: options)
    }

    /// The whole file through libheif (which assembles grid tiles at full size, then we shrink).
    static func decodeWithLibheif(source: any ByteSource, box: PixelSize, options: DecodeOptions)
        throws(ImagingError) -> DecodedImage
    {
        if let problem = CodecLibraries.heifProblem { throw ImagingError.cannotDecode("libheif is unavailable: \(problem)") }
        let bytes = try JPEGDecoder.readAll(source)
        // withUnsafeBytes is `rethrows`, which erases typed errors: carry them out in a Result.
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(ImagingError) -> DecodedImage in
                try decode(memory: raw, box: box, options: options)
            }
        }
        return try result.get()
    }

    /// `memory` must stay valid for the whole call: libheif reads it without copying.
    private static func decode(memory raw: UnsafeRawBufferPointer, box: PixelSize, options: DecodeOptions)
        throws(ImagingError) -> DecodedImage
    {
            guard let base = raw.baseAddress else { throw ImagingError.cannotDecode("empty HEIF") }
            let context = try Context()
            try check(heif_context_read_from_memory_without_copy(context.raw, base, raw.count, nil), "HEIF container")
            var primaryRaw: OpaquePointer?
            try check(heif_context_get_primary_image_handle(context.raw, &primaryRaw), "HEIF primary image")
            guard let primaryPointer = primaryRaw else { throw ImagingError.cannotDecode("HEIF has no primary image") }
            let primary = ImageHandle(primaryPointer)
            let fullSize = primary.size   // already transformed (rotated) by libheif
            guard fullSize.width > 0, fullSize.height > 0 else {
                throw ImagingError.cannotDecode("HEIF primary image has no size")
            }
            let target = fullSize.fittedDown(in: box)

            // try?: a thumbnail that cannot be decoded is no thumbnail; the primary image is decoded below.
            if options.useEmbeddedThumbnails, let thumbnail = primary.largestThumbnail(),
               options.embeddedThumbnail(thumbnail.size, serves: target, of: fullSize),
               let frame = try? thumbnail.decodeRGBA()   // try?: see above
            {
                let fitted = frame.size.covers(target) ? frame.resized(to: target) : frame
                return DecodedImage(frame: fitted, path: .heifThumbnail, fullSize: fullSize)
            }
            let frame = try primary.decodeRGBA()
            return DecodedImage(frame: frame.resized(to: target), path: .heifPrimary, fullSize: fullSize)
    }

    static func check(_ error: heif_error, _ what: String) throws(ImagingError) {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        throw ImagingError.cannotDecode("\(what): \(message)")
    }

    final class Context {
        let raw: OpaquePointer
        init() throws(ImagingError) {
            guard let c = heif_context_alloc() else { throw ImagingError.cannotDecode("libheif could not start") }
            raw = c
        }
        deinit { heif_context_free(raw) }
    }

    final class ImageHandle {
        let raw: OpaquePointer
        init(_ raw: OpaquePointer) { self.raw = raw }
        deinit { heif_image_handle_release(raw) }

        var size: PixelSize {
            PixelSize(width: Int(heif_image_handle_get_width(raw)), height: Int(heif_image_handle_get_height(raw)))
        }

        /// The biggest thumbnail item of this image (files usually have 0 or 1).
        func largestThumbnail() -> ImageHandle? {
            let count = Int(heif_image_handle_get_number_of_thumbnails(raw))
            guard count > 0, count <= 64 else { return nil }
            var ids = [heif_item_id](repeating: 0, count: count)
            let got = Int(heif_image_handle_get_list_of_thumbnail_IDs(raw, &ids, Int32(count)))
            var best: ImageHandle?
            for id in ids.prefix(max(0, min(got, count))) {
                var out: OpaquePointer?
                guard heif_image_handle_get_thumbnail(raw, id, &out).code == heif_error_Ok, let h = out else { continue }
                let handle = ImageHandle(h)
                if best == nil || handle.size.pixelCount > best!.size.pixelCount { best = handle }
            }
            return best
        }

        /// Decodes to interleaved RGBA with libheif's default (transformations applied).
        func decodeRGBA() throws(ImagingError) -> PixelFrame {
            var imageRaw: OpaquePointer?
            try HEIFDecoder.check(heif_decode_image(raw, &imageRaw, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, nil),
                                  "HEIF image data")
            guard let image = imageRaw else { throw ImagingError.cannotDecode("HEIF decoder returned no image") }
            defer { heif_image_release(image) }
            let w = Int(heif_image_get_width(image, heif_channel_interleaved))
            let h = Int(heif_image_get_height(image, heif_channel_interleaved))
            var stride: Int32 = 0
            guard w > 0, h > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
                  Int(stride) >= w * 4
            else {
                throw ImagingError.cannotDecode("HEIF decoder returned no RGBA plane")
            }
            var rgba = [UInt8](repeating: 0, count: w * h * 4)
            rgba.withUnsafeMutableBytes { dst in
                for y in 0..<h {
                    (dst.baseAddress! + y * w * 4).copyMemory(from: plane + y * Int(stride), byteCount: w * 4)
                }
            }
            return PixelFrame(width: w, height: h, rgba: rgba)
        }
    }
}
