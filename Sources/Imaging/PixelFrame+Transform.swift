/// Orientation transforms on RGBA frames: Exif orientation for stills, display-matrix rotation for movies.
/// Each transform is one pass that copies whole 32-bit pixels, so a 1080p frame costs a few milliseconds.
extension PixelFrame {
    /// The frame rotated clockwise by `clockwiseDegrees`, rounded to the nearest multiple of 90
    /// (negative values rotate anticlockwise: -90 is 270).
    public func rotated(clockwiseDegrees: Int) -> PixelFrame {
        let quarterTurns = ((Int((Double(clockwiseDegrees) / 90).rounded()) % 4) + 4) % 4
        switch quarterTurns {
        case 1: return remapped(width: height, height: width, origin: (height - 1) * width, xStep: -width, yStep: 1)
        case 2: return remapped(width: width, height: height, origin: height * width - 1, xStep: -1, yStep: -width)
        case 3: return remapped(width: height, height: width, origin: width - 1, xStep: width, yStep: -1)
        default: return self
        }
    }

    /// Mirrored left to right.
    public func flippedHorizontally() -> PixelFrame {
        remapped(width: width, height: height, origin: width - 1, xStep: -1, yStep: width)
    }

    /// Mirrored top to bottom.
    public func flippedVertically() -> PixelFrame {
        remapped(width: width, height: height, origin: (height - 1) * width, xStep: 1, yStep: -width)
    }

    /// Mirrored across the main diagonal (top-left to bottom-right): rows become columns.
    public func transposed() -> PixelFrame {
        remapped(width: height, height: width, origin: 0, xStep: width, yStep: 1)
    }

    /// Mirrored across the anti-diagonal (top-right to bottom-left).
    public func transversed() -> PixelFrame {
        remapped(width: height, height: width, origin: height * width - 1, xStep: -width, yStep: -1)
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

    /// Builds a `newWidth` x `newHeight` frame whose pixel (x, y) is this frame's pixel number
    /// `origin + x * xStep + y * yStep`: every rotation and flip is such an affine walk over the source,
    /// so one tight loop without per-pixel closures serves them all.
    private func remapped(width newWidth: Int, height newHeight: Int, origin: Int, xStep: Int, yStep: Int) -> PixelFrame {
        guard newWidth > 0, newHeight > 0, rgba.count == width * height * 4 else {
            return PixelFrame(width: max(0, newWidth), height: max(0, newHeight),
                              rgba: [UInt8](repeating: 0, count: max(0, newWidth) * max(0, newHeight) * 4))
        }
        var output = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
        rgba.withUnsafeBytes { inputBytes in
            output.withUnsafeMutableBytes { outputBytes in
                let input = inputBytes.bindMemory(to: UInt32.self)
                let out = outputBytes.bindMemory(to: UInt32.self)
                var index = 0
                var rowStart = origin
                for _ in 0..<newHeight {
                    var source = rowStart
                    for _ in 0..<newWidth {
                        out[index] = input[source]
                        source += xStep
                        index += 1
                    }
                    rowStart += yStep
                }
            }
        }
        return PixelFrame(width: newWidth, height: newHeight, rgba: output)
    }
}
