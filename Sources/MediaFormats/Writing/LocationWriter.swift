/// Sharing without location: a still or movie without its GPS position, everything else kept.
///
/// - JPEG: the Exif GPS IFD is zeroed in place (its entries and their values) and IFD0's pointer to it
///   removed; XMP `exif:GPS*` properties are cut from the packet.
/// - HEIC: the same on the Exif item and the XMP item (new item bytes in a new mdat); the old Exif/XMP
///   bytes, now unreferenced, are overwritten with zeros in the copy so the position is not left behind.
/// - QuickTime/MP4: `moov/udta/©xyz`, every `com.apple.quicktime.location.*` key of `moov/meta`, and
///   `exif:GPS*` in `udta/XMP_` are removed; samples are stream-copied (chunk offsets fixed).
/// A file without any of these is returned unchanged (one source range).
enum LocationWriter {
    static let gpsIFDPointerTag: UInt16 = 0x8825
    static let quickTimeLocationPrefix = "com.apple.quicktime.location."
    /// `©xyz`: the user-data atom Android and older QuickTime write the ISO 6709 position in.
    static let userDataLocationType: [UInt8] = [0xA9, 0x78, 0x79, 0x7A]

    static func withoutLocation(_ source: any ByteSource, limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        let format = MediaProbe.sniff(try source.read(at: 0, count: 16))
        switch format {
        case .jpeg: return try jpeg(source, limits: limits)
        case .heif: return try heif(source, limits: limits)
        case .quickTime, .mp4: return try movie(source, limits: limits)
        default:
            throw MediaError.unsupported("removing the location from \(format.rawValue) files is not supported (JPEG, HEIC, QuickTime/MP4)")
        }
    }

    static func unchanged(_ source: any ByteSource) -> ByteAssembly {
        var assembly = ByteAssembly()
        assembly.append(range: ByteRange(offset: 0, length: source.size))
        return assembly
    }

    // MARK: JPEG

    static func jpeg(_ source: any ByteSource, limits: ParseLimits) throws(MediaError) -> ByteAssembly {
        let list = try JPEGSegmentList(source, limits: limits)
        var replacements: [(ByteRange, [UInt8])] = []
        if let (segment, payload) = try list.first(marker: 0xE1, signature: JPEGSegmentList.exifSignature, in: source) {
            var editor = try TIFFAppendEditor(tiff: Array(payload.dropFirst(JPEGSegmentList.exifSignature.count)), limits: limits)
            if try editor.removeGPS() {
                replacements.append((segment.range, try JPEGSegmentList.segment(marker: 0xE1, payload: JPEGSegmentList.exifSignature + editor.bytes)))
            }
        }
        for segment in list.segments where segment.marker == 0xE1 {
            let head = try source.read(at: segment.payload.offset, count: JPEGSegmentList.xmpSignature.count)
            guard head == JPEGSegmentList.xmpSignature else { continue }
            let payload = try source.readExactly(at: segment.payload.offset, count: Int(segment.payload.length))
            let packet = Array(payload.dropFirst(JPEGSegmentList.xmpSignature.count))
            let stripped = XMPPacketEditor.removingLocation(packet)
            if stripped != packet {
                replacements.append((segment.range, try JPEGSegmentList.segment(marker: 0xE1, payload: JPEGSegmentList.xmpSignature + stripped)))
            }
        }
        guard !replacements.isEmpty else { return unchanged(source) }
        var assembly = ByteAssembly()
        var at: UInt64 = 0
        for (range, bytes) in replacements.sorted(by: { $0.0.offset < $1.0.offset }) {
            assembly.append(range: ByteRange(offset: at, length: range.offset - at))
            assembly.append(bytes)
            at = range.end
        }
        assembly.append(range: ByteRange(offset: at, length: source.size - at))
        return assembly
    }

    // MARK: HEIC

    static func heif(_ source: any ByteSource, limits: ParseLimits) throws(MediaError) -> ByteAssembly {
        var editor = try HEIFMetaEditor(source, limits: limits)
        var blank: [ByteRange] = []
        if let itemID = editor.exifItemID {
            let item = try editor.data(of: itemID)
            if let headerOffset = BigEndian.read(item, at: 0, width: 4), 4 + headerOffset < UInt64(item.count) {
                let tiffStart = 4 + Int(headerOffset)
                var tiff = try TIFFAppendEditor(tiff: Array(item[tiffStart...]), limits: limits)
                tiff.maximumSize = limits.maxStructureBytes
                if try tiff.removeGPS() {
                    try editor.replaceData(of: itemID, with: Array(item[0..<tiffStart]) + tiff.bytes)
                    blank += try oldExtents(of: itemID, in: editor, what: "Exif")
                }
            }
        }
        if let itemID = editor.xmpItemID {
            let packet = try editor.data(of: itemID)
            let stripped = XMPPacketEditor.removingLocation(packet)
            if stripped != packet {
                try editor.replaceData(of: itemID, with: stripped)
                blank += try oldExtents(of: itemID, in: editor, what: "XMP")
            }
        }
        guard !blank.isEmpty else { return unchanged(source) }
        return try editor.assembly().blanking(blank)
    }

    /// Where an item's old bytes lie in the file, to be zeroed. An item stored inside the meta box (idat)
    /// cannot be cleared there: refused rather than letting the position travel as dead bytes.
    static func oldExtents(of itemID: UInt32, in editor: HEIFMetaEditor, what: String) throws(MediaError) -> [ByteRange] {
        // idat lives in the meta box, which the editor re-serialises from its own copy: zeroing file ranges
        // would not reach it.
        // try?: extents that cannot be read are refused below, with the reason the user can act on.
        guard editor.meta.locations[itemID]?.constructionMethod == 0,
              let extents = try? editor.meta.fileExtents(of: itemID, fileSize: editor.source.size) else {
            throw MediaError.unsupported("the \(what) item is stored inside the HEIF meta box (idat); its old copy with the position cannot be cleared")
        }
        return extents
    }

    // MARK: movies

    static func movie(_ source: any ByteSource, limits: ParseLimits) throws(MediaError) -> ByteAssembly {
        var layout = try QuickTimeMovieLayout(source, limits: limits)
        guard var kids = layout.moov.children else { return unchanged(source) }
        var changed = false
        for index in kids.indices {
            switch kids[index].type {
            case "meta":
                var metadata = try QuickTimeMetadataEditor(kids[index])
                if metadata.removeKeys(withPrefix: quickTimeLocationPrefix) {
                    kids[index] = metadata.box()
                    changed = true
                }
            case "udta":
                if let stripped = try userDataWithoutLocation(kids[index].payload, limits: limits) {
                    kids[index].payload = stripped
                    changed = true
                }
            default:
                break
            }
        }
        guard changed else { return unchanged(source) }
        layout.moov.children = kids
        return try layout.assemble(ftyp: nil, mediaData: [])
    }

    /// `udta`'s children without `©xyz`, with `exif:GPS*` cut from `XMP_`; nil when nothing changed.
    static func userDataWithoutLocation(_ payload: [UInt8], limits: ParseLimits) throws(MediaError) -> [UInt8]? {
        var out: [UInt8] = []
        var changed = false
        var index = 0
        while index + 8 <= payload.count {
            guard let size32 = BigEndian.read(payload, at: index, width: 4) else { break }
            let type = Array(payload[index + 4..<index + 8])
            var size = Int(size32)
            if size == 0 { size = payload.count - index }
            guard size >= 8, index + size <= payload.count else {
                throw MediaError.invalid("moov/udta: a box of size \(size) does not fit")
            }
            let box = Array(payload[index..<index + size])
            if type == userDataLocationType {
                changed = true
            } else if type == Array("XMP_".utf8) {
                let stripped = XMPPacketEditor.removingLocation(Array(box[8...]))
                if stripped.count != box.count - 8 {
                    changed = true
                    out += BigEndian.u32(UInt32(8 + stripped.count)) + type + stripped
                } else {
                    out += box
                }
            } else {
                out += box
            }
            index += size
        }
        out += payload[min(index, payload.count)...]   // QuickTime's optional 4-byte zero terminator
        return changed ? out : nil
    }
}

/// Reads a file's position only when asked (the info panel's `L`): Exif GPS of a JPEG/HEIC, or the
/// QuickTime ISO 6709 location of a movie. nil when there is none.
public enum LocationReader {
    public static func location(_ source: any ByteSource, limits: ParseLimits = .default) throws(MediaError) -> GeoLocation? {
        let format = MediaProbe.sniff(try source.read(at: 0, count: 16))
        switch format {
        case .jpeg:
            let list = try JPEGSegmentList(source, limits: limits)
            if let (_, payload) = try list.first(marker: 0xE1, signature: JPEGSegmentList.exifSignature, in: source),
               let location = ExifReader.parse(tiff: Array(payload.dropFirst(JPEGSegmentList.exifSignature.count)),
                                               fileOffset: 0, limits: limits).location {
                return location
            }
            let xmp = try list.first(marker: 0xE1, signature: JPEGSegmentList.xmpSignature, in: source)
            return xmp.flatMap { xmpLocation(Array($0.1.dropFirst(JPEGSegmentList.xmpSignature.count)), limits: limits) }
        case .heif:
            let editor = try HEIFMetaEditor(source, limits: limits)
            if let itemID = editor.exifItemID {
                let item = try editor.data(of: itemID)
                if let headerOffset = BigEndian.read(item, at: 0, width: 4), 4 + headerOffset < UInt64(item.count),
                   let location = ExifReader.parse(tiff: Array(item[(4 + Int(headerOffset))...]), fileOffset: 0, limits: limits).location {
                    return location
                }
            }
            guard let xmpID = editor.xmpItemID else { return nil }
            return xmpLocation(try editor.data(of: xmpID), limits: limits)
        case .quickTime, .mp4:
            let layout = try QuickTimeMovieLayout(source, limits: limits)
            if let meta = layout.moov.child("meta"),
               let text = try QuickTimeMetadataEditor(meta).stringValue(of: LocationWriter.quickTimeLocationPrefix + "ISO6709"),
               let location = GeoLocation(iso6709: text) {
                return location
            }
            return userDataLocation(layout.moov.child("udta")?.payload ?? [])
        default:
            return nil
        }
    }

    static func xmpLocation(_ packet: [UInt8], limits: ParseLimits) -> GeoLocation? {
        let summary = XMPReader.parse(packet, limits: limits)
        guard let latitude = summary.gpsLatitude, let longitude = summary.gpsLongitude else { return nil }
        return GeoLocation(xmpLatitude: latitude, xmpLongitude: longitude)
    }

    /// `udta/©xyz`: 2-byte length, 2-byte language, then the ISO 6709 text.
    static func userDataLocation(_ payload: [UInt8]) -> GeoLocation? {
        var index = 0
        while index + 8 <= payload.count, let size = BigEndian.read(payload, at: index, width: 4).map(Int.init), size >= 8,
              index + size <= payload.count {
            if Array(payload[index + 4..<index + 8]) == LocationWriter.userDataLocationType, size >= 12,
               let length = BigEndian.read(payload, at: index + 8, width: 2).map(Int.init), index + 12 + length <= index + size {
                return GeoLocation(iso6709: String(decoding: payload[(index + 12)..<(index + 12 + length)], as: UTF8.self))
            }
            index += size
        }
        return nil
    }
}

extension ByteAssembly {
    /// The same file with the source bytes in `ranges` written as zeros wherever they are copied (data that
    /// is no longer referenced but must not travel, such as an old GPS block).
    func blanking(_ ranges: [ByteRange]) -> ByteAssembly {
        var result = ByteAssembly()
        for part in parts {
            guard case .source(let range) = part else { result.parts.append(part); continue }
            var at = range.offset
            for cut in ranges.sorted(by: { $0.offset < $1.offset }) where cut.end > at && cut.offset < range.end {
                let start = max(cut.offset, at), end = min(cut.end, range.end)
                result.append(range: ByteRange(offset: at, length: start - at))
                result.append([UInt8](repeating: 0, count: Int(end - start)))
                at = end
            }
            result.append(range: ByteRange(offset: at, length: range.end - at))
        }
        return result
    }
}
