/// A size in pixels; used as the box a decoded picture must fit into.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// A square box (thumbnail sizes are squares: 128, 256, 512, 1024).
    public init(square side: Int) {
        self.init(width: side, height: side)
    }

    public var description: String { "\(width)x\(height)" }
    public var swapped: PixelSize { PixelSize(width: height, height: width) }
    public var pixelCount: Int { width * height }

    /// The largest size with this size's aspect ratio that fits in `box`, never enlarged, at least 1x1.
    public func fitted(in box: PixelSize) -> PixelSize {
        guard width > 0, height > 0, box.width > 0, box.height > 0 else { return PixelSize(width: 1, height: 1) }
        if width <= box.width && height <= box.height { return self }
        let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height))
        return PixelSize(width: max(1, min(box.width, Int((Double(width) * scale).rounded()))),
                         height: max(1, min(box.height, Int((Double(height) * scale).rounded()))))
    }

    /// True when this size is at least `other` in both dimensions.
    public func covers(_ other: PixelSize) -> Bool {
        width >= other.width && height >= other.height
    }

    /// True when the two aspect ratios agree within `tolerance` (relative): an embedded thumbnail with
    /// black bars must not stand in for the photo.
    public func hasAspectRatio(of other: PixelSize, tolerance: Double = 0.03) -> Bool {
        guard width > 0, height > 0, other.width > 0, other.height > 0 else { return false }
        let a = Double(width) / Double(height)
        let b = Double(other.width) / Double(other.height)
        return abs(a - b) / b <= tolerance
    }
}

extension PixelFrame {
    public var size: PixelSize { PixelSize(width: width, height: height) }
}
