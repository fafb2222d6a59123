/// Area-average ("box") resampling: each output pixel is the exact area-weighted mean of the source pixels
/// it covers, the same result as swscale's SWS_AREA and the right filter for large reductions (no aliasing,
/// no ringing). Separable: one horizontal pass into a Float buffer, one vertical pass.
extension PixelFrame {
    /// This frame resampled to `size` (any size ≥ 1x1). Channels are averaged independently: photos are
    /// opaque, so premultiplying alpha would buy nothing.
    public func resized(to size: PixelSize) -> PixelFrame {
        let outW = max(1, size.width), outH = max(1, size.height)
        if outW == width && outH == height { return self }
        guard width > 0, height > 0 else { return PixelFrame(width: outW, height: outH) }
        let columns = AreaWeights(source: width, target: outW)
        let rows = AreaWeights(source: height, target: outH)

        // Horizontal: height x outW x 4 floats.
        var horizontal = [Float](repeating: 0, count: height * outW * 4)
        rgba.withUnsafeBufferPointer { src in
            horizontal.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let srcRow = y * width * 4
                    let dstRow = y * outW * 4
                    for x in 0..<outW {
                        var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                        for tap in columns.taps(of: x) {
                            let p = srcRow + tap.index * 4
                            r += Float(src[p]) * tap.weight
                            g += Float(src[p + 1]) * tap.weight
                            b += Float(src[p + 2]) * tap.weight
                            a += Float(src[p + 3]) * tap.weight
                        }
                        let q = dstRow + x * 4
                        dst[q] = r; dst[q + 1] = g; dst[q + 2] = b; dst[q + 3] = a
                    }
                }
            }
        }

        // Vertical: outH x outW x 4 bytes.
        var out = [UInt8](repeating: 0, count: outW * outH * 4)
        let rowFloats = outW * 4
        horizontal.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var accumulator = [Float](repeating: 0, count: rowFloats)
                for y in 0..<outH {
                    for i in 0..<rowFloats { accumulator[i] = 0 }
                    for tap in rows.taps(of: y) {
                        let base = tap.index * rowFloats
                        for i in 0..<rowFloats { accumulator[i] += src[base + i] * tap.weight }
                    }
                    let dstRow = y * rowFloats
                    for i in 0..<rowFloats {
                        dst[dstRow + i] = UInt8(max(0, min(255, accumulator[i] + 0.5)))
                    }
                }
            }
        }
        return PixelFrame(width: outW, height: outH, rgba: out)
    }

    /// Resampled to fit inside `box` (aspect ratio kept, never enlarged).
    public func fitted(in box: PixelSize) -> PixelFrame {
        resized(to: size.fittedDown(in: box))
    }
}

/// For each target index, the source indices it covers and their normalised coverage weights.
struct AreaWeights {
    struct Tap {
        var index: Int
        var weight: Float
    }
    private var starts: [Int] = []
    private var counts: [Int] = []
    private var all: [Tap] = []

    init(source: Int, target: Int) {
        let scale = Double(source) / Double(target)
        for t in 0..<target {
            // When enlarging, each output pixel covers less than one source pixel: sample the one under
            // its centre (nearest), which the area formula below would also give, just with rounding noise.
            let lo = Double(t) * scale
            let hi = scale >= 1 ? Double(t + 1) * scale : lo + scale
            var first = Int(lo.rounded(.down))
            var last = Int(hi.rounded(.up)) - 1
            first = max(0, min(source - 1, first))
            last = max(first, min(source - 1, last))
            starts.append(all.count)
            var taps: [Tap] = []
            var total: Double = 0
            for s in first...last {
                let cover = min(hi, Double(s + 1)) - max(lo, Double(s))
                if cover > 0 {
                    taps.append(Tap(index: s, weight: Float(cover)))
                    total += cover
                }
            }
            if taps.isEmpty || total <= 0 {
                taps = [Tap(index: first, weight: 1)]
                total = 1
            }
            for i in taps.indices { taps[i].weight = Float(Double(taps[i].weight) / total) }
            counts.append(taps.count)
            all.append(contentsOf: taps)
        }
    }

    func taps(of target: Int) -> ArraySlice<Tap> {
        all[starts[target]..<starts[target] + counts[target]]
    }
}
