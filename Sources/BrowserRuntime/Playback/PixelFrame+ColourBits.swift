import Imaging

extension PixelFrame {
    /// The frame with only the top `bits` of each colour channel (rounded to the nearest kept level, alpha
    /// untouched): a kitty movie frame's PNG then deflates a third to a half smaller, since the low bits of a
    /// camera's frames are mostly noise (issue 28.4, `FrameSizing.colourSteps`). 8 bits: the frame as it is.
    func keepingColourBits(_ bits: Int) -> PixelFrame {
        guard bits > 0, bits < 8 else { return self }
        let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
        let half = UInt8(1 << (7 - bits))
        var out = self
        out.rgba.withUnsafeMutableBufferPointer { px in
            var index = 0
            while index + 3 < px.count {
                for channel in index..<(index + 3) {
                    // Rounded, not truncated (which would darken the picture by half a level); 255 stays
                    // in range (it becomes the top kept level).
                    let value = px[channel]
                    px[channel] = (value > 255 - half ? 255 : value + half) & mask
                }
                index += 4
            }
        }
        return out
    }
}
