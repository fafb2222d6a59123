/// `clap` (ISO/IEC 14496-12 12.1.4): a crop given as a centred rectangle in rational numbers.
public struct HEIFCleanAperture: Sendable, Hashable {
    public var widthN: UInt32, widthD: UInt32
    public var heightN: UInt32, heightD: UInt32
    public var horizontalOffsetN: Int32, horizontalOffsetD: UInt32
    public var verticalOffsetN: Int32, verticalOffsetD: UInt32

    public init(widthN: UInt32, widthD: UInt32, heightN: UInt32, heightD: UInt32,
                horizontalOffsetN: Int32, horizontalOffsetD: UInt32, verticalOffsetN: Int32, verticalOffsetD: UInt32) {
        self.widthN = widthN; self.widthD = widthD
        self.heightN = heightN; self.heightD = heightD
        self.horizontalOffsetN = horizontalOffsetN; self.horizontalOffsetD = horizontalOffsetD
        self.verticalOffsetN = verticalOffsetN; self.verticalOffsetD = verticalOffsetD
    }

    init(reading r: inout ByteReader) throws(MediaError) {
        self.init(widthN: try r.readU32(), widthD: try r.readU32(), heightN: try r.readU32(), heightD: try r.readU32(),
                  horizontalOffsetN: try r.readI32(), horizontalOffsetD: try r.readU32(),
                  verticalOffsetN: try r.readI32(), verticalOffsetD: try r.readU32())
        guard widthD != 0, heightD != 0, horizontalOffsetD != 0, verticalOffsetD != 0 else {
            throw MediaError.invalid("clap with a zero denominator")
        }
    }

    /// The kept rectangle of a `width` x `height` image in whole pixels (rounded down, as libheif does),
    /// clamped to the image; nil when nothing of the image would remain.
    public func cropRectangle(width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard widthD != 0, heightD != 0, horizontalOffsetD != 0, verticalOffsetD != 0 else { return nil }
        func span(_ n: UInt32, _ d: UInt32, _ offsetN: Int32, _ offsetD: UInt32, _ size: Int) -> (Int, Int)? {
            let clean = Double(n) / Double(d)
            let centre = Double(offsetN) / Double(offsetD) + Double(size - 1) / 2
            let first = (centre - (clean - 1) / 2).rounded(.down)
            let last = (centre + (clean - 1) / 2).rounded(.down)
            let start = max(0, first), end = min(Double(size - 1), last)
            guard start.isFinite, end.isFinite, end >= start else { return nil }
            return (Int(start), Int(end - start) + 1)
        }
        guard width > 0, height > 0,
              let (x, w) = span(widthN, widthD, horizontalOffsetN, horizontalOffsetD, width),
              let (y, h) = span(heightN, heightD, verticalOffsetN, verticalOffsetD, height) else { return nil }
        return (x, y, w, h)
    }
}

/// `colr` of type `nclx` (ISO/IEC 23091-2 code points): which YCbCr matrix and range the coded samples use.
public struct HEIFColourInformation: Sendable, Hashable {
    public var colourPrimaries: Int
    public var transferCharacteristics: Int
    /// 0 identity (RGB), 1 BT.709, 5/6 BT.601, 9 BT.2020, 2 unspecified...
    public var matrixCoefficients: Int
    public var fullRange: Bool

    public init(colourPrimaries: Int, transferCharacteristics: Int, matrixCoefficients: Int, fullRange: Bool) {
        self.colourPrimaries = colourPrimaries
        self.transferCharacteristics = transferCharacteristics
        self.matrixCoefficients = matrixCoefficients
        self.fullRange = fullRange
    }

    /// Reads the fields after the `nclx` colour type.
    init(readingNCLX r: inout ByteReader) throws(MediaError) {
        self.init(colourPrimaries: Int(try r.readU16()), transferCharacteristics: Int(try r.readU16()),
                  matrixCoefficients: Int(try r.readU16()), fullRange: try r.readU8() & 0x80 != 0)
    }
}

/// The data of a `grid` derived image item (ISO/IEC 23008-12 6.6.2.3): tiles laid out row by row, the
/// canvas cropped to the output size.
public struct HEIFImageGrid: Sendable, Hashable {
    public var rows: Int
    public var columns: Int
    public var outputWidth: Int
    public var outputHeight: Int

    public init(rows: Int, columns: Int, outputWidth: Int, outputHeight: Int) {
        self.rows = rows
        self.columns = columns
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
    }

    /// version (0), flags (bit 0: 32-bit sizes), rows_minus_one, columns_minus_one, output width and height.
    public init(parsing bytes: [UInt8]) throws(MediaError) {
        var r = ByteReader(bytes)
        let version = try r.readU8()
        guard version == 0 else { throw MediaError.unsupported("grid version \(version)") }
        let fieldSize = try r.readU8() & 1 != 0 ? 4 : 2
        rows = Int(try r.readU8()) + 1
        columns = Int(try r.readU8()) + 1
        outputWidth = Int(try r.readUInt(size: fieldSize))
        outputHeight = Int(try r.readUInt(size: fieldSize))
        guard outputWidth > 0, outputHeight > 0 else {
            throw MediaError.invalid("grid output size \(outputWidth)x\(outputHeight)")
        }
    }
}
