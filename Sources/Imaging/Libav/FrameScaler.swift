import CFFmpeg

/// Converts decoded frames (any pixel format libavcodec produces) to RGBA `PixelFrame`s of a chosen size in
/// one libswscale pass. Keeps its SwsContext between calls, rebuilt only when the input or output changes.
final class FrameScaler {
    private var context: OpaquePointer?
    private var configured: Configuration?

    private struct Configuration: Equatable {
        var sourceWidth: Int32, sourceHeight: Int32, sourceFormat: Int32
        var targetWidth: Int32, targetHeight: Int32
        var colorspace: Int32, fullRange: Bool
    }

    /// A YUV matrix and range chosen by the caller instead of the frame's own.
    struct YUVColour: Equatable {
        var colorspace: AVColorSpace
        var fullRange: Bool
    }

    /// Interpolates chroma at the output's full width (SWS_FULL_CHR_H_INT) instead of half of it: without it,
    /// colour edges of a 4:2:0 picture shrunk 20x smear over two output pixels (stills shown small care;
    /// movie frames at display size do not, and it costs time).
    private let fullChroma: Bool

    init(fullChroma: Bool = false) {
        self.fullChroma = fullChroma
    }

    deinit { sws_freeContext(context) }

    /// Scales `frame` to exactly `size` (callers choose the size with `PixelSize.fitting`). Area averaging
    /// when shrinking (no aliasing on the 10x reductions thumbnails need), bicubic when enlarging.
    func scale(_ frame: UnsafePointer<AVFrame>, to size: PixelSize) throws(LibavError) -> PixelFrame {
        try prepare(frame, visible: nil, to: size, colour: nil)
        // libswscale's x86 RGB writers work in blocks of 8 or 16 pixels and may store up to 15 pixels past a
        // row's end: room for them after the last row, dropped afterwards (the capacity stays, no copy).
        let overrun = 16 * 4
        var output = [UInt8](repeating: 0, count: size.width * size.height * 4 + overrun)
        let scaledRows = output.withUnsafeMutableBufferPointer { buffer in
            run(frame, sourceHeight: frame.pointee.height, into: buffer.baseAddress, rowBytes: size.width * 4)
        }
        guard scaledRows > 0 else { throw LibavError.library("sws_scale", scaledRows) }
        output.removeLast(overrun)
        return PixelFrame(width: size.width, height: size.height, rgba: output)
    }

    /// Scales the top-left `visible` part of `frame` (all of it when nil) to `size` RGBA pixels written at
    /// `destination`, rows `rowBytes` apart: a tile drawn straight into its place in a larger picture.
    /// `colour` overrides the matrix and range the frame states (HEIF's `nclx` property wins over the VUI).
    func scale(_ frame: UnsafePointer<AVFrame>, visible: PixelSize?, into destination: UnsafeMutablePointer<UInt8>,
               rowBytes: Int, size: PixelSize, colour: YUVColour?) throws(LibavError) {
        try prepare(frame, visible: visible, to: size, colour: colour)
        guard rowBytes >= size.width * 4 else { throw LibavError.invalidArgument("row of \(rowBytes) bytes for \(size.width) pixels") }
        let scaledRows = run(frame, sourceHeight: configured?.sourceHeight ?? 0, into: destination, rowBytes: rowBytes)
        guard scaledRows > 0 else { throw LibavError.library("sws_scale", scaledRows) }
    }

    /// Checks the request and (re)builds the SwsContext for it.
    private func prepare(_ frame: UnsafePointer<AVFrame>, visible: PixelSize?, to size: PixelSize,
                         colour: YUVColour?) throws(LibavError) {
        let width = frame.pointee.width, height = frame.pointee.height
        guard width > 0, height > 0 else { throw LibavError.unsupported("frame of size \(width)x\(height)") }
        guard size.width > 0, size.height > 0, size.width <= 16384, size.height <= 16384 else {
            throw LibavError.invalidArgument("target size \(size)")
        }
        let source = visible ?? PixelSize(width: Int(width), height: Int(height))
        guard source.width > 0, source.height > 0, source.width <= Int(width), source.height <= Int(height) else {
            throw LibavError.invalidArgument("visible part \(source) of a \(width)x\(height) frame")
        }
        let (format, fullRange) = Self.normalised(AVPixelFormat(rawValue: frame.pointee.format))
        guard format != AV_PIX_FMT_NONE, sws_isSupportedInput(format) != 0 else {
            throw LibavError.unsupported("pixel format \(Self.name(of: frame.pointee.format))")
        }
        let wanted = Configuration(
            sourceWidth: Int32(source.width), sourceHeight: Int32(source.height), sourceFormat: format.rawValue,
            targetWidth: Int32(size.width), targetHeight: Int32(size.height),
            colorspace: Int32(bitPattern: (colour?.colorspace ?? frame.pointee.colorspace).rawValue),
            fullRange: colour?.fullRange ?? (fullRange || frame.pointee.color_range == AVCOL_RANGE_JPEG))
        if wanted != configured {
            try configure(wanted, format: format)
        }
    }

    /// One sws_scale pass over the first `sourceHeight` rows; returns its result (rows written, or < 0).
    private func run(_ frame: UnsafePointer<AVFrame>, sourceHeight: Int32, into destination: UnsafeMutablePointer<UInt8>?,
                     rowBytes: Int) -> Int32 {
        var planes: [UnsafeMutablePointer<UInt8>?] = [destination, nil, nil, nil]
        var strides: [Int32] = [Int32(rowBytes), 0, 0, 0]
        return withUnsafeBytes(of: frame.pointee.data) { dataBytes in
            withUnsafeBytes(of: frame.pointee.linesize) { strideBytes in
                sws_scale(context,
                          dataBytes.bindMemory(to: UnsafePointer<UInt8>?.self).baseAddress,
                          strideBytes.bindMemory(to: Int32.self).baseAddress,
                          0, sourceHeight, &planes, &strides)
            }
        }
    }

    private func configure(_ wanted: Configuration, format: AVPixelFormat) throws(LibavError) {
        let shrinking = wanted.targetWidth < wanted.sourceWidth || wanted.targetHeight < wanted.sourceHeight
        // No SWS_ACCURATE_RND: it forces libswscale's C paths and measured 2.5x slower (1080p -> 1600x900:
        // 7.6 vs 3 ms per frame) for a difference invisible once chafa quantises to terminal cells.
        let flags = (shrinking ? SWS_AREA : SWS_BICUBIC) | (fullChroma ? SWS_FULL_CHR_H_INT : 0)
        guard let newContext = sws_getCachedContext(context, wanted.sourceWidth, wanted.sourceHeight, format,
                                                    wanted.targetWidth, wanted.targetHeight, AV_PIX_FMT_RGBA,
                                                    flags, nil, nil, nil) else {
            configured = nil
            context = nil  // sws_getCachedContext freed the old one
            throw LibavError.unsupported("conversion from \(Self.name(of: format.rawValue)) to RGBA")
        }
        context = newContext
        // Use the stream's YUV matrix (BT.709 for HD video, BT.601 otherwise) and its range, so colours match
        // what other players show. Unspecified colorspace: libswscale's BT.601 default.
        let coefficients = sws_getCoefficients(Self.swsColorspace(wanted.colorspace, height: wanted.sourceHeight))
        _ = sws_setColorspaceDetails(newContext, coefficients, wanted.fullRange ? 1 : 0,
                                     sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
        configured = wanted
    }

    /// The deprecated full-range "yuvj" formats, mapped to their plain equivalents plus a full-range flag
    /// (libswscale warns about yuvj and handles the range better when told explicitly).
    private static func normalised(_ format: AVPixelFormat) -> (AVPixelFormat, fullRange: Bool) {
        switch format {
        case AV_PIX_FMT_YUVJ420P: return (AV_PIX_FMT_YUV420P, true)
        case AV_PIX_FMT_YUVJ422P: return (AV_PIX_FMT_YUV422P, true)
        case AV_PIX_FMT_YUVJ444P: return (AV_PIX_FMT_YUV444P, true)
        case AV_PIX_FMT_YUVJ440P: return (AV_PIX_FMT_YUV440P, true)
        case AV_PIX_FMT_YUVJ411P: return (AV_PIX_FMT_YUV411P, true)
        default: return (format, false)
        }
    }

    private static func swsColorspace(_ colorspace: Int32, height: Int32) -> Int32 {
        switch AVColorSpace(rawValue: UInt32(bitPattern: colorspace)) {
        case AVCOL_SPC_BT709: return SWS_CS_ITU709
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: return SWS_CS_ITU601
        case AVCOL_SPC_SMPTE240M: return SWS_CS_SMPTE240M
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: return SWS_CS_BT2020
        case AVCOL_SPC_FCC: return SWS_CS_FCC
        // Unspecified: HD content is nearly always BT.709 (what players assume too).
        default: return height >= 720 ? SWS_CS_ITU709 : SWS_CS_DEFAULT
        }
    }

    static func name(of format: Int32) -> String {
        guard let name = av_get_pix_fmt_name(AVPixelFormat(rawValue: format)) else { return "#\(format)" }
        return String(cString: name)
    }
}
