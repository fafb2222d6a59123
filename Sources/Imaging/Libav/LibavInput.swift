import CFFmpeg
import MediaFormats

/// An opened libavformat input over a `ByteSource`: the AVFormatContext plus the custom I/O it reads through.
/// `deinit` closes the format context first (it still points at the I/O context), then the I/O context goes.
final class LibavInput {
    let io: ByteSourceIOContext
    private(set) var format: UnsafeMutablePointer<AVFormatContext>?

    /// Opens and probes `source`. `formatName` forces a demuxer (e.g. "mov"); nil lets libavformat probe
    /// the content, which also covers the image demuxers (png_pipe, webp_pipe, gif, tiff_pipe, bmp_pipe).
    /// `quickOpen`: for QuickTime/MP4 whose sample descriptions already give every video stream's codec and
    /// size, skip `avformat_find_stream_info`, which decodes the first frame to probe it (a second decode of
    /// the same I-frame before playback starts: 15-40 ms of the press-to-first-frame time on an iPhone movie).
    init(source: any ByteSource, formatName: String? = nil, quickOpen: Bool = false) throws(LibavError) {
        try LibavSetup.ensure()
        guard source.size > 0 else { throw LibavError.unsupported("empty data") }
        io = try ByteSourceIOContext(source: source)
        guard let allocated = avformat_alloc_context() else { throw LibavError.outOfMemory("AVFormatContext") }
        allocated.pointee.pb = io.context
        allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var opened: UnsafeMutablePointer<AVFormatContext>? = allocated
        let forced = formatName.flatMap { av_find_input_format($0) }
        // On failure avformat_open_input frees the context and sets `opened` to nil; our I/O stays ours.
        let openResult = avformat_open_input(&opened, nil, forced, nil)
        guard openResult >= 0, let context = opened else {
            throw LibavInput.describe(openResult, operation: "avformat_open_input", io: io)
        }
        format = context
        if quickOpen, Self.describesItself(context) { return }
        let infoResult = avformat_find_stream_info(context, nil)
        if infoResult < 0 {
            avformat_close_input(&format)
            throw LibavInput.describe(infoResult, operation: "avformat_find_stream_info", io: io)
        }
    }

    deinit {
        avformat_close_input(&format)
    }

    /// A QuickTime/MP4 input whose video streams all state a codec and a size in their headers.
    private static func describesItself(_ context: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        guard let name = context.pointee.iformat?.pointee.name, String(cString: name).hasPrefix("mov,"),
              let streams = context.pointee.streams else { return false }
        var videoStreams = 0
        for index in 0..<Int(context.pointee.nb_streams) {
            guard let parameters = streams[index]?.pointee.codecpar else { return false }
            guard parameters.pointee.codec_type == AVMEDIA_TYPE_VIDEO else { continue }
            guard parameters.pointee.codec_id != AV_CODEC_ID_NONE, parameters.pointee.width > 0,
                  parameters.pointee.height > 0 else { return false }
            videoStreams += 1
        }
        return videoStreams > 0
    }

    /// The demuxer's short name ("mov,mp4,m4a,3gp,3g2,mj2", "png_pipe", ...).
    var formatName: String {
        guard let name = format?.pointee.iformat?.pointee.name else { return "unknown" }
        return String(cString: name)
    }

    func stream(at index: Int32) -> UnsafeMutablePointer<AVStream>? {
        guard let format, index >= 0, UInt32(index) < format.pointee.nb_streams,
              let streams = format.pointee.streams else { return nil }
        return streams[Int(index)]
    }

    /// The stream to play and a decoder for it, or `.noVideoStream`. Motion Photo MP4s carry a second H.264
    /// track of a few high-resolution stills next to the movie, and `av_find_best_stream` may prefer it for
    /// its size; so the video track with the most frames wins, and libav's choice is the fallback when the
    /// container does not count frames (image demuxers).
    func bestVideoStream() throws(LibavError) -> (stream: UnsafeMutablePointer<AVStream>, decoder: UnsafePointer<AVCodec>) {
        guard let format else { throw LibavError.noVideoStream("input is closed") }
        var chosen: (stream: UnsafeMutablePointer<AVStream>, decoder: UnsafePointer<AVCodec>)?
        for index in 0..<Int32(clamping: format.pointee.nb_streams) {
            guard let stream = stream(at: index), let parameters = stream.pointee.codecpar,
                  parameters.pointee.codec_type == AVMEDIA_TYPE_VIDEO,
                  stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0,
                  stream.pointee.nb_frames > 0,
                  let decoder = avcodec_find_decoder(parameters.pointee.codec_id) else { continue }
            if let current = chosen, current.stream.pointee.nb_frames >= stream.pointee.nb_frames { continue }
            chosen = (stream, decoder)
        }
        if let chosen { return chosen }
        var decoder: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        if index == LibavErrorCodes.decoderNotFound {
            throw LibavError.unsupported("video codec (no decoder in this libavcodec build)")
        }
        guard index >= 0, let stream = stream(at: index) else {
            throw LibavError.noVideoStream("no video or image stream in \(formatName) data")
        }
        guard let decoder else { throw LibavError.unsupported("video codec (no decoder in this libavcodec build)") }
        return (stream, decoder)
    }

    /// A `FileByteSource` for `path`, its error expressed as a `LibavError`.
    static func openFile(_ path: String) throws(LibavError) -> FileByteSource {
        do {
            return try FileByteSource(path: path)
        } catch {
            throw LibavError.library(operation: "open", code: -1, message: error.description)
        }
    }

    /// Turns a failed call into an error, preferring the byte source's own error when the I/O failed.
    static func describe(_ code: Int32, operation: String, io: ByteSourceIOContext) -> LibavError {
        if let ioError = io.lastError {
            return .library(operation: operation, code: code, message: "read failed: \(ioError)")
        }
        if code == LibavErrorCodes.invalidData {
            return .library(operation: operation, code: code, message: "unrecognised or corrupt data")
        }
        return .library(operation, code)
    }
}
