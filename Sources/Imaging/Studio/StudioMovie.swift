import CFFmpeg
import MediaFormats

/// A movie opened for the studio: its video stream decoded frame by frame in presentation order, with the
/// facts the renderers need (time base, frame rate, duration, display orientation, the sound stream).
final class StudioMovie {
    let source: any ByteSource
    let input: LibavInput
    let frames: LibavFrameSource
    let videoStream: UnsafeMutablePointer<AVStream>
    let timeBase: AVRational
    let frameRate: AVRational
    /// Stream timestamp of the movie's time zero.
    let origin: Int64
    /// Seconds, from the stream (or the container).
    let duration: Double
    /// The display matrix as an Exif orientation (1...8).
    let orientation: Int
    let codecName: String

    init(source: any ByteSource) throws(LibavError) {
        try StudioLibraries.ensure()
        self.source = source
        input = try LibavInput(source: source)
        let (stream, decoder) = try input.bestVideoStream()
        videoStream = stream
        frames = try LibavFrameSource(input: input, stream: stream, decoder: decoder)
        timeBase = stream.pointee.time_base
        guard timeBase.num > 0, timeBase.den > 0 else { throw LibavError.unsupported("stream time base \(timeBase.num)/\(timeBase.den)") }
        let rate = stream.pointee.avg_frame_rate
        frameRate = rate.num > 0 && rate.den > 0 && Double(rate.num) / Double(rate.den) < 1000 ? rate : AVRational(num: 30, den: 1)
        let noPTS = lg_av_nopts_value()
        origin = stream.pointee.start_time == noPTS ? 0 : stream.pointee.start_time
        if stream.pointee.duration != noPTS, stream.pointee.duration > 0 {
            duration = Double(stream.pointee.duration) * Double(timeBase.num) / Double(timeBase.den)
        } else if let format = input.format, format.pointee.duration != noPTS, format.pointee.duration > 0 {
            duration = Double(format.pointee.duration) / Double(AV_TIME_BASE)
        } else {
            throw LibavError.unsupported("the movie does not say how long it is")
        }
        orientation = MovieDecoder.displayTransform(of: stream).orientation
        codecName = String(cString: avcodec_get_name(stream.pointee.codecpar.pointee.codec_id))
    }

    var frameDuration: Double { Double(frameRate.den) / Double(frameRate.num) }

    /// The sound stream, if the movie has one.
    var audioStream: UnsafeMutablePointer<AVStream>? {
        guard let format = input.format else { return nil }
        for index in 0..<Int32(clamping: format.pointee.nb_streams) {
            if let stream = input.stream(at: index), stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO { return stream }
        }
        return nil
    }

    /// The filter that turns decoded pictures upright (the display matrix applied to the pixels).
    var uprightFilter: String? {
        switch orientation {
        case 2: return "hflip"
        case 3: return "hflip,vflip"
        case 4: return "vflip"
        case 5: return "transpose=cclock_flip"
        case 6: return "transpose=clock"
        case 7: return "transpose=clock_flip"
        case 8: return "transpose=cclock"
        default: return nil
        }
    }

    /// The frame's size once upright (width and height swapped by a quarter turn).
    func uprightSize(of frame: UnsafeMutablePointer<AVFrame>) -> (width: Int, height: Int) {
        let w = Int(frame.pointee.width), h = Int(frame.pointee.height)
        return orientation >= 5 ? (h, w) : (w, h)
    }

    /// Seconds of a frame's timestamp from the movie start.
    func seconds(of frame: UnsafeMutablePointer<AVFrame>) -> Double {
        let stamp = frame.pointee.best_effort_timestamp != lg_av_nopts_value() ? frame.pointee.best_effort_timestamp : frame.pointee.pts
        return Double(stamp - origin) * Double(timeBase.num) / Double(timeBase.den)
    }

    /// Calls `body` with every decoded frame, its pts rebased to the movie start (stream time base).
    /// `body` returns false to stop early.
    func forEachFrame(_ body: (UnsafeMutablePointer<AVFrame>, Double) throws(LibavError) -> Bool) throws(LibavError) {
        while let frame = try frames.nextFrame() {
            let time = seconds(of: frame)
            let stamp = frame.pointee.best_effort_timestamp != lg_av_nopts_value() ? frame.pointee.best_effort_timestamp : frame.pointee.pts
            frame.pointee.pts = stamp - origin
            if try !body(frame, time) { return }
        }
    }

    /// A filter graph fed with this movie's decoded frames.
    func filterGraph(for frame: UnsafeMutablePointer<AVFrame>, description: String) throws(LibavError) -> FilterGraph {
        try FilterGraph(width: frame.pointee.width, height: frame.pointee.height, pixelFormat: frame.pointee.format,
                        timeBase: timeBase, frameRate: frameRate, description: description)
    }
}
