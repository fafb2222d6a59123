/// The IFD edits the writers need, in terms of `TIFFAppendEditor`'s copy-and-repoint rule.
extension TIFFAppendEditor {
    static let exifIFDPointerTag: UInt16 = 0x8769
    static let makerNoteTag: UInt16 = 0x927C
    static let orientationTag: UInt16 = 0x0112

    /// Rewrites IFD0 through `change` (a copy at the end; the header points to it). Creates IFD0 if absent.
    mutating func updateIFD0(_ change: (inout [Entry], inout TIFFAppendEditor) throws(MediaError) -> Void) throws(MediaError) {
        var directory = ifd0Offset == 0 ? Directory(entries: [], next: 0, valueFieldIndexes: [])
                                        : try readDirectory(at: ifd0Offset, context: "Exif IFD0")
        try change(&directory.entries, &self)
        let offset = try appendDirectory(directory.entries, next: directory.next)
        try patchU32(at: 4, offset)
    }

    /// Rewrites the Exif IFD through `change`, creating it (and IFD0's pointer) when the file has none.
    mutating func updateExifIFD(_ change: (inout [Entry], inout TIFFAppendEditor) throws(MediaError) -> Void) throws(MediaError) {
        if ifd0Offset != 0 {
            let ifd0 = try readDirectory(at: ifd0Offset, context: "Exif IFD0")
            if let index = ifd0.entries.firstIndex(where: { $0.tag == Self.exifIFDPointerTag }),
               let pointer = pointer(ifd0.entries[index]), pointer >= 8, Int(pointer) < bytes.count {
                var exif = try readDirectory(at: pointer, context: "ExifIFD")
                try change(&exif.entries, &self)
                let offset = try appendDirectory(exif.entries, next: exif.next)
                try patchU32(at: ifd0.valueFieldIndexes[index], offset)
                if ifd0.entries[index].type != 4 && ifd0.entries[index].type != 13 {
                    // A SHORT pointer cannot hold the new offset: rewrite the entry as LONG via a new IFD0.
                    let fixed = Entry(tag: Self.exifIFDPointerTag, type: 4, count: 1, value: u32(offset))
                    try updateIFD0 { entries, _ in entries.append(fixed) }
                }
                return
            }
        }
        var entries: [Entry] = [Entry(tag: 0x9000, type: 7, count: 4, value: Array("0232".utf8))] // ExifVersion
        try change(&entries, &self)
        let offset = try appendDirectory(entries, next: 0)
        let pointerEntry = Entry(tag: Self.exifIFDPointerTag, type: 4, count: 1, value: u32(offset))
        try updateIFD0 { entries, _ in entries.append(pointerEntry) }
    }

    /// Removes the GPS IFD: its entries and their out-of-line values are overwritten with zeros where they
    /// lie (nothing else moves, so other offsets stay valid), and IFD0 is rewritten without the pointer.
    /// False when there is no GPS IFD.
    mutating func removeGPS() throws(MediaError) -> Bool {
        guard ifd0Offset != 0 else { return false }
        let ifd0 = try readDirectory(at: ifd0Offset, context: "Exif IFD0")
        guard let entry = ifd0.entries.first(where: { $0.tag == LocationWriter.gpsIFDPointerTag }) else { return false }
        // try?: a GPS directory that cannot be read has nothing to zero; the pointer to it is still removed.
        if let offset = pointer(entry), offset >= minimumIFDOffset, Int(offset) + 2 <= bytes.count,
           let gps = try? readDirectory(at: offset, context: "GPS IFD") {
            for gpsEntry in gps.entries {
                if let range = outOfLineValueRange(gpsEntry) { zero(range) }
            }
            zero(Int(offset)..<min(bytes.count, Int(offset) + 2 + 12 * gps.entries.count + 4))
        }
        try updateIFD0 { entries, _ in entries.removeAll { $0.tag == LocationWriter.gpsIFDPointerTag } }
        return true
    }

    /// Where an entry's value lies when it does not fit in the 4-byte field, clamped to the data.
    func outOfLineValueRange(_ entry: Entry) -> Range<Int>? {
        let unit: [UInt16: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4, 16: 8, 17: 8, 18: 8]
        guard let size = unit[entry.type] else { return nil }
        let total = UInt64(entry.count) * UInt64(size)
        guard total > 4, let offset = pointer(Entry(tag: 0, type: 4, count: 1, value: entry.value)),
              Int(offset) < bytes.count else { return nil }
        return Int(offset)..<Int(min(UInt64(bytes.count), UInt64(offset) + total))
    }

    mutating func zero(_ range: Range<Int>) {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, !range.isEmpty else { return }
        // try?: cannot fail, the range was checked just above (patchBytes checks it again).
        try? patchBytes(at: range.lowerBound, [UInt8](repeating: 0, count: range.count))
    }

    /// Sets Apple MakerNote 0x0011, creating the MakerNote (and ExifIFD) when absent. A non-Apple MakerNote
    /// is refused: replacing it would lose the camera's data.
    mutating func setAppleContentIdentifier(_ identifier: String) throws(MediaError) {
        try updateExifIFD { (entries: inout [Entry], editor: inout TIFFAppendEditor) throws(MediaError) in
            var existing: [UInt8]?
            if let note = entries.first(where: { $0.tag == Self.makerNoteTag }) {
                guard let bytes = editor.valueBytes(note) else { throw MediaError.invalid("the MakerNote lies outside the Exif data") }
                guard AppleMakerNoteWriter.isApple(bytes) else {
                    let vendor = String(decoding: bytes.prefix(10).filter { $0 >= 0x20 && $0 < 0x7F }, as: UTF8.self)
                    throw MediaError.unsupported("the photo has a non-Apple MakerNote (\(vendor.isEmpty ? "unknown" : vendor)); replacing it would lose camera data")
                }
                existing = bytes
            }
            let note = try AppleMakerNoteWriter.makerNote(existing: existing, setting: identifier, limits: editor.limits)
            entries.removeAll { $0.tag == Self.makerNoteTag }
            entries.append(try editor.entry(tag: Self.makerNoteTag, type: 7, count: UInt32(note.count), data: note))
        }
    }
}
