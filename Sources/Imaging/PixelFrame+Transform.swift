/// Orientation transforms on RGBA frames: Exif orientation for stills, display-matrix rotation for movies.
/// Each transform is one pass that copies whole 32-bit pixels, so a 1080p frame costs a few milliseconds.
extension PixelFrame {
    /// The frame rotated clockwise by `clockwiseDegrees`, rounded to the nearest multiple of 90
    /// (negative values rotate anticlockwise: -90 is 270).
    public func rotated(clockwiseDegrees: Int) -> PixelFrame {
        let quarterTurns = ((Int((Double(clockwiseDegrees) / 90).rounded()) % 4) + 4) % 4
        switch quarterTurns {
        case 1: return remapped(width: height, height: width) { x, y in (y, height - 1 - x) }
        case 2: return remapped(width: width, height: height) { x, y in (width - 1 - x, height - 1 - y) }
        case 3: return remapped(width: height, height: width) { x, y in (width - 1 - y, x) }
        default: return self
        }
    }

    /// Mirrored left to right.
    public func flippedHorizontally() -> PixelFrame {
        remapped(width: width, height: height) { x, y in (width - 1 - x, y) }
    }

    /// Mirrored top to bottom.
    public func flippedVertically() -> PixelFrame {
        remapped(width: width, height: height) { x, y in (x, height - 1 - y) }
    }

    /// Mirrored across the main diagonal (top-left to bottom-right): rows become columns.
    public func transposed() -> PixelFrame {
        remapped(width: height, height: width) { x, y in (y, x) }
    }

    /// Mirrored across the anti-diagonal (top-right to bottom-left).
    public func transversed() -> PixelFrame {
        remapped(width: height, height: width) { x, y in (width - 1 - y, height - 1 - x) }
    }

    /// The frame as it should be displayed, given the Exif/TIFF `Orientation` tag (1...8) of the stored pixels.
    /// Values outside 1...8 are treated as 1 (no change), as viewers do.
    public func applyingExifOrientation(_ orientation: Int) -> PixelFrame {
        switch orientation {
        case 2: return flippedHorizontally()
        case 3: return rotated(clockwiseDegrees: 180)
        case 4: return flippedVertically()
        case 5: return transposed()
        case 6: return rotated(clockwiseDegrees: 90)
        case 7: return transversed()
        case 8: return rotated(clockwiseDegrees: 270)
        default: return self
        }
    }

    /// True when an Exif orientation swaps width and height (5...8).
    public static func exifOrientationSwapsAxes(_ orientation: Int) -> Bool {
        (5...8).contains(orientation)
    }

    /// Builds a `newWidth` x `newHeight` frame whose pixel (x, y) is this frame's pixel `source(x, y)`.
    private func remapped(width newWidth: Int, height newHeight: Int,
                          _ source: (_ x: Int, _ y: Int) -> (x: Int, y: Int)) -> PixelFrame {
        guard newWidth > 0, newHeight > 0 else { return PixelFrame(width: newWidth, height: newHeight, rgba: []) }
        var output = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
        let sourceWidth = width
        rgba.withUnsafeBytes { inputBytes in
            output.withUnsafeMutableBytes { outputBytes in
                let input = inputBytes.bindMemory(to: UInt32.self)
                let out = outputBytes.bindMemory(to: UInt32.self)
                var index = 0
                for y in 0..<newHeight {
                    for x in 0..<newWidth {
                        let (sx, sy) = source(x, y)
                        out[index] = input[sy * sourceWidth + sx]
                        index += 1
                    }
                }
            }
        }
        return PixelFrame(width: newWidth, height: newHeight, rgba: output)
    }
}
