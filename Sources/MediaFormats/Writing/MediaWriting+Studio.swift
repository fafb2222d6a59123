/// Writers for the Live Photo studio (`livegrid edit`, `export --as`): a re-encoded still that keeps the
/// original's Exif, and a movie without its sound.
extension MediaWriting {
    /// `newJPEG` (freshly encoded pixels, upright) carrying the Exif of `original` (a JPEG): camera data,
    /// the Apple MakerNote and its content identifier kept, Orientation set to 1 because the new pixels are
    /// already upright. Without Exif in the original, the new JPEG comes back with Orientation 1 only.
    /// With `keepingContentIdentifier: false` the Apple MakerNote loses its content identifier (and only
    /// that): a long exposure is no Live Photo still and must not pair with the original's movie.
    public static func jpegCarryingExif(of original: any ByteSource, newJPEG: [UInt8], keepingContentIdentifier: Bool = true,
                                        limits: ParseLimits = .default) throws(MediaError) -> [UInt8] {
        let originalList = try JPEGSegmentList(original, limits: limits)
        let fresh = MemoryByteSource(newJPEG)
        let freshList = try JPEGSegmentList(fresh, limits: limits)
        var combined = newJPEG
        if let (_, payload) = try originalList.first(marker: 0xE1, signature: JPEGSegmentList.exifSignature, in: original) {
            let segment = try JPEGSegmentList.segment(marker: 0xE1, payload: payload)
            let assembly = JPEGSegmentList.assembly(source: fresh, replacing: nil, at: freshList.insertionOffsetForAPP1, with: segment)
            combined = try assembly.bytes(from: fresh)
        }
        let upright = MemoryByteSource(combined)
        let result = try JPEGExifWriter.setOrientation(upright, 1, limits: limits).bytes(from: upright)
        guard !keepingContentIdentifier else { return result }
        let withIdentifier = MemoryByteSource(result)
        return try JPEGExifWriter.editExif(withIdentifier, limits: limits) { (editor: inout TIFFAppendEditor) throws(MediaError) in
            guard editor.ifd0Offset != 0 else { return }
            try editor.updateExifIFD { (entries: inout [TIFFAppendEditor.Entry], editor: inout TIFFAppendEditor) throws(MediaError) in
                guard let note = entries.first(where: { $0.tag == TIFFAppendEditor.makerNoteTag }),
                      let bytes = editor.valueBytes(note), AppleMakerNoteWriter.isApple(bytes) else { return }
                let stripped = try AppleMakerNoteWriter.makerNote(existing: bytes, setting: nil, limits: editor.limits)
                entries.removeAll { $0.tag == TIFFAppendEditor.makerNoteTag }
                entries.append(try editor.entry(tag: TIFFAppendEditor.makerNoteTag, type: 7, count: UInt32(stripped.count), data: stripped))
            }
        }.bytes(from: withIdentifier)
    }

    /// Exif TIFF bytes (from the byte-order mark) with Orientation 1: for a re-encoded upright picture.
    public static func exifTIFFUpright(_ tiff: [UInt8], limits: ParseLimits = .default) throws(MediaError) -> [UInt8] {
        var editor = try TIFFAppendEditor(tiff: tiff, limits: limits)
        try editor.setOrientation(1)
        return editor.bytes
    }

    /// The movie without its sound tracks (`soun` handler): every other track (video, timed metadata such
    /// as the still-image time) and `moov/meta` kept, nothing re-encoded. The sound's sample bytes are
    /// overwritten with zeros in the copy, so muting also removes what was said from the file.
    public static func movieWithoutAudio(_ movie: any ByteSource, limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        var layout = try QuickTimeMovieLayout(movie, limits: limits)
        let soundTracks = layout.tracks.filter { QuickTimeMovieLayout.handlerType(of: $0) == "soun" }
        var silenced: [ByteRange] = []
        for track in soundTracks { silenced += try sampleChunkRanges(of: track) }
        layout.moov.children?.removeAll { $0.type == "trak" && QuickTimeMovieLayout.handlerType(of: $0) == "soun" }
        let assembly = try layout.assemble(ftyp: nil, mediaData: [])
        return zeroing(silenced, in: assembly)
    }

    /// Byte ranges (in the source file) of a track's chunks: stco/co64 offsets, stsc runs, stsz sizes.
    static func sampleChunkRanges(of trak: EditableBox) throws(MediaError) -> [ByteRange] {
        guard let stbl = trak.descendant("mdia/minf/stbl") else { return [] }
        let offsets: [UInt64]
        if let stco = stbl.child("stco")?.payload {
            offsets = try ChunkOffsets.read(stco, width: 4)
        } else if let co64 = stbl.child("co64")?.payload {
            offsets = try ChunkOffsets.read(co64, width: 8)
        } else {
            return []
        }
        guard let stsz = stbl.child("stsz")?.payload, stsz.count >= 12,
              let stsc = stbl.child("stsc")?.payload, stsc.count >= 8 else { throw MediaError.invalid("sound track without stsz/stsc") }
        let uniformSize = BigEndian.read(stsz, at: 4, width: 4) ?? 0
        let sampleCount = Int(BigEndian.read(stsz, at: 8, width: 4) ?? 0)
        guard uniformSize != 0 || stsz.count >= 12 + 4 * sampleCount else { throw MediaError.invalid("stsz shorter than its count") }
        func sampleSize(_ index: Int) -> UInt64 { uniformSize != 0 ? uniformSize : (BigEndian.read(stsz, at: 12 + 4 * index, width: 4) ?? 0) }
        let runCount = Int(BigEndian.read(stsc, at: 4, width: 4) ?? 0)
        guard stsc.count >= 8 + 12 * runCount else { throw MediaError.invalid("stsc shorter than its count") }
        var runs: [(firstChunk: Int, samples: Int)] = []
        for run in 0..<runCount {
            runs.append((Int(BigEndian.read(stsc, at: 8 + 12 * run, width: 4) ?? 1), Int(BigEndian.read(stsc, at: 12 + 12 * run, width: 4) ?? 0)))
        }
        var ranges: [ByteRange] = []
        var sample = 0
        for (chunkIndex, offset) in offsets.enumerated() {
            let chunkNumber = chunkIndex + 1
            let perChunk = runs.last(where: { $0.firstChunk <= chunkNumber })?.samples ?? 0
            var length: UInt64 = 0
            for _ in 0..<perChunk where sample < sampleCount {
                length += sampleSize(sample)
                sample += 1
            }
            if length > 0 { ranges.append(ByteRange(offset: offset, length: length)) }
        }
        return ranges
    }

    /// The assembly with every source byte inside `ranges` replaced by zero (same length, same layout).
    static func zeroing(_ ranges: [ByteRange], in assembly: ByteAssembly) -> ByteAssembly {
        guard !ranges.isEmpty else { return assembly }
        let sorted = ranges.sorted { $0.offset < $1.offset }
        var result = ByteAssembly()
        for part in assembly.parts {
            guard case .source(let range) = part else { result.parts.append(part); continue }
            var cursor = range.offset
            for cut in sorted where cut.end > cursor && cut.offset < range.end {
                let start = max(cut.offset, cursor)
                let end = min(cut.end, range.end)
                result.append(range: ByteRange(offset: cursor, length: start - cursor))
                result.append([UInt8](repeating: 0, count: Int(end - start)))
                cursor = end
            }
            result.append(range: ByteRange(offset: cursor, length: range.end - cursor))
        }
        return result
    }
}
