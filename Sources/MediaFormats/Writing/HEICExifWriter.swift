/// Sets the Apple content identifier in a HEIC's Exif item.
///
/// The edited Exif goes into a new `mdat` appended at the end of the file and the item's single iloc extent
/// is repointed in place (same field widths), so `meta` keeps its size and no other offset in the file moves.
/// Not handled (clear errors): a file without an Exif item (adding an item means growing iinf/iloc/iref and
/// shifting every file offset after meta), an Exif item in several extents or in `idat`, a last box of size 0.
enum HEICExifWriter {
    static func setContentIdentifier(_ source: any ByteSource, identifier: String, limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        let topLevel = ISOBMFFTopLevel.scan(source, limits: limits)
        var problems: [ParseProblem] = []
        guard let structure = topLevel.loadStructure("meta", from: source, limits: limits, context: "heif", problems: &problems) else {
            throw MediaError.invalid("HEIC without a readable meta box: \(problems.map(\.message).joined(separator: "; "))")
        }
        let meta = HEIFMeta.parse(structure, limits: limits)
        let exifItems = meta.items.filter { $0.type == "Exif" }.map(\.id)
        let describingPrimary = meta.primaryItemID.map { meta.items(referring: "cdsc", to: $0) } ?? []
        guard let itemID = exifItems.first(where: describingPrimary.contains) ?? exifItems.first else {
            throw MediaError.unsupported("this HEIC has no Exif item; adding one is not supported yet")
        }
        guard let location = meta.locations[itemID], location.constructionMethod == 0, location.dataReferenceIndex == 0,
              location.extents.count == 1, let extent = location.extents.first, extent.length > 0 else {
            throw MediaError.unsupported("the HEIC's Exif item is not one extent of file data; rewriting it is not supported yet")
        }
        guard let last = topLevel.boxes.last, last.range.end == source.size else {
            throw MediaError.invalid("the HEIC has bytes after its last box")
        }
        if let header = try? source.readExactly(at: last.range.offset, count: 4), header == [0, 0, 0, 0] {
            throw MediaError.unsupported("the HEIC's last box extends to the end of the file (size 0); appending is not supported")
        }

        // The item: exif_tiff_header_offset (4 bytes), then usually "Exif\0\0", then the TIFF.
        guard extent.length <= UInt64(limits.maxStructureBytes), extent.fits(in: source.size) else {
            throw MediaError.invalid("Exif item extent \(extent) outside the file or too large")
        }
        let item = try source.readExactly(at: extent.offset, count: Int(extent.length))
        guard let headerOffset = BigEndian.read(item, at: 0, width: 4), 4 + headerOffset < UInt64(item.count) else {
            throw MediaError.invalid("the Exif item's TIFF header offset lies outside the item")
        }
        let tiffStart = 4 + Int(headerOffset)
        var editor = try TIFFAppendEditor(tiff: Array(item[tiffStart...]), limits: limits)
        editor.maximumSize = limits.maxStructureBytes
        try editor.setAppleContentIdentifier(identifier)
        let newItem = Array(item[0..<tiffStart]) + editor.bytes
        let mdat = BigEndian.u32(UInt32(8 + newItem.count)) + Array("mdat".utf8) + newItem

        guard let iloc = structure.root.child("iloc") else { throw MediaError.invalid("meta has no iloc") }
        let fields = try ItemLocationFields.find(itemID: itemID, in: try source.readExactly(at: iloc.range.offset, count: Int(iloc.range.length)),
                                                 fileOffset: iloc.range.offset)
        let newOffset = source.size + 8 - location.baseOffset
        let newLength = UInt64(newItem.count)
        guard fields.offsetWidth > 0, fields.offsetWidth == 8 || newOffset <= UInt64(UInt32.max),
              fields.lengthWidth == 8 || newLength <= UInt64(UInt32.max), fields.lengthWidth > 0 else {
            throw MediaError.unsupported("the HEIC's iloc field widths cannot hold the new Exif location")
        }
        var patchedIloc = try source.readExactly(at: iloc.range.offset, count: Int(iloc.range.length))
        BigEndian.write(newOffset, into: &patchedIloc, at: fields.offsetIndex, width: fields.offsetWidth)
        BigEndian.write(newLength, into: &patchedIloc, at: fields.lengthIndex, width: fields.lengthWidth)

        var assembly = ByteAssembly()
        assembly.append(range: ByteRange(offset: 0, length: iloc.range.offset))
        assembly.append(patchedIloc)
        assembly.append(range: ByteRange(offset: iloc.range.end, length: source.size - iloc.range.end))
        assembly.append(mdat)
        return assembly
    }
}

/// Where one item's single extent offset/length fields lie inside an `iloc` box (indexes into its bytes).
/// The HEIF parser reports locations as values; the writer needs the field positions to patch them, so this
/// walks the same layout (ISO/IEC 14496-12 8.11.3) once more.
struct ItemLocationFields {
    var offsetIndex: Int
    var offsetWidth: Int
    var lengthIndex: Int
    var lengthWidth: Int

    static func find(itemID: UInt32, in box: [UInt8], fileOffset: UInt64) throws(MediaError) -> ItemLocationFields {
        var r = ByteReader(box, baseOffset: fileOffset)
        try r.skip(8) // box header (iloc is never large)
        let version = try r.readU8()
        try r.skip(3)
        guard version <= 2 else { throw MediaError.unsupported("iloc version \(version)") }
        let sizes = try r.readU16()
        let offsetSize = Int(sizes >> 12), lengthSize = Int(sizes >> 8 & 0xF), baseSize = Int(sizes >> 4 & 0xF)
        let indexSize = version >= 1 ? Int(sizes & 0xF) : 0
        let count = version < 2 ? UInt32(try r.readU16()) : try r.readU32()
        guard count <= 65535 else { throw MediaError.limitExceeded("iloc with \(count) items") }
        for _ in 0..<count {
            let id = version < 2 ? UInt32(try r.readU16()) : try r.readU32()
            if version >= 1 { try r.skip(2) }
            try r.skip(2 + baseSize)
            let extents = Int(try r.readU16())
            for _ in 0..<extents {
                try r.skip(indexSize)
                let offsetIndex = r.position
                try r.skip(offsetSize)
                let lengthIndex = r.position
                try r.skip(lengthSize)
                if id == itemID {
                    return ItemLocationFields(offsetIndex: offsetIndex, offsetWidth: offsetSize, lengthIndex: lengthIndex, lengthWidth: lengthSize)
                }
            }
        }
        throw MediaError.invalid("item \(itemID) not found in iloc")
    }
}
