/// A lossless rotation or flip, applied to how a picture is *displayed* (Exif Orientation for stills, the
/// track display matrix for movies); pixels are never touched.
public enum OrientationChange: String, Sendable, CaseIterable, Codable {
    case rotateClockwise, rotateCounterclockwise, rotate180, flipHorizontal, flipVertical

    /// Exif orientation after applying `self` to a picture shown with `orientation` (1...8; others = 1).
    ///
    /// Each orientation is "mirror first (or not), then turn k quarter turns clockwise":
    /// 1 (0,-) 2 (0,m) 3 (2,-) 4 (2,m) 5 (3,m) 6 (1,-) 7 (1,m) 8 (3,-).
    public func applied(toExifOrientation orientation: Int) -> Int {
        let table: [Int: (turns: Int, mirrored: Bool)] = [1: (0, false), 2: (0, true), 3: (2, false), 4: (2, true),
                                                          5: (3, true), 6: (1, false), 7: (1, true), 8: (3, false)]
        let current = table[orientation] ?? (0, false)
        var turns = current.turns, mirrored = current.mirrored
        switch self {
        case .rotateClockwise: turns += 1
        case .rotateCounterclockwise: turns += 3
        case .rotate180: turns += 2
        // Mirroring after R(k) equals R(-k) after mirroring.
        case .flipHorizontal: turns = -turns; mirrored.toggle()
        case .flipVertical: turns = 2 - turns; mirrored.toggle()
        }
        turns = ((turns % 4) + 4) % 4
        return table.first { $0.value.turns == turns && $0.value.mirrored == mirrored }?.key ?? 1
    }

    /// The change as a 2x2 matrix on display coordinates (x right, y down), row-vector form [x y] * m:
    /// (a, b, c, d) with x' = a x + c y, y' = b x + d y, as QuickTime matrices are written.
    var displayMatrix: (a: Int, b: Int, c: Int, d: Int) {
        switch self {
        case .rotateClockwise: return (0, 1, -1, 0)
        case .rotateCounterclockwise: return (0, -1, 1, 0)
        case .rotate180: return (-1, 0, 0, -1)
        case .flipHorizontal: return (-1, 0, 0, 1)
        case .flipVertical: return (1, 0, 0, -1)
        }
    }
}
