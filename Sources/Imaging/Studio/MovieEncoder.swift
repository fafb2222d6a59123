import CFFmpeg

/// Encodes frames with a libavcodec encoder (libx264, libx265, gif) into a file written by a libavformat
/// muxer (mov, mp4, gif), optionally with one stream copied packet by packet (the sound of a trimmed Live
/// Photo). The caller owns the file's name: studio outputs go to an `AtomicFileWriter`'s temporary.
final class MovieEncoder {
    struct VideoSettings {
        var encoderName: String
        var width: Int32
        var height: Int32
        var pixelFormat: Int32
        var timeBase: AVRational
        var frameRate: AVRational
        /// Encoder options (crf, preset, x265-params...).
        var options: [(String, String)] = []
    }

    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private let videoStream: UnsafeMutablePointer<AVStream>
    private var copiedStream: (stream: UnsafeMutablePointer<AVStream>, sourceTimeBase: AVRational)?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var headerWritten = false
    private var finished = false
    private(set) var framesWritten = 0

    init(path: String, formatName: String, video: VideoSettings,
         copying copied: UnsafeMutablePointer<AVStream>? = nil) throws(LibavError) {
        try StudioLibraries.ensure()
        var context: UnsafeMutablePointer<AVFormatContext>?
        var result = avformat_alloc_output_context2(&context, nil, formatName, nil)
        guard result >= 0, let context else { throw LibavError.library("avformat_alloc_output_context2 (\(formatName))", result) }
        format = context
        guard let encoder = avcodec_find_encoder_by_name(video.encoderName) else {
            avformat_free_context(context)
            format = nil
            throw LibavError.unsupported("no \(video.encoderName) encoder in this libavcodec build")
        }
        guard let stream = avformat_new_stream(context, nil), let codecContext = avcodec_alloc_context3(encoder) else {
            avformat_free_context(context)
            format = nil
            throw LibavError.outOfMemory("AVStream/AVCodecContext")
        }
        videoStream = stream
        codec = codecContext
        codecContext.pointee.width = video.width
        codecContext.pointee.height = video.height
        codecContext.pointee.pix_fmt = AVPixelFormat(video.pixelFormat)
        codecContext.pointee.time_base = video.timeBase
        codecContext.pointee.framerate = video.frameRate
        codecContext.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        codecContext.pointee.thread_count = 2
        if let oformat = context.pointee.oformat, oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            codecContext.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        var dictionary: OpaquePointer?
        for (key, value) in video.options { av_dict_set(&dictionary, key, value, 0) }
        result = avcodec_open2(codecContext, encoder, &dictionary)
        av_dict_free(&dictionary)
        guard result >= 0 else { Self.release(&format, &codec); throw LibavError.library("avcodec_open2 (\(video.encoderName))", result) }
        result = avcodec_parameters_from_context(stream.pointee.codecpar, codecContext)
        guard result >= 0 else { Self.release(&format, &codec); throw LibavError.library("avcodec_parameters_from_context", result) }
        stream.pointee.time_base = codecContext.pointee.time_base
        // Apple players want HEVC tagged hvc1 (libavformat's default hev1 does not play in Photos/QuickTime).
        if video.encoderName == "libx265" { stream.pointee.codecpar.pointee.codec_tag = Self.fourCC("hvc1") }

        if let copied, let parameters = copied.pointee.codecpar, let out = avformat_new_stream(context, nil) {
            result = avcodec_parameters_copy(out.pointee.codecpar, parameters)
            guard result >= 0 else { Self.release(&format, &codec); throw LibavError.library("avcodec_parameters_copy", result) }
            out.pointee.codecpar.pointee.codec_tag = 0
            out.pointee.time_base = copied.pointee.time_base
            copiedStream = (out, copied.pointee.time_base)
        }

        do {
            context.pointee.pb = try StudioLibraries.openForWriting(path)
        } catch {
            Self.release(&format, &codec)
            throw error
        }
        result = avformat_write_header(context, nil)
        guard result >= 0 else {
            avio_closep(&context.pointee.pb)
            Self.release(&format, &codec)
            throw LibavError.library("avformat_write_header", result)
        }
        headerWritten = true
        packet = av_packet_alloc()
    }

    deinit {
        if let format, format.pointee.pb != nil { avio_closep(&format.pointee.pb) }
        av_packet_free(&packet)
        Self.release(&format, &codec)
    }

    private static func release(_ format: inout UnsafeMutablePointer<AVFormatContext>?,
                                _ codec: inout UnsafeMutablePointer<AVCodecContext>?) {
        avcodec_free_context(&codec)
        if let context = format { avformat_free_context(context) }
        format = nil
    }

    static func fourCC(_ text: String) -> UInt32 {
        text.utf8.prefix(4).enumerated().reduce(UInt32(0)) { $0 | (UInt32($1.element) << (8 * UInt32($1.offset))) }
    }

    /// Encodes one frame (its pts in the encoder's time base).
    func encode(_ frame: UnsafeMutablePointer<AVFrame>) throws(LibavError) {
        frame.pointee.pict_type = AV_PICTURE_TYPE_NONE
        let result = avcodec_send_frame(codec, frame)
        guard result >= 0 else { throw LibavError.library("avcodec_send_frame", result) }
        framesWritten += 1
        try drain()
    }

    /// Writes a packet of the copied stream (its timestamps already shifted, in the source's time base).
    func writeCopied(_ source: UnsafeMutablePointer<AVPacket>) throws(LibavError) {
        guard let copiedStream, let format else { return }
        av_packet_rescale_ts(source, copiedStream.sourceTimeBase, copiedStream.stream.pointee.time_base)
        source.pointee.stream_index = copiedStream.stream.pointee.index
        source.pointee.pos = -1
        let result = av_interleaved_write_frame(format, source)
        guard result >= 0 else { throw LibavError.library("av_interleaved_write_frame", result) }
    }

    private func drain() throws(LibavError) {
        guard let codec, let packet, let format else { return }
        while true {
            let result = avcodec_receive_packet(codec, packet)
            if result == lg_averror_eagain() || result == lg_averror_eof() { return }
            guard result >= 0 else { throw LibavError.library("avcodec_receive_packet", result) }
            av_packet_rescale_ts(packet, codec.pointee.time_base, videoStream.pointee.time_base)
            packet.pointee.stream_index = videoStream.pointee.index
            let written = av_interleaved_write_frame(format, packet)
            guard written >= 0 else { throw LibavError.library("av_interleaved_write_frame", written) }
        }
    }

    /// Flushes the encoder, writes the trailer and closes the file.
    func finish() throws(LibavError) {
        guard !finished, let format else { return }
        finished = true
        var result = avcodec_send_frame(codec, nil)
        guard result >= 0 else { throw LibavError.library("avcodec_send_frame (flush)", result) }
        try drain()
        result = av_write_trailer(format)
        guard result >= 0 else { throw LibavError.library("av_write_trailer", result) }
        avio_closep(&format.pointee.pb)
    }
}
