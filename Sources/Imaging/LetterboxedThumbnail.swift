/// Exif thumbnails with black bars. Canon, Nikon, Leica and Sigma cameras shoot 3:2 but embed a 4:3 160x120
/// thumbnail, the picture centred between two black bars. The aspect rule refused them, so a third of camera
/// JPEGs always took a full decode (issue 28: 4.4x the floor locally, a whole-file download over sftp).
/// Such a thumbnail serves once the bars are cut off, but only when they really are bars: near-black and flat,
/// as a camera pads. A photo's own dark edge is never cut: a thumbnail whose "bars" hold any detail is refused
/// as before.
enum LetterboxedThumbnail {
    struct Rect: Equatable {
        var x: Int, y: Int, width: Int, height: Int
        var size: PixelSize { PixelSize(width: width, height: height) }
    }

    /// Bars thinner than this are rounding, not padding; thicker than a quarter of the thumbnail, it is not a
    /// letterbox of the same photo.
    static let minimumBar = 2
    static let maximumBarFraction = 0.25
    /// A camera's bars are black (or JPEG's near-black) and flat; any detail means picture.
    static let brightestBarValue: UInt8 = 40
    static let widestBarRange: UInt8 = 14

    /// Where a picture of `full`'s aspect sits inside `thumbnail` when it is fitted and centred; nil when the
    /// aspects already match, or the bars would be too thin or too thick to be padding.
    static func contentRect(of thumbnail: PixelSize, for full: PixelSize) -> Rect? {
        guard !thumbnail.isEmpty, !full.isEmpty, !thumbnail.hasAspectRatio(of: full) else { return nil }
        let fitted = full.fittedDown(in: thumbnail)
        guard fitted.width == thumbnail.width || fitted.height == thumbnail.height else { return nil }
        let barX = (thumbnail.width - fitted.width) / 2, barY = (thumbnail.height - fitted.height) / 2
        let bar = max(barX, barY)
        let span = barX > 0 ? thumbnail.width : thumbnail.height
        guard bar >= minimumBar, Double(2 * bar) <= maximumBarFraction * Double(span) else { return nil }
        return Rect(x: barX, y: barY, width: fitted.width, height: fitted.height)
    }

    /// The picture inside the bars, or nil when what lies outside `content` is not blank padding. The row or
    /// column touching the picture is left out of the check: JPEG's blocks smear the edge into it.
    static func cropped(_ frame: PixelFrame, to content: Rect) -> PixelFrame? {
        guard content.x + content.width <= frame.width, content.y + content.height <= frame.height else { return nil }
        var low: UInt8 = 255, high: UInt8 = 0
        func scan(xs: Range<Int>, ys: Range<Int>) {
            for y in ys {
                for x in xs {
                    let base = (y * frame.width + x) * 4
                    for channel in 0..<3 {
                        let value = frame.rgba[base + channel]
                        low = min(low, value)
                        high = max(high, value)
                    }
                }
            }
        }
        if content.y > 0 {
            scan(xs: 0..<frame.width, ys: 0..<max(content.y - 1, 0))
            scan(xs: 0..<frame.width, ys: min(content.y + content.height + 1, frame.height)..<frame.height)
        } else {
            scan(xs: 0..<max(content.x - 1, 0), ys: 0..<frame.height)
            scan(xs: min(content.x + content.width + 1, frame.width)..<frame.width, ys: 0..<frame.height)
        }
        guard high <= brightestBarValue, high - min(low, high) <= widestBarRange else { return nil }
        var rgba = [UInt8]()
        rgba.reserveCapacity(content.width * content.height * 4)
        for y in content.y..<(content.y + content.height) {
            let start = (y * frame.width + content.x) * 4
            rgba += frame.rgba[start..<(start + content.width * 4)]
        }
        return PixelFrame(width: content.width, height: content.height, rgba: rgba)
    }
}
