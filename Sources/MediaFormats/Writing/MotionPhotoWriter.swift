/// Google/Samsung Motion Photos: taking the movie out of a JPEG and putting one in.
enum MotionPhotoWriter {
    /// Offset just past the primary image's EOI marker: entropy-coded data is skipped (stuffed 0xFF00, RSTn),
    /// and the marker segments between progressive scans are stepped over. Read in 1 MiB chunks.
    static func primaryImageEnd(_ source: any ByteSource, limits: ParseLimits = .default) throws(MediaError) -> UInt64 {
        let list = try JPEGSegmentList(source, limits: limits)
        var offset = list.scanStart
        let chunk = 1 << 20
        while offset + 1 < source.size {
            let bytes = try source.read(at: offset, count: chunk)
            guard bytes.count >= 2 else { break }
            var i = 0
            while i + 1 < bytes.count {
                guard bytes[i] == 0xFF else { i += 1; continue }
                let marker = bytes[i + 1]
                if marker == 0x00 || marker == 0xFF || (0xD0...0xD7).contains(marker) { i += marker == 0xFF ? 1 : 2; continue }
                if marker == 0xD9 { return offset + UInt64(i) + 2 }
                // A marker segment (SOS, DHT, DQT, DRI...): skip its length and keep scanning.
                var reader = try source.reader(at: offset + UInt64(i) + 2, count: 2)
                let length = UInt64(try reader.readU16())
                offset += UInt64(i) + 2 + length
                i = -1
                break
            }
            if i >= 0 { offset += UInt64(max(1, bytes.count - 1)) }
        }
        throw MediaError.truncated(at: source.size, needed: 2)
    }

    /// The still of a Motion Photo on its own: cut at the primary image's EOI (dropping the movie and any
    /// Samsung SEF trailer), with the Motion Photo XMP properties and Container:Directory removed.
    static func stillWithoutMotion(_ source: any ByteSource, limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        let end = try primaryImageEnd(source, limits: limits)
        let cut = SliceByteSource(base: source, range: ByteRange(offset: 0, length: end))
        let list = try JPEGSegmentList(cut, limits: limits)
        guard let (segment, payload) = try list.first(marker: 0xE1, signature: JPEGSegmentList.xmpSignature, in: cut) else {
            var assembly = ByteAssembly()
            assembly.append(range: ByteRange(offset: 0, length: end))
            return assembly
        }
        let packet = Array(payload.dropFirst(JPEGSegmentList.xmpSignature.count))
        let newSegment = try JPEGSegmentList.segment(marker: 0xE1, payload: JPEGSegmentList.xmpSignature + XMPPacketEditor.removingMotionPhoto(packet))
        return JPEGSegmentList.assembly(source: cut, replacing: segment.range, at: 0, with: newSegment)
    }

    /// A Google Motion Photo: `still` (a JPEG in memory; any old movie or trailer is dropped) with XMP
    /// declaring the movie, followed by the whole `movie` copied as a source range.
    static func motionPhoto(still: [UInt8], movie: any ByteSource, presentationTimestampUs: Int64,
                            limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        let stillSource = MemoryByteSource(still)
        let clean = MemoryByteSource(try stillWithoutMotion(stillSource, limits: limits).bytes(from: stillSource))
        let head = try movie.read(at: 0, count: 16)
        let format = MediaProbe.sniff(head)
        guard format.isMovie else { throw MediaError.unsupported("the movie is not QuickTime or MP4 (looks like \(format.rawValue))") }
        let mime = format == .quickTime ? "video/quicktime" : "video/mp4"
        let list = try JPEGSegmentList(clean, limits: limits)
        let existing = try list.first(marker: 0xE1, signature: JPEGSegmentList.xmpSignature, in: clean)
        let packet = existing.map { Array($0.1.dropFirst(JPEGSegmentList.xmpSignature.count)) }
        let newPacket = XMPPacketEditor.addingMotionPhoto(packet, movieMime: mime, movieLength: movie.size,
                                                          presentationTimestampUs: presentationTimestampUs)
        let segment = try JPEGSegmentList.segment(marker: 0xE1, payload: JPEGSegmentList.xmpSignature + newPacket)
        // A new XMP APP1 goes after the Exif APP1 (or the JFIF APP0).
        let exif = try list.first(marker: 0xE1, signature: JPEGSegmentList.exifSignature, in: clean)
        let insertion = exif?.0.range.end ?? list.insertionOffsetForAPP1
        let stillBytes = try JPEGSegmentList.assembly(source: clean, replacing: existing?.0.range, at: insertion, with: segment)
            .bytes(from: clean)
        var assembly = ByteAssembly()
        assembly.append(stillBytes)
        assembly.append(range: ByteRange(offset: 0, length: movie.size))
        return assembly
    }
}
