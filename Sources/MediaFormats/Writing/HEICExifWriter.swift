/// Edits the Exif of a HEIC through `HEIFMetaEditor`: the Exif item's TIFF is changed append-only by
/// `TIFFAppendEditor` (as in JPEGs), and the new item bytes go into a new `mdat` at the end of the file.
/// An Exif item in several extents or in `idat` is read whole and rewritten as one extent; a HEIC without
/// one gets a new `Exif` item (described by a `cdsc` reference to the primary image).
enum HEICExifWriter {
    /// What precedes the TIFF header in a new Exif item: exif_tiff_header_offset = 6, then `Exif\0\0`
    /// (the layout iPhones write).
    static let newItemPrefix: [UInt8] = BigEndian.u32(6) + Array("Exif".utf8) + [0, 0]

    /// Runs `change` on the file's Exif TIFF (an empty big-endian TIFF when the file has no Exif item).
    static func editExif(_ editor: inout HEIFMetaEditor,
                         _ change: (inout TIFFAppendEditor) throws(MediaError) -> Void) throws(MediaError) {
        let limits = editor.limits
        if let itemID = editor.exifItemID {
            let item = try editor.data(of: itemID)
            guard let headerOffset = BigEndian.read(item, at: 0, width: 4), 4 + headerOffset < UInt64(item.count) else {
                throw MediaError.invalid("the Exif item's TIFF header offset lies outside the item")
            }
            let tiffStart = 4 + Int(headerOffset)
            var tiff = try TIFFAppendEditor(tiff: Array(item[tiffStart...]), limits: limits)
            tiff.maximumSize = limits.maxStructureBytes
            try change(&tiff)
            try editor.replaceData(of: itemID, with: Array(item[0..<tiffStart]) + tiff.bytes)
        } else {
            guard let primary = editor.primaryItemID else { throw MediaError.invalid("the HEIC has no primary item (pitm)") }
            var tiff = try TIFFAppendEditor(tiff: TIFFAppendEditor.empty(), limits: limits)
            tiff.maximumSize = limits.maxStructureBytes
            try change(&tiff)
            try editor.addItem(type: "Exif", bytes: newItemPrefix + tiff.bytes, describing: primary)
        }
    }

    /// Sets Apple MakerNote 0x0011 in `editor`'s file (creating the Exif item, ExifIFD or MakerNote as needed).
    static func setContentIdentifier(_ editor: inout HEIFMetaEditor, identifier: String) throws(MediaError) {
        try editExif(&editor) { (tiff: inout TIFFAppendEditor) throws(MediaError) in
            try tiff.setAppleContentIdentifier(identifier)
        }
    }

    static func setContentIdentifier(_ source: any ByteSource, identifier: String, limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        var editor = try HEIFMetaEditor(source, limits: limits)
        try setContentIdentifier(&editor, identifier: identifier)
        return try editor.assembly()
    }
}
