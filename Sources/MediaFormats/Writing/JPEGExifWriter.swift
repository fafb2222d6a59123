/// Edits the Exif APP1 of a JPEG: everything else (JFIF, XMP, ICC, Photoshop IRB, the scan, any trailer)
/// is copied as source ranges, and inside the Exif block only appended copies and repointed offsets
/// change (see `TIFFAppendEditor`), so the IFD1 thumbnail and other offsets stay valid.
enum JPEGExifWriter {
    /// Runs `change` on the file's Exif (a new APP1 with an empty IFD0 when the file has none).
    static func editExif(_ source: any ByteSource, limits: ParseLimits = .default,
                         _ change: (inout TIFFAppendEditor) throws(MediaError) -> Void) throws(MediaError) -> ByteAssembly {
        let list = try JPEGSegmentList(source, limits: limits)
        let existing = try list.first(marker: 0xE1, signature: JPEGSegmentList.exifSignature, in: source)
        var editor: TIFFAppendEditor
        if let (_, payload) = existing {
            editor = try TIFFAppendEditor(tiff: Array(payload.dropFirst(JPEGSegmentList.exifSignature.count)), limits: limits)
        } else {
            editor = try TIFFAppendEditor(tiff: TIFFAppendEditor.empty(), limits: limits)
        }
        try change(&editor)
        let segment = try JPEGSegmentList.segment(marker: 0xE1, payload: JPEGSegmentList.exifSignature + editor.bytes)
        return JPEGSegmentList.assembly(source: source, replacing: existing?.0.range, at: list.insertionOffsetForAPP1, with: segment)
    }

    /// Sets Apple MakerNote 0x0011 (ContentIdentifier), creating the MakerNote, ExifIFD or APP1 as needed.
    static func setContentIdentifier(_ source: any ByteSource, identifier: String,
                                     limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        try editExif(source, limits: limits) { (editor: inout TIFFAppendEditor) throws(MediaError) in
            try editor.setAppleContentIdentifier(identifier)
        }
    }

    /// The Exif Orientation (1...8), 1 when absent.
    static func orientation(_ source: any ByteSource, limits: ParseLimits = .default) throws(MediaError) -> Int {
        var value = 1
        _ = try editExif(source, limits: limits) { (editor: inout TIFFAppendEditor) throws(MediaError) in
            guard editor.ifd0Offset != 0 else { return }
            let ifd0 = try editor.readDirectory(at: editor.ifd0Offset, context: "Exif IFD0")
            if let entry = ifd0.entries.first(where: { $0.tag == TIFFAppendEditor.orientationTag }),
               let raw = editor.pointer(entry), (1...8).contains(raw) {
                value = Int(raw)
            }
        }
        return value
    }

    /// Sets Exif Orientation to `orientation` (patched in place when present, else added to IFD0).
    static func setOrientation(_ source: any ByteSource, _ orientation: Int, limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        guard (1...8).contains(orientation) else { throw MediaError.invalid("Exif orientation \(orientation) is not 1...8") }
        return try editExif(source, limits: limits) { (editor: inout TIFFAppendEditor) throws(MediaError) in
            try editor.setOrientation(orientation)
        }
    }
}

extension TIFFAppendEditor {
    /// Sets IFD0 Orientation (patched in place when present as one SHORT, else added).
    mutating func setOrientation(_ orientation: Int) throws(MediaError) {
        guard (1...8).contains(orientation) else { throw MediaError.invalid("Exif orientation \(orientation) is not 1...8") }
        let value = UInt16(orientation)
        if ifd0Offset != 0 {
            let ifd0 = try readDirectory(at: ifd0Offset, context: "Exif IFD0")
            if let index = ifd0.entries.firstIndex(where: { $0.tag == TIFFAppendEditor.orientationTag }),
               ifd0.entries[index].type == 3, ifd0.entries[index].count == 1 {
                try patchBytes(at: ifd0.valueFieldIndexes[index], u16(value))
                return
            }
        }
        let entry = TIFFAppendEditor.Entry(tag: TIFFAppendEditor.orientationTag, type: 3, count: 1, value: u16(value) + [0, 0])
        try updateIFD0 { entries, _ in
            entries.removeAll { $0.tag == TIFFAppendEditor.orientationTag }
            entries.append(entry)
        }
    }
}
