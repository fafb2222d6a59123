import CFFmpeg
import MediaFormats

/// The Live Photo studio's renderers: movies re-encoded through libavfilter (trim, adjustments), stream
/// copies where keyframes allow, and the sharing effects (loop, bounce, GIF, long exposure). Each writes
/// to a path the caller owns (an `AtomicFileWriter` temporary) and never touches its input.
public enum StudioRenderer {
    /// What a rendered movie turned out to be.
    public struct RenderedMovie: Sendable, Equatable {
        public var duration: Double
        public var frameCount: Int
        /// True when no picture was re-encoded.
        public var streamCopied: Bool
    }

    /// The same codec as the original, through libavcodec's encoders (HEVC stays HEVC, anything else H.264).
    static func encoderSettings(for codecName: String, width: Int32, height: Int32, timeBase: AVRational,
                        frameRate: AVRational) -> MovieEncoder.VideoSettings {
        if codecName == "hevc" {
            return .init(encoderName: "libx265", width: width, height: height, pixelFormat: AV_PIX_FMT_YUV420P.rawValue,
                         timeBase: timeBase, frameRate: frameRate,
                         options: [("crf", "20"), ("preset", "fast"), ("x265-params", "log-level=error")])
        }
        return .init(encoderName: "libx264", width: width, height: height, pixelFormat: AV_PIX_FMT_YUV420P.rawValue,
                     timeBase: timeBase, frameRate: frameRate, options: [("crf", "18"), ("preset", "veryfast")])
    }

    /// Checks a trim range against the movie; nil = the whole movie.
    static func validatedRange(_ trim: (start: Double, end: Double)?, movie: StudioMovie) throws(LibavError) -> (start: Double, end: Double) {
        guard let trim else { return (0, movie.duration) }
        guard trim.start.isFinite, trim.end.isFinite, trim.start >= 0, trim.start < trim.end else {
            throw LibavError.invalidArgument("the trim must be START:END with 0 ≤ START < END (got \(format(trim.start)):\(format(trim.end)))")
        }
        guard trim.start < movie.duration - movie.frameDuration / 2 else {
            throw LibavError.invalidArgument("the trim starts at \(format(trim.start)) s, past the end of the \(format(movie.duration)) s movie")
        }
        return (trim.start, min(trim.end, movie.duration))
    }

    /// Re-encodes the movie's pictures (same codec) through `trim`, the upright turn and `adjustments`;
    /// the sound, when kept, is copied packet by packet for the kept range.
    public static func renderMovie(_ source: any ByteSource, to path: String, trim: (start: Double, end: Double)?,
                                   adjustments: StudioAdjustments, keepAudio: Bool,
                                   formatName: String = "mov") throws(LibavError) -> RenderedMovie {
        let movie = try StudioMovie(source: source)
        let range = try validatedRange(trim, movie: movie)
        var graph: FilterGraph?
        var encoder: MovieEncoder?
        var lastTime = 0.0
        func drain() throws(LibavError) {
            guard let graph else { return }
            try graph.pull { (frame) throws(LibavError) in
                if encoder == nil {
                    let settings = encoderSettings(for: movie.codecName, width: frame.pointee.width, height: frame.pointee.height,
                                           timeBase: graph.outputTimeBase, frameRate: movie.frameRate)
                    encoder = try MovieEncoder(path: path, formatName: formatName, video: settings,
                                               copying: keepAudio ? movie.audioStream : nil)
                }
                lastTime = Double(frame.pointee.pts) * Double(graph.outputTimeBase.num) / Double(graph.outputTimeBase.den)
                try encoder?.encode(frame)
            }
        }
        try movie.forEachFrame { (frame, time) throws(LibavError) -> Bool in
            if graph == nil {
                let upright = movie.uprightSize(of: frame)
                var chain = ["trim=start=\(range.start):end=\(range.end)", "setpts=PTS-STARTPTS"]
                chain += [movie.uprightFilter].compactMap { $0 }
                chain += adjustments.filters(width: upright.width, height: upright.height)
                chain.append("format=yuv420p")
                graph = try movie.filterGraph(for: frame, description: chain.joined(separator: ","))
            }
            try graph?.push(frame)
            try drain()
            return time < range.end
        }
        try graph?.finish()
        try drain()
        guard let encoder else { throw LibavError.noVideoStream("no frame of the movie lies in the kept range") }
        if keepAudio, movie.audioStream != nil {
            try copyAudio(from: source, range: range, into: encoder)
        }
        try encoder.finish()
        return RenderedMovie(duration: lastTime + movie.frameDuration, frameCount: encoder.framesWritten, streamCopied: false)
    }

    /// Copies the sound packets whose time lies in `range` into `encoder`'s copied stream, shifted to 0.
    static func copyAudio(from source: any ByteSource, range: (start: Double, end: Double), into encoder: MovieEncoder) throws(LibavError) {
        let input = try LibavInput(source: source)
        try PacketReader(input: input).forEachPacket { (packet, stream) throws(LibavError) in
            guard stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO else { return }
            let tb = stream.pointee.time_base
            let startTicks = PacketReader.ticks(range.start, tb)
            guard packet.pointee.pts != lg_av_nopts_value() else { return }
            let time = PacketReader.seconds(packet.pointee.pts - PacketReader.origin(of: stream), tb)
            guard time >= range.start - 1e-6, time < range.end else { return }
            packet.pointee.pts -= startTicks + PacketReader.origin(of: stream)
            if packet.pointee.dts != lg_av_nopts_value() { packet.pointee.dts -= startTicks + PacketReader.origin(of: stream) }
            try encoder.writeCopied(packet)
        }
    }
}

/// Reads every packet of an input in file order.
struct PacketReader {
    let input: LibavInput

    func forEachPacket(_ body: (UnsafeMutablePointer<AVPacket>, UnsafeMutablePointer<AVStream>) throws(LibavError) -> Void) throws(LibavError) {
        guard let format = input.format else { return }
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let packet else { throw LibavError.outOfMemory("AVPacket") }
        while av_read_frame(format, packet) >= 0 {
            defer { av_packet_unref(packet) }
            guard let stream = input.stream(at: packet.pointee.stream_index) else { continue }
            try body(packet, stream)
        }
    }

    static func origin(of stream: UnsafeMutablePointer<AVStream>) -> Int64 {
        stream.pointee.start_time == lg_av_nopts_value() ? 0 : stream.pointee.start_time
    }

    static func seconds(_ ticks: Int64, _ tb: AVRational) -> Double { Double(ticks) * Double(tb.num) / Double(tb.den) }

    static func ticks(_ seconds: Double, _ tb: AVRational) -> Int64 { Int64((seconds * Double(tb.den) / Double(tb.num)).rounded()) }
}
