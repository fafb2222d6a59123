import CTurboJPEG

/// JPEG encoding with libjpeg-turbo's TurboJPEG API (the decoder's library): what iTerm2's inline images
/// get instead of an uncompressed TIFF (issue 28.3: 139 KB a thumbnail as TIFF, about 10 KB as JPEG).
public enum JPEGEncoder {
    /// Encodes the RGB of `frame` (alpha ignored) at `quality` (1...100), 4:2:0 chroma.
    public static func encode(_ frame: PixelFrame, quality: Int32 = 85) throws(ImagingError) -> [UInt8] {
        guard frame.width > 0, frame.height > 0 else { throw ImagingError.cannotEncode("empty picture") }
        guard let handle = tjInitCompress() else { throw ImagingError.cannotEncode("cannot start the JPEG compressor") }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = frame.rgba.withUnsafeBufferPointer { pixels in
            tjCompress2(handle, pixels.baseAddress, Int32(frame.width), Int32(frame.rowBytes), Int32(frame.height),
                        Int32(TJPF_RGBA.rawValue), &buffer, &size, Int32(TJSAMP_420.rawValue), max(1, min(100, quality)),
                        Int32(TJFLAG_FASTDCT))
        }
        defer { if let buffer { tjFree(buffer) } }
        guard status == 0, let buffer, size > 0 else {
            throw ImagingError.cannotEncode(String(cString: tjGetErrorStr2(handle)))
        }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }
}
