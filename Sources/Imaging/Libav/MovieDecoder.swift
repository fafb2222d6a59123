import CFFmpeg
import MediaFormats

/// Decodes the video stream of a movie (QuickTime/MP4 or anything libavformat reads) from a `ByteSource`,
/// frame by frame in presentation order, as upright RGBA frames scaled to fit a box.
///
/// Reads through `ByteSourceIOContext`, so a Motion Photo's embedded MP4 decodes straight from its byte
/// range in the still (`SliceByteSource`). Timestamps are seconds from the movie start after the edit list
/// (libavformat's mov demuxer applies edit lists). Not thread-safe: use one instance from one thread at a
/// time (it may move between threads, hence `@unchecked Sendable`).
// unchecked: libav C pointers (format, codec, scaler contexts), used by one thread at a time.
public final class MovieDecoder: @unchecked Sendable {
    public let info: MovieStreamInfo
    private let input: LibavInput
    private let frames: LibavFrameSource
    private let scaler = FrameScaler()
    private let timeBase: Double
    /// Stream timestamp of the movie's time zero.
    private let originTimestamp: Int64
    private let fallbackFrameDuration: Double
    private var nextIndex = 0
    private var lastPTS: Double?
    private var lastDuration: Double = 0
    /// After `seek(to:)`: frames that end before this time are decoded but not scaled.
    private var seekTarget: Double?
    /// The latest frame skipped while seeking, shown if the target lies past the last frame.
    private var heldFrame: UnsafeMutablePointer<AVFrame>?
    private var heldFrameTiming: (pts: Double, duration: Double)?

    /// Opens `source` and its best video stream. Throws `LibavError` for data libav cannot read or that
    /// holds no decodable video.
    /// `shownAtMost`: the largest size frames will be asked for, when known (playback in a terminal): a
    /// movie shown at half its size or less decodes without the loop filter (invisible once shrunk).
    /// The header alone describes a QuickTime/MP4 movie, so it opens without probing (see `LibavInput`).
    public init(source: any ByteSource, threadCount: Int = 2, shownAtMost: PixelSize? = nil) throws(LibavError) {
        input = try LibavInput(source: source, quickOpen: true)
        let (stream, decoder) = try input.bestVideoStream()
        var shrunk = false
        if let shownAtMost, let parameters = stream.pointee.codecpar {
            shrunk = Int(parameters.pointee.width) >= 2 * shownAtMost.width
                && Int(parameters.pointee.height) >= 2 * shownAtMost.height
        }
        frames = try LibavFrameSource(input: input, stream: stream, decoder: decoder,
                                      threadCount: Int32(max(1, min(threadCount, 16))), skipLoopFilter: shrunk,
                                      waitForKeyFrame: true)
        guard let parameters = stream.pointee.codecpar else { throw LibavError.unsupported("stream without codec parameters") }
        let tb = stream.pointee.time_base
        guard tb.num > 0, tb.den > 0 else { throw LibavError.unsupported("stream time base \(tb.num)/\(tb.den)") }
        timeBase = Double(tb.num) / Double(tb.den)
        let noPTS = lg_av_nopts_value()
        originTimestamp = stream.pointee.start_time == noPTS ? 0 : stream.pointee.start_time

        let coded = PixelSize(width: Int(parameters.pointee.width), height: Int(parameters.pointee.height))
        guard !coded.isEmpty, coded.width <= 32768, coded.height <= 32768 else {
            throw LibavError.unsupported("video size \(coded)")
        }
        let sar = Self.ratio(parameters.pointee.sample_aspect_ratio) ?? Self.ratio(stream.pointee.sample_aspect_ratio) ?? 1
        let sampleAspect = (sar > 0.1 && sar < 10) ? sar : 1
        let (rotation, orientation) = Self.displayTransform(of: stream)
        let square = PixelSize(width: max(1, Int((Double(coded.width) * sampleAspect).rounded())), height: coded.height)
        let frameRate = Self.ratio(stream.pointee.avg_frame_rate).flatMap { $0 > 0 && $0 < 1000 ? $0 : nil }

        var duration: Double?
        if stream.pointee.duration != noPTS, stream.pointee.duration > 0 {
            duration = Double(stream.pointee.duration) * timeBase
        } else if let format = input.format, format.pointee.duration != noPTS, format.pointee.duration > 0 {
            duration = Double(format.pointee.duration) / Double(AV_TIME_BASE)
        }
        fallbackFrameDuration = frameRate.map { 1 / $0 } ?? (1.0 / 30)
        info = MovieStreamInfo(
            containerFormat: input.formatName,
            codecName: String(cString: avcodec_get_name(parameters.pointee.codec_id)),
            streamIndex: Int(stream.pointee.index),
            codedSize: coded,
            sampleAspectRatio: sampleAspect,
            rotation: rotation,
            orientation: orientation,
            displaySize: PixelFrame.exifOrientationSwapsAxes(orientation) ? square.transposed : square,
            duration: duration,
            timeBase: Fraction(tb.num, tb.den),
            averageFrameRate: frameRate,
            frameCount: stream.pointee.nb_frames > 0 ? Int(stream.pointee.nb_frames) : nil)
    }

    /// Opens libav* now (they are opened on first use): a browser showing Live Photos calls this in the
    /// background at start, so the first press does not pay the 50-100 ms of loading them. Never throws: a
    /// missing library is reported when a movie is opened.
    public static func preloadLibraries() {
        _ = try? LibavSetup.ensure()   // try?: a missing library is reported when a movie is opened
    }

    /// Opens a movie file by path.
    public convenience init(path: String, threadCount: Int = 2) throws(LibavError) {
        let source = try LibavInput.openFile(path)
        try self.init(source: source, threadCount: threadCount)
    }

    deinit { av_frame_free(&heldFrame) }

    /// Damaged packets or frames skipped so far (a non-zero count means the movie is partly broken).
    public var damagedPackets: Int { frames.damagedPackets }

    /// The next frame in presentation order, fitted inside `box` keeping the display aspect (upscaled if
    /// smaller; nil box = the display size), or nil at the end of the movie.
    public func nextFrame(fitting box: PixelSize? = nil) throws(LibavError) -> DecodedFrame? {
        try nextFrame(fitting: box, skippingWhere: nil)
    }

    /// Like `nextFrame(fitting:)`, but frames for which `isLate(pts, duration)` is true are decoded (the
    /// codec needs them as references) and not scaled, which is most of the cost saved; a player passes
    /// "already past its display slot". `skippedFrames` counts them.
    public func nextFrame(fitting box: PixelSize?,
                          skippingWhere isLate: ((_ pts: Double, _ duration: Double) -> Bool)?) throws(LibavError) -> DecodedFrame? {
        if let box, box.isEmpty { throw LibavError.invalidArgument("target box \(box)") }
        while let frame = try frames.nextFrame() {
            let timing = timing(of: frame)
            if let target = seekTarget {
                // Skip frames that end before the target: the frame shown at `target` is the one spanning it.
                if timing.pts + timing.duration <= target + 1e-6 {
                    hold(frame, timing: timing)
                    continue
                }
                seekTarget = nil
            }
            if let isLate, isLate(timing.pts, timing.duration) {
                skippedFrames += 1
                nextIndex += 1
                continue
            }
            return try produce(frame, timing: timing, box: box)
        }
        // End of stream. A seek past the last frame shows the last frame, as players do.
        if seekTarget != nil, let held = heldFrame, let timing = heldFrameTiming {
            seekTarget = nil
            heldFrameTiming = nil
            return try produce(held, timing: timing, box: box)
        }
        return nil
    }

    /// Frames `nextFrame(fitting:skippingWhere:)` decoded but skipped as late.
    public private(set) var skippedFrames = 0

    /// Moves to `seconds` from the movie start: the next `nextFrame` returns the frame shown at that time.
    public func seek(to seconds: Double) throws(LibavError) {
        guard seconds.isFinite else { throw LibavError.invalidArgument("seek to \(seconds) s") }
        let target = max(0, seconds)
        let timestamp = originTimestamp + Int64((target / timeBase).rounded(.down))
        try frames.seek(toStreamTimestamp: timestamp)
        seekTarget = target
        lastPTS = nil
        heldFrameTiming = nil
    }

    /// The frame shown at `seconds` (a poster frame, e.g. at the still-image time), or nil for an empty movie.
    public func frame(at seconds: Double, fitting box: PixelSize? = nil) throws(LibavError) -> DecodedFrame? {
        try seek(to: seconds)
        return try nextFrame(fitting: box)
    }

    /// The poster frame of a movie: the frame shown at `seconds` (e.g. the still-image time of a movie
    /// whose still is missing), upright and fitted inside `box`. One decoder thread: for a single frame,
    /// frame threading only adds start-up latency.
    public static func posterFrame(source: any ByteSource, at seconds: Double = 0,
                                   fitting box: PixelSize? = nil) throws(LibavError) -> PixelFrame {
        let decoder = try MovieDecoder(source: source, threadCount: 1)
        guard let frame = try decoder.frame(at: seconds, fitting: box) else {
            throw LibavError.noVideoStream("the movie has no frames")
        }
        return frame.pixels
    }

    // MARK: - helpers

    private func produce(_ frame: UnsafeMutablePointer<AVFrame>, timing: (pts: Double, duration: Double),
                         box: PixelSize?) throws(LibavError) -> DecodedFrame {
        let upright = box.map { info.displaySize.fitting(inside: $0) } ?? info.displaySize
        let swaps = PixelFrame.exifOrientationSwapsAxes(info.orientation)
        let scaled = try scaler.scale(frame, to: swaps ? upright.transposed : upright)
        let pixels = info.orientation == 1 ? scaled : scaled.applyingExifOrientation(info.orientation)
        defer { nextIndex += 1 }
        return DecodedFrame(pixels: pixels, pts: timing.pts, duration: timing.duration, index: nextIndex)
    }

    private func timing(of frame: UnsafeMutablePointer<AVFrame>) -> (pts: Double, duration: Double) {
        let noPTS = lg_av_nopts_value()
        var stamp = frame.pointee.best_effort_timestamp
        if stamp == noPTS { stamp = frame.pointee.pts }
        var pts: Double
        if stamp != noPTS {
            pts = Double(stamp - originTimestamp) * timeBase
        } else {
            pts = (lastPTS ?? -lastDuration) + lastDuration
        }
        // Keep timestamps strictly increasing even if the container repeats one.
        if let last = lastPTS, pts <= last { pts = last + 1e-6 }
        let duration = frame.pointee.pkt_duration > 0 ? Double(frame.pointee.pkt_duration) * timeBase : fallbackFrameDuration
        lastPTS = pts
        lastDuration = duration
        return (pts, duration)
    }

    private func hold(_ frame: UnsafeMutablePointer<AVFrame>, timing: (pts: Double, duration: Double)) {
        if heldFrame == nil { heldFrame = av_frame_alloc() }
        guard let held = heldFrame else { return }
        av_frame_unref(held)
        if av_frame_ref(held, frame) >= 0 { heldFrameTiming = timing } else { heldFrameTiming = nil }
    }

    private static func ratio(_ value: AVRational) -> Double? {
        guard value.num > 0, value.den > 0 else { return nil }
        return Double(value.num) / Double(value.den)
    }

    /// Reads the display matrix and maps it to an Exif orientation the way ffmpeg's autorotate does
    /// (transpose/hflip/vflip choices included), so mirrored movies come out right too.
    static func displayTransform(of stream: UnsafeMutablePointer<AVStream>) -> (rotation: Double, orientation: Int) {
        var size: Int = 0
        guard let raw = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 9 * 4 else {
            return (0, 1)
        }
        let matrix = UnsafeRawPointer(raw).bindMemory(to: Int32.self, capacity: 9)
        let rotation = av_display_rotation_get(matrix)
        guard rotation.isFinite else { return (0, 1) }
        return (rotation, orientation(rotation: rotation, m0: matrix[0], m3: matrix[3], m4: matrix[4]))
    }

    /// Exif orientation for an anticlockwise `rotation` and the matrix entries ffmpeg consults for flips.
    static func orientation(rotation: Double, m0: Int32, m3: Int32, m4: Int32) -> Int {
        var theta = -rotation.rounded()
        theta -= 360 * (theta / 360 + 0.9 / 360).rounded(.down)
        if abs(theta - 90) < 1 { return m3 > 0 ? 5 : 6 }
        if abs(theta - 270) < 1 { return m3 < 0 ? 7 : 8 }
        if abs(theta - 180) < 1 {
            switch (m0 < 0, m4 < 0) {
            case (true, true): return 3
            case (true, false): return 2
            case (false, true): return 4
            case (false, false): return 1
            }
        }
        return m4 < 0 ? 4 : 1
    }
}
