import CJPEGScans
import CTurboJPEG
import MediaFormats

/// JPEG through TurboJPEG: the smallest IDCT scaling factor that still covers the requested size, or the
/// Exif IFD1 thumbnail when it is big enough; then an area resample and the Exif orientation.
enum JPEGDecoder {
    /// Refuse a decode whose output would exceed this many pixels (a forged header must not allocate GBs).
    static let maxOutputPixels = 120_000_000
    /// Pixels a JPEG's bytes can describe at the most. A flat black 24 MP photo at the lowest quality still
    /// takes ~140 KB (about 170 pixels a byte); a 358-byte header claiming 59552x47xx pixels (found by the
    /// decode fuzzer) made TurboJPEG draw 44 million grey pixels for 11 s. Far above any real photo, far
    /// below what such a forgery claims.
    static let maxPixelsPerByte: UInt64 = 20_000
    /// Largest Exif thumbnail read (they live in a 64 KiB APP1 segment).
    static let maxExifThumbnailBytes: UInt64 = 1 << 20

    static func decode(source: any ByteSource, info: MediaInfo, box: PixelSize, options: DecodeOptions)
        throws(ImagingError) -> DecodedImage
    {
        let orientation = (1...8).contains(info.orientation ?? 1) ? (info.orientation ?? 1) : 1
        let swaps = orientation >= 5
        // Decoding happens in stored orientation; the box is given upright.
        let storedBox = swaps ? box.transposed : box

        let handle = try Handle()
        // The probe already read the SOF size: the thumbnail path then never reads the whole file.
        var whole: [UInt8]? = nil
        var header: PixelSize
        if let w = info.pixelWidth, let h = info.pixelHeight, w > 0, h > 0 {
            header = PixelSize(width: w, height: h)
        } else {
            let bytes = Self.withoutStrayHeaderBytes(try readAll(source))
            header = try handle.header(of: bytes)
            whole = bytes
        }
        var storedTarget = header.fittedDown(in: storedBox)
        let upright = swaps ? header.transposed : header

        // The sufficient box is given upright, like the box.
        var options = options
        if swaps { options.embeddedThumbnailSufficientBox = options.embeddedThumbnailSufficientBox?.transposed }
        // try?: a thumbnail that cannot be read or decoded is no thumbnail; the photo itself is decoded below.
        if options.useEmbeddedThumbnails, let range = info.exifThumbnail,
           range.length > 0, range.length <= maxExifThumbnailBytes, range.fits(in: source.size),
           let thumbBytes = try? source.readExactly(at: range.offset, count: Int(range.length)),   // try?: see above
           let thumbSize = try? handle.header(of: thumbBytes)   // try?: see above
        {
            // A 3:2 photo's 4:3 thumbnail between black bars serves as the picture inside them.
            let letterbox = LetterboxedThumbnail.contentRect(of: thumbSize, for: header)
            var thumbnail: PixelFrame?
            if let letterbox {
                if options.embeddedThumbnail(letterbox.size, serves: storedTarget, of: header),
                   let (frame, damage) = try? handle.decode(thumbBytes, header: thumbSize, target: thumbSize, allowScaling: false),   // try?: see above
                   damage == nil {
                    thumbnail = LetterboxedThumbnail.cropped(frame, to: letterbox)
                }
            } else if options.embeddedThumbnail(thumbSize, serves: storedTarget, of: header),
                      let (frame, damage) = try? handle.decode(thumbBytes, header: thumbSize, target: storedTarget, allowScaling: true),   // try?: see above
                      damage == nil {
                thumbnail = frame
            }
            if let thumbnail {
                // Only ever shrink: a thumbnail slightly under the target (allowed coverage) is used as is.
                let fitted = thumbnail.size.covers(storedTarget) ? thumbnail.resized(to: storedTarget) : thumbnail
                return DecodedImage(frame: fitted.applyingExifOrientation(orientation),
                                    path: letterbox == nil ? .exifThumbnail : .exifThumbnailLetterboxed, fullSize: upright)
            }
        }

        let bytes: [UInt8]
        if let whole { bytes = whole } else { bytes = Self.withoutStrayHeaderBytes(try readAll(source)) }
        guard UInt64(header.width) * UInt64(header.height) <= UInt64(max(bytes.count, 1)) * maxPixelsPerByte else {
            // A file cut a few bytes after its header says so; one that ends properly has a forged size.
            let end = bytes.suffix(64)
            let complete = zip(end, end.dropFirst()).contains { $0 == 0xFF && $1 == 0xD9 }
            throw ImagingError(.damaged(format: "JPEG", complete ? .badHeader : .endsEarly),
                               detail: "it claims \(header.width)x\(header.height) pixels in \(bytes.count) bytes")
        }
        if whole == nil {
            // Trust the codec over the probe for the size it will actually produce.
            header = try handle.header(of: bytes)
            storedTarget = header.fittedDown(in: storedBox)
        }
        if options.useDCTScaling, let eighth = Self.progressiveEighth(bytes, header: header, target: storedTarget) {
            return DecodedImage(frame: eighth.resized(to: storedTarget).applyingExifOrientation(orientation),
                                path: .jpegFirstScans, fullSize: swaps ? header.transposed : header)
        }
        let (frame, damage) = try handle.decode(bytes, header: header, target: storedTarget, allowScaling: options.useDCTScaling)
        let path: DecodePath = frame.width < header.width ? .jpegScaled : .jpegFull
        return DecodedImage(frame: frame.resized(to: storedTarget).applyingExifOrientation(orientation),
                            path: path, fullSize: swaps ? header.transposed : header, damage: damage)
    }

    /// A progressive JPEG whose target needs 1/8 scale, drawn from the scans that carry the DC coefficients
    /// only (libjpeg buffered-image mode, CJPEGScans); nil for anything else, or on any warning or error (the
    /// ordinary TurboJPEG decode then runs and reports the damage).
    static func progressiveEighth(_ bytes: [UInt8], header: PixelSize, target: PixelSize) -> PixelFrame? {
        let eighth = PixelSize(width: (header.width + 7) / 8, height: (header.height + 7) / 8)
        guard Handle.scaledSize(of: header, covering: target) == eighth, header.height > 0,
              header.width <= maxOutputPixels / header.height else { return nil }
        // A file cut short may still hold its first scans: it must not pass as whole because the decode
        // stopped before the cut. No EOI (FF D9) in the last bytes (FileEnd's test): the ordinary decode runs
        // and reports the damage (a Motion Photo's appended movie takes this way too, only slower).
        let end = bytes.suffix(64)
        guard zip(end, end.dropFirst()).contains(where: { $0 == 0xFF && $1 == 0xD9 }) else { return nil }
        var rgba = Handle.greyPixels(eighth.width * eighth.height)
        var outcome = lg_jpeg_outcome()
        let status = bytes.withUnsafeBufferPointer { source -> Int32 in
            rgba.withUnsafeMutableBufferPointer { pixels -> Int32 in
                guard let from = source.baseAddress, let to = pixels.baseAddress else { return Int32(LG_JPEG_FAILED) }
                return lg_jpeg_decode_progressive_eighth(from, source.count, to, Int32(eighth.width), Int32(eighth.height), &outcome)
            }
        }
        guard status == Int32(LG_JPEG_DECODED) else { return nil }
        return PixelFrame(width: eighth.width, height: eighth.height, rgba: rgba)
    }

    /// `bytes` without the stray bytes between the header's segments, which libjpeg skips itself with a
    /// warning ("N extraneous bytes before marker") that read as damage: "the rest grey" for a picture that is
    /// whole (junk after SOI, issue 32.9: 15 files of a public corpus). Only bytes libjpeg would skip go (a run
    /// not starting with 0xFF, or FF 00), up to the first scan; the segments are what libjpeg reads either way,
    /// so damage elsewhere is still found. The same array when there is nothing to drop.
    static func withoutStrayHeaderBytes(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return bytes }
        var kept: [Range<Int>] = [0..<2]
        var index = 2
        var strayed = false
        while index < bytes.count {
            guard bytes[index] == 0xFF else { strayed = true; index += 1; continue }
            var marker = index + 1
            while marker < bytes.count, bytes[marker] == 0xFF { marker += 1 }   // fill bytes
            guard marker < bytes.count else { break }
            switch bytes[marker] {
            case 0x00:
                strayed = true
                index = marker + 1
                continue
            case 0xDA, 0xD9:   // the first scan, or an end without one: the rest as it is
                kept.append(index..<bytes.count)
                index = bytes.count
            case 0x01, 0xD0...0xD8:   // markers without a length
                kept.append(index..<marker + 1)
                index = marker + 1
            default:
                guard marker + 2 < bytes.count else { kept.append(index..<bytes.count); index = bytes.count; break }
                let end = marker + 1 + (Int(bytes[marker + 1]) << 8 | Int(bytes[marker + 2]))
                guard end <= bytes.count else { kept.append(index..<bytes.count); index = bytes.count; break }
                kept.append(index..<end)
                index = end
            }
        }
        guard strayed else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        for range in kept { result.append(contentsOf: bytes[range]) }
        return result
    }

    /// Stored (not oriented) size of a JPEG, from its header only.
    static func storedSize(of bytes: [UInt8]) throws(ImagingError) -> PixelSize {
        try Handle().header(of: bytes)
    }

    static func readAll(_ source: any ByteSource) throws(ImagingError) -> [UInt8] {
        guard source.size > 0 else { throw ImagingError.cannotDecode("empty file") }
        guard source.size <= ImageDecoder.maxFileBytes else {
            throw ImagingError.tooLarge(width: 0, height: 0)
        }
        do {
            return try source.readExactly(at: 0, count: Int(source.size))
        } catch {
            throw ImagingError(error)
        }
    }

    /// A TurboJPEG decompressor; one per decode so decodes on several threads never share it.
    final class Handle {
        let raw: tjhandle

        init() throws(ImagingError) {
            guard let h = tjInitDecompress() else { throw ImagingError.cannotDecode("TurboJPEG could not start") }
            raw = h
        }

        deinit { tjDestroy(raw) }

        var lastError: String { String(cString: tjGetErrorStr2(raw)) }

        func header(of bytes: [UInt8]) throws(ImagingError) -> PixelSize {
            var w: Int32 = 0, h: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            let rc = bytes.withUnsafeBufferPointer { buf -> Int32 in
                guard let base = buf.baseAddress else { return -1 }
                return tjDecompressHeader3(raw, base, UInt(buf.count), &w, &h, &subsampling, &colorspace)
            }
            // A warning while reading the header ("extraneous bytes before marker") is no error either, as
            // long as the size was read: the decode then draws what it can (ImageMagick reads such files).
            let warned = rc != 0 && tjGetErrorCode(raw) == Int32(TJERR_WARNING.rawValue)
            guard rc == 0 || warned, w > 0, h > 0 else {
                throw ImagingError(.damaged(format: "JPEG", Self.endsEarly(lastError) ? .endsEarly : .badHeader),
                                   detail: bytes.isEmpty ? "empty JPEG" : "libjpeg-turbo header: \(lastError)")
            }
            return PixelSize(width: Int(w), height: Int(h))
        }

        /// Decodes to RGBA at the smallest scaling factor whose output covers `target` (or 1/1). A damaged
        /// file (cut short, corrupt segments) still gives a picture when anything decoded: libjpeg-turbo's
        /// warnings are not errors (ImageMagick, chafa and timg draw such files too); what did not decode is
        /// grey, and the damage comes back beside the frame.
        func decode(_ bytes: [UInt8], header: PixelSize, target: PixelSize, allowScaling: Bool)
            throws(ImagingError) -> (PixelFrame, damage: ImagingError?)
        {
            let scaled = allowScaling ? Self.scaledSize(of: header, covering: target) : header
            guard scaled.width > 0, scaled.height > 0,
                  scaled.width <= JPEGDecoder.maxOutputPixels / scaled.height
            else {
                throw ImagingError.tooLarge(width: header.width, height: header.height)
            }
            // Grey where nothing decodes: libjpeg-turbo fills missing MCUs of a cut file with grey itself; a
            // fatal error part-way leaves the rest of the buffer as it was, so it starts grey too.
            var rgba = Self.greyPixels(scaled.width * scaled.height)
            let rc = bytes.withUnsafeBufferPointer { src -> Int32 in
                rgba.withUnsafeMutableBufferPointer { dst -> Int32 in
                    guard let s = src.baseAddress, let d = dst.baseAddress else { return -1 }
                    return tjDecompress2(raw, s, UInt(src.count), d, Int32(scaled.width), Int32(scaled.width * 4),
                                         Int32(scaled.height), Int32(TJPF_RGBA.rawValue), 0)
                }
            }
            let frame = PixelFrame(width: scaled.width, height: scaled.height, rgba: rgba)
            guard rc != 0 else { return (frame, nil) }
            let message = lastError
            let damage = ImagingError(.damaged(format: "JPEG", Self.endsEarly(message) ? .endsEarly : .corruptData),
                                      detail: "libjpeg-turbo: \(message)")
            // A warning: the buffer holds the whole picture as far as it decoded. A fatal error: only what
            // decoded before it, possibly nothing (then the buffer is still uniformly grey).
            if tjGetErrorCode(raw) == Int32(TJERR_WARNING.rawValue) || !Self.isUniformGrey(rgba) {
                return (frame, damage)
            }
            throw damage
        }

        /// Opaque mid grey, where nothing decoded.
        static func greyPixels(_ count: Int) -> [UInt8] {
            var pixels = [UInt8](repeating: 0x80, count: count * 4)
            for alpha in stride(from: 3, to: pixels.count, by: 4) { pixels[alpha] = 0xFF }
            return pixels
        }

        static func isUniformGrey(_ rgba: [UInt8]) -> Bool {
            var index = 0
            for byte in rgba {
                if byte != (index & 3 == 3 ? 0xFF : 0x80) { return false }
                index += 1
            }
            return true
        }

        /// libjpeg's messages for data that stops early ("Premature end of JPEG file", "Corrupt JPEG data:
        /// premature end of data segment") and for a header cut off.
        static func endsEarly(_ message: String) -> Bool {
            let lowered = message.lowercased()
            return lowered.contains("premature end") || lowered.contains("unexpected end")
                || lowered.contains("empty input") || lowered.contains("insufficient data")
        }

        /// TurboJPEG's factors run from 2/1 down to 1/8; keep those ≤ 1 and take the smallest output that
        /// still covers the target, so the resample after it only ever shrinks.
        static func scaledSize(of size: PixelSize, covering target: PixelSize) -> PixelSize {
            var count: Int32 = 0
            guard let factors = tjGetScalingFactors(&count), count > 0 else { return size }
            var best = size
            for i in 0..<Int(count) {
                let f = factors[i]
                guard f.num > 0, f.denom > 0, f.num <= f.denom else { continue }
                // TJSCALED(d, f) = (d * num + denom - 1) / denom
                let w = (size.width * Int(f.num) + Int(f.denom) - 1) / Int(f.denom)
                let h = (size.height * Int(f.num) + Int(f.denom) - 1) / Int(f.denom)
                let candidate = PixelSize(width: w, height: h)
                if candidate.covers(target) && candidate.pixelCount < best.pixelCount { best = candidate }
            }
            return best
        }
    }
}
