import CFFmpeg
import MediaFormats

/// A trim without re-encoding: possible when the kept range starts on a keyframe (or at 0). Packets of the
/// video and (optionally) the sound are copied into a new QuickTime file, shifted to start at 0.
extension StudioRenderer {
    /// Writes the stream copy and returns what it is, or nil when `trim.start` is not on a keyframe (the
    /// caller then re-encodes). The video ends at the last anchor frame before `trim.end` (a frame whose
    /// references are all kept), so B-frame streams never lose a reference.
    public static func streamCopyTrim(_ source: any ByteSource, to path: String, trim: (start: Double, end: Double),
                                      keepAudio: Bool) throws(LibavError) -> RenderedMovie? {
        let movie = try StudioMovie(source: source)
        let range = try validatedRange(trim, movie: movie)
        let videoIndex = movie.videoStream.pointee.index
        // Pass 1: the keyframe the range starts on.
        var keyframes: [Double] = []
        try PacketReader(input: try LibavInput(source: source)).forEachPacket { (packet, stream) throws(LibavError) in
            guard stream.pointee.index == videoIndex, packet.pointee.flags & AV_PKT_FLAG_KEY != 0,
                  packet.pointee.pts != lg_av_nopts_value() else { return }
            keyframes.append(PacketReader.seconds(packet.pointee.pts - PacketReader.origin(of: stream), stream.pointee.time_base))
        }
        guard let start = keyframes.first(where: { abs($0 - range.start) < movie.frameDuration / 2 }) else { return nil }

        // Pass 2: copy.
        let input = try LibavInput(source: source)
        guard let video = input.stream(at: videoIndex) else { throw LibavError.noVideoStream("video stream vanished") }
        let audio = keepAudio ? movie.audioStream.flatMap { input.stream(at: $0.pointee.index) } : nil
        let muxer = try PacketCopyMuxer(path: path, streams: [video] + (audio.map { [$0] } ?? []))
        var videoEnded = false
        var frames = 0
        var lastEnd = 0.0
        try PacketReader(input: input).forEachPacket { (packet, stream) throws(LibavError) in
            guard packet.pointee.pts != lg_av_nopts_value() else { return }
            let tb = stream.pointee.time_base
            let origin = PacketReader.origin(of: stream)
            let time = PacketReader.seconds(packet.pointee.pts - origin, tb)
            if stream.pointee.index == videoIndex {
                if videoEnded { return }
                if time >= range.end - 1e-6 { videoEnded = true; return }
                guard time >= start - 1e-6 else { return }
                frames += 1
                lastEnd = max(lastEnd, time - start + PacketReader.seconds(max(packet.pointee.duration, 0), tb))
            } else if let audio, stream.pointee.index == audio.pointee.index {
                guard time >= start - 1e-6, time < range.end else { return }
            } else {
                return
            }
            let shift = PacketReader.ticks(start, tb) + origin
            packet.pointee.pts -= shift
            if packet.pointee.dts != lg_av_nopts_value() { packet.pointee.dts -= shift }
            try muxer.write(packet, from: stream)
        }
        try muxer.finish()
        guard frames > 0 else { throw LibavError.noVideoStream("no frame of the movie lies in the kept range") }
        return RenderedMovie(duration: lastEnd, frameCount: frames, streamCopied: true)
    }
}

/// A QuickTime muxer whose streams are copies of input streams (no encoder).
final class PacketCopyMuxer {
    private var format: UnsafeMutablePointer<AVFormatContext>?
    /// Input stream index -> output stream.
    private var outputs: [Int32: UnsafeMutablePointer<AVStream>] = [:]
    private var finished = false

    init(path: String, streams: [UnsafeMutablePointer<AVStream>], formatName: String = "mov") throws(LibavError) {
        try StudioLibraries.ensure()
        var context: UnsafeMutablePointer<AVFormatContext>?
        var result = avformat_alloc_output_context2(&context, nil, formatName, nil)
        guard result >= 0, let context else { throw LibavError.library("avformat_alloc_output_context2", result) }
        format = context
        for stream in streams {
            guard let out = avformat_new_stream(context, nil) else { throw LibavError.outOfMemory("AVStream") }
            result = avcodec_parameters_copy(out.pointee.codecpar, stream.pointee.codecpar)
            guard result >= 0 else { throw LibavError.library("avcodec_parameters_copy", result) }
            out.pointee.time_base = stream.pointee.time_base
            outputs[stream.pointee.index] = out
        }
        context.pointee.pb = try StudioLibraries.openForWriting(path)
        result = avformat_write_header(context, nil)
        guard result >= 0 else { throw LibavError.library("avformat_write_header", result) }
    }

    deinit {
        if let format {
            if format.pointee.pb != nil { avio_closep(&format.pointee.pb) }
            avformat_free_context(format)
        }
    }

    func write(_ packet: UnsafeMutablePointer<AVPacket>, from stream: UnsafeMutablePointer<AVStream>) throws(LibavError) {
        guard let format, let out = outputs[stream.pointee.index] else { return }
        av_packet_rescale_ts(packet, stream.pointee.time_base, out.pointee.time_base)
        packet.pointee.stream_index = out.pointee.index
        packet.pointee.pos = -1
        let result = av_interleaved_write_frame(format, packet)
        guard result >= 0 else { throw LibavError.library("av_interleaved_write_frame", result) }
    }

    func finish() throws(LibavError) {
        guard !finished, let format else { return }
        finished = true
        let result = av_write_trailer(format)
        guard result >= 0 else { throw LibavError.library("av_write_trailer", result) }
        avio_closep(&format.pointee.pb)
    }
}
