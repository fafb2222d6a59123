import CFFmpeg
import MediaFormats

/// Long exposure: the mean of every frame of the movie, aligned first when the camera moved.
extension StudioRenderer {
    public struct LongExposure: Sendable {
        public var image: RGBImage
        public var frameCount: Int
        /// True when the frames were aligned (libavfilter `deshake`) before averaging.
        public var aligned: Bool
        /// The largest whole-picture shift measured between the first frame and any other, in pixels of
        /// the full picture (what decided the alignment).
        public var measuredShift: Double
    }

    public enum Alignment: Sendable { case automatic, always, never }

    /// Width of the grey copies the camera's movement is measured on: one pixel there is ~1% of the
    /// picture's width, the smallest movement that visibly blurs a long exposure's still parts.
    static let motionProbeWidth = 96

    public static func longExposure(source: any ByteSource, alignment: Alignment = .automatic) throws(LibavError) -> LongExposure {
        let shift = alignment == .automatic ? try largestShift(source: source) : 0
        let align = alignment == .always || (alignment == .automatic && shift > 0)
        let movie = try StudioMovie(source: source)
        let chain = [movie.uprightFilter].compactMap { $0 } + (align ? ["deshake=edge=mirror"] : []) + ["format=rgb24"]
        var graph: FilterGraph?
        var sums: [UInt32] = []
        var size = (width: 0, height: 0)
        var count = 0
        func drain() throws(LibavError) {
            try graph?.pull { (frame) throws(LibavError) in
                let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
                guard let base = frame.pointee.data.0 else { return }
                if sums.isEmpty {
                    size = (width, height)
                    sums = [UInt32](repeating: 0, count: width * height * 3)
                }
                guard width == size.width, height == size.height else { return }
                let stride = Int(frame.pointee.linesize.0)
                sums.withUnsafeMutableBufferPointer { total in
                    for row in 0..<height {
                        let line = base + row * stride
                        let out = row * width * 3
                        for column in 0..<(width * 3) { total[out + column] &+= UInt32(line[column]) }
                    }
                }
                count += 1
            }
        }
        try movie.forEachFrame { (frame, _) throws(LibavError) -> Bool in
            if graph == nil { graph = try movie.filterGraph(for: frame, description: chain.joined(separator: ",")) }
            try graph?.push(frame)
            try drain()
            // 2^32 / 255: more frames than any Live Photo could overflow a sum.
            return count < 16_000_000
        }
        try graph?.finish()
        try drain()
        guard count > 0 else { throw LibavError.noVideoStream("no frame of the movie could be decoded") }
        let divisor = UInt32(count), half = UInt32(count / 2)
        let mean = sums.map { UInt8(min(255, ($0 + half) / divisor)) }
        return LongExposure(image: RGBImage(width: size.width, height: size.height, rgb: mean), frameCount: count,
                            aligned: align, measuredShift: shift)
    }

    /// The largest translation against the first frame of up to 8 frames spread over the movie, found on
    /// 96-pixel-wide grey copies by an exhaustive search of ±6 pixels, in full-resolution pixels (our own:
    /// a whole-picture shift is all the decision needs, and libavfilter's deshake then does the aligning).
    static func largestShift(source: any ByteSource) throws(LibavError) -> Double {
        let movie = try StudioMovie(source: source)
        let chain = [movie.uprightFilter].compactMap { $0 } + ["scale=\(motionProbeWidth):-2", "format=gray"]
        let frameCount = max(1, Int(movie.duration / movie.frameDuration))
        let step = max(1, frameCount / 8)
        var index = 0
        var graph: FilterGraph?
        var first: [UInt8] = []
        var width = 0, height = 0
        var largest = 0.0
        var fullWidth = 1
        func drain() throws(LibavError) {
            try graph?.pull { (frame) throws(LibavError) in
                let current = index
                index += 1
                guard current % step == 0, let base = frame.pointee.data.0 else { return }
                let w = Int(frame.pointee.width), h = Int(frame.pointee.height), stride = Int(frame.pointee.linesize.0)
                var grey = [UInt8](repeating: 0, count: w * h)
                for row in 0..<h { for column in 0..<w { grey[row * w + column] = base[row * stride + column] } }
                if first.isEmpty { first = grey; width = w; height = h; return }
                guard w == width, h == height else { return }
                let (dx, dy) = bestShift(first, grey, width: w, height: h, radius: 6)
                largest = max(largest, (Double(dx * dx + dy * dy)).squareRoot() * Double(fullWidth) / Double(w))
            }
        }
        try movie.forEachFrame { (frame, _) throws(LibavError) -> Bool in
            if graph == nil {
                fullWidth = movie.uprightSize(of: frame).width
                graph = try movie.filterGraph(for: frame, description: chain.joined(separator: ","))
            }
            try graph?.push(frame)
            try drain()
            return true
        }
        try graph?.finish()
        try drain()
        return largest
    }

    /// The (dx, dy) within ±radius minimising the mean absolute difference over the overlap.
    static func bestShift(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int, radius: Int) -> (Int, Int) {
        var best = (0, 0)
        var bestCost = Double.infinity
        for dy in -radius...radius {
            for dx in -radius...radius {
                var total = 0, samples = 0
                let rows = max(0, -dy)..<min(height, height - dy)
                let columns = max(0, -dx)..<min(width, width - dx)
                guard !rows.isEmpty, !columns.isEmpty else { continue }
                for y in stride(from: rows.lowerBound, to: rows.upperBound, by: 2) {
                    for x in stride(from: columns.lowerBound, to: columns.upperBound, by: 2) {
                        total += abs(Int(a[y * width + x]) - Int(b[(y + dy) * width + x + dx]))
                        samples += 1
                    }
                }
                let cost = Double(total) / Double(max(1, samples)) + 0.01 * Double(abs(dx) + abs(dy))
                if cost < bestCost { bestCost = cost; best = (dx, dy) }
            }
        }
        return best
    }
}
