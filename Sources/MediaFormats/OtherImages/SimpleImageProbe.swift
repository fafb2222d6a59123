/// PNG, GIF, WebP, TIFF and BMP: dimensions from the header, nothing more is needed to list them.
public enum SimpleImageProbe {
    public static func probe(_ source: any ByteSource, format: ContainerFormat, limits: ParseLimits) throws(MediaError) -> MediaInfo {
        var info = MediaInfo(format: format)
        let head = try source.read(at: 0, count: 64)
        var r = ByteReader(head)
        switch format {
        case .png:
            // Signature, then the IHDR chunk: length, "IHDR", width, height.
            try r.skip(8 + 4)
            guard try r.readFourCC() == "IHDR" else { throw MediaError.invalid("PNG without IHDR") }
            info.pixelWidth = Int(try r.readU32())
            info.pixelHeight = Int(try r.readU32())
        case .gif:
            try r.skip(6)
            r.byteOrder = .littleEndian
            info.pixelWidth = Int(try r.readU16())
            info.pixelHeight = Int(try r.readU16())
        case .bmp:
            try r.skip(18)
            r.byteOrder = .littleEndian
            // Negative heights mean top-down rows. `magnitude`, not abs(): abs(Int32.min) traps (found by
            // the decode fuzzer).
            info.pixelWidth = Int(try r.readI32().magnitude)
            info.pixelHeight = Int(try r.readI32().magnitude)
        case .webp:
            try r.skip(12)
            let chunk = try r.readFourCC()
            r.byteOrder = .littleEndian
            try r.skip(4)
            switch chunk {
            case "VP8 ":
                try r.skip(6)
                info.pixelWidth = Int(try r.readU16() & 0x3FFF)
                info.pixelHeight = Int(try r.readU16() & 0x3FFF)
            case "VP8L":
                try r.skip(1)
                let bits = try r.readU32()
                info.pixelWidth = Int(bits & 0x3FFF) + 1
                info.pixelHeight = Int((bits >> 14) & 0x3FFF) + 1
            case "VP8X":
                try r.skip(4)
                info.pixelWidth = Int(try r.readU24()) + 1
                info.pixelHeight = Int(try r.readU24()) + 1
            default:
                info.problems.append(ParseProblem(.warning, "webp", "unknown first chunk \(chunk)"))
            }
        case .tiff:
            // At least the default head: how much a caller prefetches (`ParseLimits.forProbing` gives files named
            // as movies less) must not change what a TIFF's directories are read from.
            let wanted = max(limits.headerProbeBytes, ParseLimits.default.headerProbeBytes)
            let tiff = try source.read(at: 0, count: min(wanted, Int(min(source.size, UInt64(Int.max)))))
            ExifReader.parse(tiff: tiff, fileOffset: 0, limits: limits).apply(to: &info)
        default:
            break
        }
        return info
    }
}
