/// What the still decoders and the thumbnail cache ask of a size (the type lives in Libav/PixelSize.swift).
extension PixelSize {
    /// A square box (thumbnail sizes are squares: 128, 256, 512, 1024).
    public init(square side: Int) {
        self.init(width: side, height: side)
    }

    public var pixelCount: Int { width * height }

    /// The size fitted into `box`, never enlarged: what a decoder produces for a requested box.
    public func fittedDown(in box: PixelSize) -> PixelSize {
        fitting(inside: box, allowUpscale: false)
    }

    /// True when this size is at least `other` in both dimensions.
    public func covers(_ other: PixelSize) -> Bool {
        width >= other.width && height >= other.height
    }

    /// True when this size reaches `coverage` (0...1) of `other` in both dimensions.
    public func covers(_ other: PixelSize, coverage: Double) -> Bool {
        Double(width) >= Double(other.width) * coverage && Double(height) >= Double(other.height) * coverage
    }

    /// True when the two aspect ratios agree within `tolerance` (relative): an embedded thumbnail with
    /// black bars must not stand in for the photo.
    public func hasAspectRatio(of other: PixelSize, tolerance: Double = 0.03) -> Bool {
        guard !isEmpty, !other.isEmpty else { return false }
        let a = Double(width) / Double(height)
        let b = Double(other.width) / Double(other.height)
        return abs(a - b) / b <= tolerance
    }
}

extension PixelFrame {
    public var size: PixelSize { PixelSize(width: width, height: height) }
}
