import CFFmpeg
import CTurboJPEG
import MediaFormats

/// An upright picture as packed 8-bit RGB rows, what the studio's stills are made of.
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var rgb: [UInt8]

    public init(width: Int, height: Int, rgb: [UInt8]) {
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// Copies a `rgb24` AVFrame's rows.
    init(frame: UnsafeMutablePointer<AVFrame>) throws(LibavError) {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        guard frame.pointee.format == AV_PIX_FMT_RGB24.rawValue, width > 0, height > 0,
              let base = frame.pointee.data.0 else { throw LibavError.unsupported("filter output is not RGB") }
        let stride = Int(frame.pointee.linesize.0)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        rgb.withUnsafeMutableBufferPointer { out in
            for row in 0..<height {
                (out.baseAddress! + row * width * 3).update(from: base + row * stride, count: width * 3)
            }
        }
        self.init(width: width, height: height, rgb: rgb)
    }

    /// A JPEG of this picture (TurboJPEG, 4:2:0, quality 92: what cameras write).
    public func jpeg(quality: Int32 = 92) throws(LibavError) -> [UInt8] {
        guard let handle = tjInitCompress() else { throw LibavError.outOfMemory("TurboJPEG compressor") }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let result = rgb.withUnsafeBufferPointer { pixels in
            tjCompress2(handle, pixels.baseAddress, Int32(width), Int32(width * 3), Int32(height), Int32(TJPF_RGB.rawValue),
                        &buffer, &size, Int32(TJSAMP_420.rawValue), quality, 0)
        }
        defer { if let buffer { tjFree(buffer) } }
        guard result == 0, let buffer, size > 0 else { throw LibavError.unsupported("TurboJPEG could not encode the still") }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }

    /// Mean absolute difference per channel value with `other` (same size), for tests and alignment.
    public func meanDifference(to other: RGBImage) -> Double? {
        guard width == other.width, height == other.height, !rgb.isEmpty else { return nil }
        var total = 0
        for index in rgb.indices { total += abs(Int(rgb[index]) - Int(other.rgb[index])) }
        return Double(total) / Double(rgb.count)
    }
}

extension StudioRenderer {
    /// The frame of the movie shown at `seconds` (the last frame starting at or before it), upright, at
    /// the movie's full resolution, with `adjustments` applied; and that frame's own time.
    public static func frame(ofMovie source: any ByteSource, at seconds: Double,
                             adjustments: StudioAdjustments = StudioAdjustments()) throws(LibavError) -> (image: RGBImage, time: Double) {
        let movie = try StudioMovie(source: source)
        guard seconds.isFinite, seconds >= 0, seconds < movie.duration else {
            throw LibavError.invalidArgument("\(seconds) s is outside the movie (0 to \(Self.format(movie.duration)) s)")
        }
        var chosen: UnsafeMutablePointer<AVFrame>?
        var chosenTime = 0.0
        defer { av_frame_free(&chosen) }
        try movie.forEachFrame { (frame, time) throws(LibavError) -> Bool in
            // Half a millisecond of slack: a time printed with three decimals still picks its own frame.
            guard chosen == nil || time <= seconds + 0.0005 else { return false }
            av_frame_free(&chosen)
            chosen = av_frame_clone(frame)
            chosenTime = time
            return true
        }
        guard let chosen else { throw LibavError.noVideoStream("no frame of the movie could be decoded") }
        return (try rgbImage(of: chosen, movie: movie, adjustments: adjustments), chosenTime)
    }

    /// Times of every frame of the movie (for the key-photo mode and tests).
    public static func frameTimes(ofMovie source: any ByteSource) throws(LibavError) -> [Double] {
        let movie = try StudioMovie(source: source)
        var times: [Double] = []
        try movie.forEachFrame { (_, time) throws(LibavError) -> Bool in times.append(time); return true }
        return times
    }

    static func rgbImage(of frame: UnsafeMutablePointer<AVFrame>, movie: StudioMovie,
                         adjustments: StudioAdjustments) throws(LibavError) -> RGBImage {
        let upright = movie.uprightSize(of: frame)
        let chain = [movie.uprightFilter].compactMap { $0 } + adjustments.filters(width: upright.width, height: upright.height) + ["format=rgb24"]
        let graph = try movie.filterGraph(for: frame, description: chain.joined(separator: ","))
        return try firstImage(through: graph, frame: frame)
    }

    /// The still (decoded RGBA, upright) with `adjustments`, through the same filters as the movie.
    public static func adjusted(_ still: PixelFrame, adjustments: StudioAdjustments) throws(LibavError) -> RGBImage {
        try StudioLibraries.ensure()
        guard let frame = av_frame_alloc() else { throw LibavError.outOfMemory("AVFrame") }
        defer { var owned: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&owned) }
        frame.pointee.width = Int32(still.width)
        frame.pointee.height = Int32(still.height)
        frame.pointee.format = AV_PIX_FMT_RGBA.rawValue
        frame.pointee.pts = 0
        let result = av_frame_get_buffer(frame, 0)
        guard result >= 0, let base = frame.pointee.data.0 else { throw LibavError.library("av_frame_get_buffer", result) }
        let stride = Int(frame.pointee.linesize.0)
        still.rgba.withUnsafeBufferPointer { pixels in
            for row in 0..<still.height {
                (base + row * stride).update(from: pixels.baseAddress! + row * still.rowBytes, count: still.rowBytes)
            }
        }
        let chain = adjustments.filters(width: still.width, height: still.height) + ["format=rgb24"]
        let graph = try FilterGraph(width: frame.pointee.width, height: frame.pointee.height, pixelFormat: frame.pointee.format,
                                    timeBase: AVRational(num: 1, den: 30), frameRate: nil, description: chain.joined(separator: ","))
        return try firstImage(through: graph, frame: frame)
    }

    private static func firstImage(through graph: FilterGraph, frame: UnsafeMutablePointer<AVFrame>) throws(LibavError) -> RGBImage {
        try graph.push(frame)
        try graph.finish()
        var image: RGBImage?
        try graph.pull { (output) throws(LibavError) in
            if image == nil { image = try RGBImage(frame: output) }
        }
        guard let image else { throw LibavError.unsupported("the filters produced no picture") }
        return image
    }

    static func format(_ seconds: Double) -> String {
        let text = String(seconds.rounded(toPlaces: 3))
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}

extension Double {
    func rounded(toPlaces places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (self * scale).rounded() / scale
    }
}
