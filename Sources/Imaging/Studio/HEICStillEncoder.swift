import CHeif
import MediaFormats

/// HEIC stills for the studio through libheif's encoder (x265 in Debian's libheif 1.15), carrying the Exif
/// of the original HEIC (its Exif item, read back with libheif).
extension RGBImage {
    /// This picture as a HEIC (quality 90) with `exifOf`'s Exif item copied in, when it has one.
    public func heic(exifOf original: [UInt8]? = nil, quality: Int32 = 90) throws(LibavError) -> [UInt8] {
        if let problem = CodecLibraries.heifProblem { throw LibavError.unsupported("libheif is unavailable: \(problem)") }
        // The new pixels are upright: Orientation 1 (an Exif that cannot be edited travels unchanged).
        let exif = try original.flatMap { (bytes) throws(LibavError) -> [UInt8]? in try Self.exifTIFF(ofHEIC: bytes) }
            .map { tiff in (try? MediaWriting.exifTIFFUpright(tiff)) ?? tiff }   // try?: see above
        let context = try HEIFDecoder.Context.studio()
        var encoderRaw: OpaquePointer?
        try Self.check(heif_context_get_encoder_for_format(context.raw, heif_compression_HEVC, &encoderRaw), "HEVC encoder")
        guard let encoder = encoderRaw else { throw LibavError.unsupported("libheif has no HEVC encoder") }
        defer { heif_encoder_release(encoder) }
        try Self.check(heif_encoder_set_lossy_quality(encoder, quality), "encoder quality")
        var imageRaw: OpaquePointer?
        try Self.check(heif_image_create(Int32(width), Int32(height), heif_colorspace_RGB, heif_chroma_interleaved_RGB, &imageRaw), "image")
        guard let image = imageRaw else { throw LibavError.outOfMemory("heif_image") }
        defer { heif_image_release(image) }
        try Self.check(heif_image_add_plane(image, heif_channel_interleaved, Int32(width), Int32(height), 8), "image plane")
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else { throw LibavError.outOfMemory("heif plane") }
        rgb.withUnsafeBufferPointer { pixels in
            for row in 0..<height {
                (plane + row * Int(stride)).update(from: pixels.baseAddress! + row * width * 3, count: width * 3)
            }
        }
        var handleRaw: OpaquePointer?
        try Self.check(heif_context_encode_image(context.raw, image, encoder, nil, &handleRaw), "encoding")
        guard let handle = handleRaw else { throw LibavError.unsupported("libheif returned no image") }
        defer { heif_image_handle_release(handle) }
        if let exif {
            let added = exif.withUnsafeBytes { heif_context_add_exif_metadata(context.raw, handle, $0.baseAddress, Int32($0.count)) }
            try Self.check(added, "Exif")
        }
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        var writer = heif_writer(writer_api_version: 1, write: { _, data, size, userdata in
            if let data, let userdata {
                let sink = Unmanaged<Sink>.fromOpaque(userdata).takeUnretainedValue()
                sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size))
            }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        })
        try Self.check(heif_context_write(context.raw, &writer, Unmanaged.passUnretained(sink).toOpaque()), "writing")
        return withExtendedLifetime(sink) { sink.bytes }
    }

    /// The TIFF bytes (from the byte-order mark) of a HEIC's first Exif item, or nil without one.
    static func exifTIFF(ofHEIC bytes: [UInt8]) throws(LibavError) -> [UInt8]? {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(LibavError) -> [UInt8]? in
                guard let base = raw.baseAddress else { return nil }
                let context = try HEIFDecoder.Context.studio()
                try check(heif_context_read_from_memory_without_copy(context.raw, base, raw.count, nil), "reading the HEIC")
                var primaryRaw: OpaquePointer?
                try check(heif_context_get_primary_image_handle(context.raw, &primaryRaw), "primary image")
                guard let primary = primaryRaw else { return nil }
                defer { heif_image_handle_release(primary) }
                guard heif_image_handle_get_number_of_metadata_blocks(primary, "Exif") > 0 else { return nil }
                var id: heif_item_id = 0
                guard heif_image_handle_get_list_of_metadata_block_IDs(primary, "Exif", &id, 1) == 1 else { return nil }
                let size = heif_image_handle_get_metadata_size(primary, id)
                guard size > 4, size < 1 << 24 else { return nil }
                var data = [UInt8](repeating: 0, count: size)
                try check(data.withUnsafeMutableBytes { heif_image_handle_get_metadata(primary, id, $0.baseAddress) }, "Exif item")
                // 4 bytes: the offset of the TIFF header after them.
                let offset = 4 + (Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3]))
                guard offset < data.count else { return nil }
                return Array(data[offset...])
            }
        }
        return try result.get()
    }

    static func check(_ error: heif_error, _ what: String) throws(LibavError) {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        throw LibavError.unsupported("HEIC \(what): \(message)")
    }
}

extension HEIFDecoder.Context {
    static func studio() throws(LibavError) -> HEIFDecoder.Context {
        do { return try HEIFDecoder.Context() } catch { throw LibavError.outOfMemory("libheif context") }
    }
}
