import CFFmpeg

/// Demuxes one stream of a `LibavInput` and decodes it: the send/receive loop, end-of-stream draining, and
/// tolerance of damaged packets (a corrupt packet is skipped; only a run of failures ends with an error).
/// Frames come out in presentation order, as libavcodec's decoders reorder them.
final class LibavFrameSource {
    let input: LibavInput
    let stream: UnsafeMutablePointer<AVStream>
    private(set) var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    /// The frame `nextFrame()` last returned; valid until the next call.
    private(set) var frame: UnsafeMutablePointer<AVFrame>?
    private var demuxerFinished = false
    private var decoderFinished = false
    /// Packets or frames the decoder rejected (damaged data) since the stream was opened or seeked.
    private(set) var damagedPackets = 0
    /// True from the start and after a seek until a key frame came out: frames before it were predicted
    /// from pictures the decoder never saw (libavcodec's HEVC decoder invents grey ones), so they show
    /// garbage, not the movie (issue 31.7.1's blue frames).
    private var awaitingKeyFrame: Bool
    /// Movies wait for a key frame; a still's single picture is shown whatever its flags say.
    private let waitsForKeyFrame: Bool
    /// A seek that landed on a frame that is no key frame (a container whose key-frame table is missing or
    /// lists predicted frames) is redone from the stream's start, once: the frames before the target are then
    /// decoded with their references and skipped by the caller.
    private var mayRestartFromBeginning = false
    /// Frames dropped while waiting for a key frame; past `maxFramesBeforeKeyFrame` they are shown anyway (a
    /// stream that flags none, e.g. intra refresh without IDR, still plays).
    private var framesBeforeKeyFrame = 0
    static let maxFramesBeforeKeyFrame = 300

    /// 200 megapixels (800 MB as RGBA): above any camera; below what a hostile header could ask for.
    static let maximumPixels: Int64 = 200_000_000

    /// More consecutive failures than this means the data is not a damaged stream but garbage.
    static let maxConsecutiveFailures = 64

    /// Two threads: the machine this runs on has two cores, and frame threading adds a frame of latency each.
    /// `waitForKeyFrame`: drop frames decoded before the first key frame after opening or seeking (movies).
    /// `outputCorrupt`: hand out frames the decoder flags as corrupt (a still shows what decoded of a
    /// damaged file; playback keeps libav's default).
    init(input: LibavInput, stream: UnsafeMutablePointer<AVStream>, decoder: UnsafePointer<AVCodec>,
         threadCount: Int32 = 2, outputCorrupt: Bool = false, skipLoopFilter: Bool = false,
         waitForKeyFrame: Bool = false) throws(LibavError) {
        self.input = input
        waitsForKeyFrame = waitForKeyFrame
        awaitingKeyFrame = waitForKeyFrame
        self.stream = stream
        guard let context = avcodec_alloc_context3(decoder) else { throw LibavError.outOfMemory("AVCodecContext") }
        codec = context
        guard let parameters = stream.pointee.codecpar else { throw LibavError.unsupported("stream without codec parameters") }
        var result = avcodec_parameters_to_context(context, parameters)
        guard result >= 0 else { throw LibavError.library("avcodec_parameters_to_context", result) }
        context.pointee.thread_count = threadCount
        // libavcodec refuses pictures above this, so a forged header cannot make it allocate gigabytes.
        context.pointee.max_pixels = LibavFrameSource.maximumPixels
        context.pointee.pkt_timebase = stream.pointee.time_base
        if outputCorrupt { context.pointee.flags |= AV_CODEC_FLAG_OUTPUT_CORRUPT }
        // Frames shown at a fraction of their size: the deblocking filter's work is averaged away by the
        // downscale, and skipping it saves a fifth to a third of H.264/HEVC decoding.
        if skipLoopFilter { context.pointee.skip_loop_filter = AVDISCARD_ALL }
        result = avcodec_open2(context, decoder, nil)
        guard result >= 0 else { throw LibavError.library("avcodec_open2", result) }
        guard let packet = av_packet_alloc(), let frame = av_frame_alloc() else {
            throw LibavError.outOfMemory("AVPacket/AVFrame")
        }
        self.packet = packet
        self.frame = frame
    }

    deinit {
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codec)
    }

    var isFinished: Bool { decoderFinished }

    /// The next decoded frame of the stream, or nil at its end. The frame is owned by this object.
    func nextFrame() throws(LibavError) -> UnsafeMutablePointer<AVFrame>? {
        guard let codec, let frame, let packet, let format = input.format else { return nil }
        var consecutiveFailures = 0
        while !decoderFinished {
            let received = avcodec_receive_frame(codec, frame)
            if received >= 0 {
                if !awaitingKeyFrame || frame.pointee.key_frame != 0 || framesBeforeKeyFrame >= Self.maxFramesBeforeKeyFrame {
                    awaitingKeyFrame = false
                    return frame
                }
                framesBeforeKeyFrame += 1
                av_frame_unref(frame)
                if mayRestartFromBeginning {
                    mayRestartFromBeginning = false
                    try restartFromBeginning()
                }
                continue
            }
            if received == LibavErrorCodes.eof {
                decoderFinished = true
                return nil
            }
            if received != LibavErrorCodes.again {
                // A frame the decoder could not rebuild: skip it, as players do.
                damagedPackets += 1
                consecutiveFailures += 1
                if consecutiveFailures > Self.maxConsecutiveFailures {
                    throw LibavInput.describe(received, operation: "avcodec_receive_frame", io: input.io)
                }
                continue
            }
            // The decoder wants input.
            if demuxerFinished {
                // Already flushing and still EAGAIN: should not happen; stop rather than spin.
                decoderFinished = true
                return nil
            }
            let read = av_read_frame(format, packet)
            if read < 0 {
                // EOF, or a read/demux error in a truncated file: either way the stream ends here; drain
                // what the decoder holds so the frames already read are still shown.
                demuxerFinished = true
                _ = avcodec_send_packet(codec, nil)
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream.pointee.index else { continue }
            let sent = avcodec_send_packet(codec, packet)
            if sent < 0 && sent != LibavErrorCodes.again {
                damagedPackets += 1
                consecutiveFailures += 1
                if consecutiveFailures > Self.maxConsecutiveFailures {
                    throw LibavInput.describe(sent, operation: "avcodec_send_packet", io: input.io)
                }
            } else {
                consecutiveFailures = 0
            }
        }
        return nil
    }

    /// Seeks to the key frame at or before `timestamp` (in stream time base) and resets the decoder.
    func seek(toStreamTimestamp timestamp: Int64) throws(LibavError) {
        guard let format, let codec else { return }
        let result = av_seek_frame(format, stream.pointee.index, timestamp, AVSEEK_FLAG_BACKWARD)
        guard result >= 0 else { throw LibavInput.describe(result, operation: "av_seek_frame", io: input.io) }
        avcodec_flush_buffers(codec)
        demuxerFinished = false
        decoderFinished = false
        damagedPackets = 0
        awaitingKeyFrame = waitsForKeyFrame
        framesBeforeKeyFrame = 0
        mayRestartFromBeginning = waitsForKeyFrame && timestamp > startTimestamp
    }

    /// The stream's first timestamp (its time zero), in stream time base.
    private var startTimestamp: Int64 {
        stream.pointee.start_time == lg_av_nopts_value() ? 0 : stream.pointee.start_time
    }

    /// Seeks to the stream's first packet and resets the decoder, still waiting for a key frame.
    private func restartFromBeginning() throws(LibavError) {
        guard let format, let codec else { return }
        let result = av_seek_frame(format, stream.pointee.index, startTimestamp, AVSEEK_FLAG_BACKWARD)
        guard result >= 0 else { throw LibavInput.describe(result, operation: "av_seek_frame", io: input.io) }
        avcodec_flush_buffers(codec)
        demuxerFinished = false
        decoderFinished = false
        framesBeforeKeyFrame = 0
    }

    private var format: UnsafeMutablePointer<AVFormatContext>? { input.format }
}
