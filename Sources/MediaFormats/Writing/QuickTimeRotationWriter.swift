/// Rotates or flips a movie losslessly: the display matrix of every video track's `tkhd` is composed with
/// the change (and its translation re-anchored so the picture stays in the positive quadrant). moov keeps
/// its size, so it is patched in place and the media data is copied untouched.
enum QuickTimeRotationWriter {
    static func rotate(_ source: any ByteSource, by change: OrientationChange, limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        var layout = try QuickTimeMovieLayout(source, limits: limits)
        _ = try layout.videoTrack()
        guard var kids = layout.moov.children else { throw MediaError.invalid("empty moov") }
        for index in kids.indices where kids[index].type == "trak" && QuickTimeMovieLayout.handlerType(of: kids[index]) == "vide" {
            try kids[index].modify("tkhd") { (tkhd: inout EditableBox) throws(MediaError) in
                tkhd.payload = try composed(tkhd: tkhd.payload, with: change)
            }
        }
        layout.moov.children = kids
        guard let original = layout.boxes.first(where: { $0.type == "moov" }) else { throw MediaError.invalid("no moov") }
        let moov = layout.moov.serialized()
        guard UInt64(moov.count) == original.range.length else {
            // Re-serialising changed moov's size (a 64-bit header or trailing padding): lay the file out again.
            return try layout.assemble(ftyp: nil, mediaData: [])
        }
        var assembly = ByteAssembly()
        assembly.append(range: ByteRange(offset: 0, length: original.range.offset))
        assembly.append(moov)
        assembly.append(range: ByteRange(offset: original.range.end, length: source.size - original.range.end))
        return assembly
    }

    /// The clockwise rotation (0/90/180/270) and mirroring shown by a tkhd matrix, for tests and reports.
    static func displayRotation(tkhd: [UInt8]) -> (degrees: Int, mirrored: Bool)? {
        guard let m = matrix(tkhd) else { return nil }
        let a = m[0].signum(), b = m[1].signum(), c = m[3].signum(), d = m[4].signum()
        let mirrored = a * d - b * c < 0
        // Undo a horizontal mirror first ([-1 0; 0 1] * M), then read the rotation.
        let (ra, rb) = mirrored ? (-a, -b) : (a, b)
        switch (ra, rb) {
        case (1, 0): return (0, mirrored)
        case (0, 1): return (90, mirrored)
        case (-1, 0): return (180, mirrored)
        case (0, -1): return (270, mirrored)
        default: return nil
        }
    }

    private static func matrixIndex(_ tkhd: [UInt8]) -> Int { tkhd.first == 1 ? 52 : 40 }

    private static func matrix(_ tkhd: [UInt8]) -> [Int64]? {
        let at = matrixIndex(tkhd)
        guard tkhd.count >= at + 36 + 8 else { return nil }
        return (0..<9).map { Int64(Int32(bitPattern: UInt32(BigEndian.read(tkhd, at: at + 4 * $0, width: 4) ?? 0))) }
    }

    static func composed(tkhd: [UInt8], with change: OrientationChange) throws(MediaError) -> [UInt8] {
        guard var m = matrix(tkhd) else { throw MediaError.invalid("tkhd too short for a display matrix") }
        let t = change.displayMatrix
        let (ta, tb, tc, td) = (Int64(t.a), Int64(t.b), Int64(t.c), Int64(t.d))
        // Row-vector convention: [x y 1] * M * T.
        let (a, b, c, d) = (m[0], m[1], m[3], m[4])
        m[0] = a * ta + b * tc; m[1] = a * tb + b * td
        m[3] = c * ta + d * tc; m[4] = c * tb + d * td
        // Re-anchor: the transformed picture's top-left corner goes to (0, 0).
        let width = Int64(BigEndian.read(tkhd, at: tkhd.count - 8, width: 4) ?? 0) >> 16
        let height = Int64(BigEndian.read(tkhd, at: tkhd.count - 4, width: 4) ?? 0) >> 16
        let corners = [(Int64(0), Int64(0)), (width, 0), (0, height), (width, height)]
        m[6] = -(corners.map { m[0] * $0.0 + m[3] * $0.1 }.min() ?? 0)
        m[7] = -(corners.map { m[1] * $0.0 + m[4] * $0.1 }.min() ?? 0)
        var out = tkhd
        let at = matrixIndex(tkhd)
        for (i, value) in m.enumerated() {
            guard let v = Int32(exactly: value) else { throw MediaError.invalid("display matrix value out of range") }
            BigEndian.write(UInt64(UInt32(bitPattern: v)), into: &out, at: at + 4 * i, width: 4)
        }
        return out
    }
}
