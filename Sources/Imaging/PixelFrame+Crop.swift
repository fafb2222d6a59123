/// A rectangle of image pixels (origin top-left).
public struct PixelRect: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

extension PixelFrame {
    /// The pixels of `rect`, clipped to the frame (an empty frame when nothing of it is inside): the 1:1 zoom
    /// of the viewer shows only this part of the full-size image.
    public func cropped(to rect: PixelRect) -> PixelFrame {
        let left = min(max(0, rect.x), width), top = min(max(0, rect.y), height)
        let right = min(max(left, rect.x + rect.width), width), bottom = min(max(top, rect.y + rect.height), height)
        let newWidth = right - left, newHeight = bottom - top
        guard newWidth > 0, newHeight > 0 else { return PixelFrame(width: 0, height: 0, rgba: []) }
        var out = [UInt8]()
        out.reserveCapacity(newWidth * newHeight * 4)
        for row in top..<bottom {
            let start = (row * width + left) * 4
            out.append(contentsOf: rgba[start..<(start + newWidth * 4)])
        }
        return PixelFrame(width: newWidth, height: newHeight, rgba: out)
    }
}
