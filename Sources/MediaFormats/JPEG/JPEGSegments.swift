/// One marker segment of a JPEG header.
struct JPEGSegment: Sendable, Hashable {
    var marker: UInt8
    /// File offset of the 0xFF that starts the marker.
    var markerOffset: UInt64
    /// File offset and length of the payload (after the 2-byte length field).
    var payload: ByteRange
}

/// Walks JPEG marker segments from SOI up to SOS (where entropy-coded data starts) or EOI.
///
/// Handles fill bytes (any number of 0xFF before a marker), standalone markers (TEM, RSTn) and stray bytes
/// between segments (skipped with a warning). Stops with a problem, never a throw, on truncation.
struct JPEGSegmentWalker {
    static let soi: UInt8 = 0xD8, eoi: UInt8 = 0xD9, sos: UInt8 = 0xDA

    /// SOF0-15 except DHT (C4), JPG (C8) and DAC (CC): the frame header with the pixel size.
    static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// Markers without a length field.
    static func isStandalone(_ marker: UInt8) -> Bool {
        marker == 0x01 || (0xD0...0xD7).contains(marker) || marker == soi || marker == eoi
    }

    /// Most stray bytes skipped while looking for the next marker before giving up.
    static let maxResyncBytes: UInt64 = 64 << 10

    var window: SourceWindow
    let limits: ParseLimits
    var problems: [ParseProblem] = []
    /// File offset of the SOS marker, when the walk reached it.
    var startOfScan: UInt64?
    /// Where in `problems` the stray-byte warnings are (notes once the walk reaches SOS).
    private var strayWarnings: [Int] = []

    init(window: SourceWindow, limits: ParseLimits) {
        self.window = window
        self.limits = limits
    }

    /// All segments before SOS. `visit` sees each as it is found, so callers can read payloads in order.
    mutating func walk(_ visit: (JPEGSegment, inout SourceWindow) throws(MediaError) -> Void) throws(MediaError) {
        guard try window.byte(at: 0) == 0xFF, try window.byte(at: 1) == Self.soi else {
            throw MediaError.invalid("JPEG without SOI marker")
        }
        var offset: UInt64 = 2
        var segments = 0
        while true {
            guard segments < limits.maxEntries else {
                problems.append(ParseProblem(.warning, "jpeg", "more than \(limits.maxEntries) segments: walk stopped"))
                return
            }
            // Find the 0xFF that starts the next marker, skipping stray bytes.
            var skipped: UInt64 = 0
            while true {
                guard let byte = try window.byte(at: offset) else {
                    problems.append(ParseProblem(.warning, "jpeg", "file ends at \(offset) before the image data (SOS)"))
                    return
                }
                if byte == 0xFF { break }
                offset += 1
                skipped += 1
                guard skipped <= Self.maxResyncBytes else {
                    problems.append(ParseProblem(.error, "jpeg", "no marker found in \(skipped) bytes after offset \(offset - skipped)"))
                    return
                }
            }
            if skipped > 0 {
                strayWarnings.append(problems.count)
                problems.append(ParseProblem(.warning, "jpeg", "\(skipped) stray byte(s) before the marker at \(offset)"))
            }
            let markerOffset = offset
            // Fill bytes: any run of 0xFF; the last one is the marker prefix.
            var marker: UInt8 = 0xFF
            while marker == 0xFF {
                offset += 1
                guard offset - markerOffset <= Self.maxResyncBytes else {
                    problems.append(ParseProblem(.error, "jpeg", "endless fill bytes after offset \(markerOffset)"))
                    return
                }
                guard let next = try window.byte(at: offset) else {
                    problems.append(ParseProblem(.warning, "jpeg", "file ends inside fill bytes at \(offset)"))
                    return
                }
                marker = next
            }
            offset += 1
            if marker == 0x00 {
                // A stuffed zero is not a marker: keep looking.
                continue
            }
            if marker == Self.eoi {
                problems.append(ParseProblem(.warning, "jpeg", "EOI at \(markerOffset) before any image data"))
                return
            }
            if Self.isStandalone(marker) { continue }
            guard let high = try window.byte(at: offset), let low = try window.byte(at: offset + 1) else {
                problems.append(ParseProblem(.warning, "jpeg", "file ends inside the marker 0x\(hex(UInt16(marker))) at \(markerOffset)"))
                return
            }
            let length = Int(high) << 8 | Int(low)
            guard length >= 2 else {
                problems.append(ParseProblem(.error, "jpeg", "segment 0x\(hex(UInt16(marker))) at \(markerOffset) has length \(length)"))
                return
            }
            let payload = ByteRange(offset: offset + 2, length: UInt64(length - 2))
            segments += 1
            if marker == Self.sos {
                startOfScan = markerOffset
                // Stray bytes between header segments that still lead to the image data are what libjpeg skips
                // with a warning and the decoder drops (issue 32.9: 15 such JPEGs of a public corpus): the picture
                // is whole, so they are a note, not damage. Without SOS they stay a warning.
                for index in strayWarnings {
                    problems[index].severity = .info
                }
                return
            }
            guard payload.fits(in: window.size) else {
                problems.append(ParseProblem(.warning, "jpeg", "segment 0x\(hex(UInt16(marker))) at \(markerOffset) runs past the end of the file"))
                return
            }
            try visit(JPEGSegment(marker: marker, markerOffset: markerOffset, payload: payload), &window)
            offset = payload.end
        }
    }
}
