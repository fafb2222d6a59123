import CFFmpeg
import MediaFormats

/// Apple's sharing effects for places where Live Photos do not play.
public enum StudioEffect: String, Sendable, CaseIterable {
    case loop, bounce, gif
    case longExposure = "long-exposure"

    /// The new file's extension.
    public var fileExtension: String {
        switch self {
        case .loop, .bounce: return "mp4"
        case .gif: return "gif"
        case .longExposure: return "jpg"
        }
    }
}

extension StudioRenderer {
    /// The crossfade at a loop's seam: half a second, or a quarter of a short movie.
    static func loopFade(duration: Double) -> Double { min(0.5, duration / 4) }

    /// Loop: the movie without its first `fade` seconds, whose last `fade` seconds cross-fade into the
    /// first `fade` seconds; played again and again, the last frame leads into the first without a jump.
    /// Bounce: the movie forward then reversed. Both H.264 MP4 (plays everywhere), upright, no sound.
    public static func renderMovieEffect(_ effect: StudioEffect, source: any ByteSource, to path: String) throws(LibavError) -> RenderedMovie {
        let movie = try StudioMovie(source: source)
        let upright = [movie.uprightFilter].compactMap { $0 }
        let chain: String
        switch effect {
        case .loop:
            // The decoded duration, not the container's: xfade's offset counts frames actually present.
            let times = try frameTimes(ofMovie: source)
            guard times.count >= 4 else { throw LibavError.invalidArgument("a loop needs a movie of at least 4 frames") }
            let duration = (times.last ?? 0) + movie.frameDuration
            let fade = loopFade(duration: duration)
            let offset = duration - 2 * fade
            chain = (upright + ["format=yuv420p", "split[a][b]",
                                "[a]trim=start=0:end=\(fade),setpts=PTS-STARTPTS[head]",
                                "[b]trim=start=\(fade),setpts=PTS-STARTPTS[body]",
                                "[body][head]xfade=transition=fade:duration=\(fade):offset=\(max(0, offset))"])
                .joined(separator: ",").replacingOccurrences(of: ",[", with: ";[")
        case .bounce:
            chain = (upright + ["format=yuv420p", "split[a][b]", "[b]reverse[r]", "[a][r]concat=n=2:v=1:a=0"])
                .joined(separator: ",").replacingOccurrences(of: ",[", with: ";[")
        case .gif, .longExposure:
            throw LibavError.invalidArgument("\(effect.rawValue) is not a movie effect")
        }
        return try encode(movie, chain: chain, to: path, formatName: "mp4", settings: { graph, frame in
            encoderSettings(for: "h264", width: frame.pointee.width, height: frame.pointee.height,
                            timeBase: graph.outputTimeBase, frameRate: movie.frameRate)
        })
    }

    /// A palette-optimised looping GIF (palettegen + paletteuse) no larger than `maxBytes`: made at 480 px
    /// wide and 15 frames a second, then smaller and slower until it fits.
    public static func renderGIF(source: any ByteSource, to path: String, maxBytes: Int) throws(LibavError) -> (RenderedMovie, bytes: Int, width: Int) {
        let steps: [(width: Int, fps: Int)] = [(480, 15), (400, 12), (320, 12), (240, 10), (180, 10), (120, 8)]
        for step in steps {
            let movie = try StudioMovie(source: source)
            let upright = [movie.uprightFilter].compactMap { $0 }
            let chain = (upright + ["fps=\(step.fps)", "scale=\(step.width):-2:flags=lanczos", "split[a][b]",
                                    "[a]palettegen=stats_mode=diff[p]", "[b][p]paletteuse=dither=bayer:bayer_scale=4:diff_mode=rectangle"])
                .joined(separator: ",").replacingOccurrences(of: ",[", with: ";[")
            let rendered = try encode(movie, chain: chain, to: path, formatName: "gif", settings: { graph, frame in
                MovieEncoder.VideoSettings(encoderName: "gif", width: frame.pointee.width, height: frame.pointee.height,
                                           pixelFormat: AV_PIX_FMT_PAL8.rawValue, timeBase: graph.outputTimeBase,
                                           frameRate: AVRational(num: Int32(step.fps), den: 1))
            })
            let size = StudioLibraries.fileSize(path)
            if size <= maxBytes { return (rendered, size, step.width) }
        }
        throw LibavError.invalidArgument("even a 120-pixel GIF is larger than \(maxBytes) bytes; raise --max-size")
    }

    /// Runs every frame through `chain` into a new file.
    static func encode(_ movie: StudioMovie, chain: String, to path: String, formatName: String,
                       settings: (FilterGraph, UnsafeMutablePointer<AVFrame>) -> MovieEncoder.VideoSettings) throws(LibavError) -> RenderedMovie {
        var graph: FilterGraph?
        var encoder: MovieEncoder?
        var lastTime = 0.0
        func drain() throws(LibavError) {
            guard let graph else { return }
            try graph.pull { (frame) throws(LibavError) in
                if encoder == nil {
                    encoder = try MovieEncoder(path: path, formatName: formatName, video: settings(graph, frame))
                }
                lastTime = Double(frame.pointee.pts) * Double(graph.outputTimeBase.num) / Double(graph.outputTimeBase.den)
                try encoder?.encode(frame)
            }
        }
        try movie.forEachFrame { (frame, _) throws(LibavError) -> Bool in
            if graph == nil { graph = try movie.filterGraph(for: frame, description: chain) }
            try graph?.push(frame)
            try drain()
            return true
        }
        try graph?.finish()
        try drain()
        guard let encoder else { throw LibavError.noVideoStream("no frame of the movie could be decoded") }
        try encoder.finish()
        return RenderedMovie(duration: lastTime + movie.frameDuration, frameCount: encoder.framesWritten, streamCopied: false)
    }
}
