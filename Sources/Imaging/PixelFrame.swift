/// One picture in memory: 8-bit sRGB RGBA, rows top to bottom, no padding. The single pixel type shared by
/// decoders, the video player and the terminal renderer (as timg does), so no stage converts twice.
public struct PixelFrame: Sendable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes.
    public var rgba: [UInt8]

    public init(width: Int, height: Int, rgba: [UInt8]) {
        precondition(width >= 0 && height >= 0 && rgba.count == width * height * 4, "PixelFrame size mismatch")
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// A frame filled with one colour.
    public init(width: Int, height: Int, fill: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) = (0, 0, 0, 255)) {
        self.width = width
        self.height = height
        var px = [UInt8](repeating: 0, count: width * height * 4)
        var i = 0
        while i < px.count {
            px[i] = fill.r; px[i + 1] = fill.g; px[i + 2] = fill.b; px[i + 3] = fill.a
            i += 4
        }
        self.rgba = px
    }

    public var byteCount: Int { rgba.count }
    public var rowBytes: Int { width * 4 }
}
