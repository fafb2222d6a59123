/// A size in pixels. Used for decode targets: "fit inside this box, keep the aspect ratio".
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    /// The same size with width and height exchanged (a 90° rotation).
    public var transposed: PixelSize { PixelSize(width: height, height: width) }

    /// The largest size with this size's aspect ratio that fits inside `box` (at least 1x1). With
    /// `allowUpscale` false, a size already inside the box is returned unchanged.
    public func fitting(inside box: PixelSize, allowUpscale: Bool = true) -> PixelSize {
        guard !isEmpty, !box.isEmpty else { return PixelSize(width: max(1, min(width, box.width)), height: max(1, min(height, box.height))) }
        if !allowUpscale && width <= box.width && height <= box.height { return self }
        let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height))
        let fitted = PixelSize(width: Int((Double(width) * scale).rounded()),
                               height: Int((Double(height) * scale).rounded()))
        return PixelSize(width: min(box.width, max(1, fitted.width)), height: min(box.height, max(1, fitted.height)))
    }
}
