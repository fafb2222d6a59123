import CFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// libavcodec's HEVC decoder for the coded items of a HEIF image: each item (a whole picture or one grid
/// tile) is one intra-coded access unit, sent as one packet of length-prefixed NAL units exactly as stored,
/// with the item's `hvcC` record as extradata (it carries the parameter sets and the NAL length size).
final class HEVCImageDecoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    /// The `hvcC` this decoder was opened with; tiles with another one need another decoder.
    let configuration: [UInt8]

    /// `skipLoopFilter`: skip deblocking and SAO, which change nothing visible once the picture is shrunk
    /// 2x or more (and cost about a fifth of the decoding time).
    init(configuration: [UInt8], skipLoopFilter: Bool) throws(LibavError) {
        try LibavSetup.ensure()
        self.configuration = configuration
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_HEVC) else {
            throw LibavError.unsupported("HEVC (this libavcodec has no HEVC decoder)")
        }
        guard let context = avcodec_alloc_context3(codec) else { throw LibavError.outOfMemory("HEVC decoder") }
        self.context = context
        guard configuration.count < Int(Int32.max) - Int(AV_INPUT_BUFFER_PADDING_SIZE),
              let extradata = av_malloc(configuration.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else {
            throw LibavError.outOfMemory("hvcC extradata")
        }
        // libavcodec reads past the end in its bitstream reader: the padding must be there and zeroed.
        memset(extradata, 0, configuration.count + Int(AV_INPUT_BUFFER_PADDING_SIZE))
        configuration.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { extradata.copyMemory(from: base, byteCount: bytes.count) }
        }
        context.pointee.extradata = extradata.assumingMemoryBound(to: UInt8.self)
        context.pointee.extradata_size = Int32(configuration.count)
        // One thread: livegrid already decodes several pictures at once, and frame threads would only add latency.
        context.pointee.thread_count = 1
        context.pointee.max_pixels = LibavFrameSource.maximumPixels
        if skipLoopFilter { context.pointee.skip_loop_filter = AVDISCARD_ALL }
        let opened = avcodec_open2(context, codec, nil)
        guard opened >= 0 else { throw LibavError.library("avcodec_open2 (HEVC)", opened) }
        guard let packet = av_packet_alloc(), let frame = av_frame_alloc() else { throw LibavError.outOfMemory("HEVC packet") }
        self.packet = packet
        self.frame = frame
    }

    deinit {
        // avcodec_free_context frees the extradata too.
        avcodec_free_context(&context)
        av_packet_free(&packet)
        av_frame_free(&frame)
    }

    /// Decodes one coded picture. The frame stays valid until the next call.
    func decode(_ data: [UInt8]) throws(LibavError) -> UnsafePointer<AVFrame> {
        guard let context, let packet, let frame else { throw LibavError.outOfMemory("HEVC decoder") }
        guard !data.isEmpty, data.count < Int(Int32.max) else { throw LibavError.invalidArgument("coded picture of \(data.count) bytes") }
        av_frame_unref(frame)
        let made = av_new_packet(packet, Int32(data.count))   // zeroes the padding
        guard made >= 0, let payload = packet.pointee.data else { throw LibavError.library("av_new_packet", made) }
        defer { av_packet_unref(packet) }
        data.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { payload.update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
        }
        let sent = avcodec_send_packet(context, packet)
        guard sent >= 0 else { throw LibavError.library("avcodec_send_packet (HEVC)", sent) }
        var received = avcodec_receive_frame(context, frame)
        if received == LibavErrorCodes.again {
            // The decoder holds the picture back (reordering rules): drain it, then reset for the next one.
            _ = avcodec_send_packet(context, nil)
            received = avcodec_receive_frame(context, frame)
            avcodec_flush_buffers(context)
        }
        if received == LibavErrorCodes.eof || received == LibavErrorCodes.again {
            throw LibavError.library(operation: "avcodec_receive_frame (HEVC)", code: received,
                                     message: "the coded data holds no picture")
        }
        guard received >= 0 else { throw LibavError.library("avcodec_receive_frame (HEVC)", received) }
        return UnsafePointer(frame)
    }
}
