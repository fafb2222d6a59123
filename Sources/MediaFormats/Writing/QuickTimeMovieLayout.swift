/// A movie opened for rewriting: its top-level boxes (as ranges) and its `moov` parsed into editable boxes.
///
/// Writers change `moov` and call `assemble`, which lays the file out again — ftyp, moov, new media data,
/// then every other original box copied as a source range — and fixes every track's chunk offsets
/// (stco/co64, widened to co64 when an offset passes 4 GiB) so samples are found where they now lie.
struct QuickTimeMovieLayout {
    let source: any ByteSource
    let boxes: [TopLevelBox]
    var moov: EditableBox

    init(_ source: any ByteSource, limits: ParseLimits = .default) throws(MediaError) {
        self.source = source
        let head = try source.read(at: 0, count: 16)
        let format = MediaProbe.sniff(head)
        guard format.isMovie else {
            throw MediaError.unsupported("not a QuickTime or MP4 movie (looks like \(format.rawValue))")
        }
        boxes = try TopLevelBox.list(source, limits: limits)
        let moovs = boxes.filter { $0.type == "moov" }
        guard let moovBox = moovs.first else { throw MediaError.invalid("the movie has no moov box (truncated or still recording?)") }
        guard moovs.count == 1 else { throw MediaError.invalid("the movie has \(moovs.count) moov boxes") }
        guard moovBox.payload.length <= UInt64(limits.maxStructureBytes) else {
            throw MediaError.limitExceeded("moov of \(moovBox.payload.length) bytes (limit \(limits.maxStructureBytes))")
        }
        let body = try source.readExactly(at: moovBox.payload.offset, count: Int(moovBox.payload.length))
        moov = EditableBox("moov", children: try EditableBox.parseList(body[...], depth: 1, limits: limits, context: "moov"))
        if moov.child("mvex") != nil || boxes.contains(where: { $0.type == "moof" }) {
            throw MediaError.unsupported("fragmented MP4 (moof/mvex) cannot be rewritten; remux it first")
        }
        guard moov.child("mvhd") != nil else { throw MediaError.invalid("moov has no mvhd") }
    }

    // MARK: facts

    /// mvhd time scale and duration (in that time scale).
    var movieTimescale: UInt32 { MovieHeader(moov.child("mvhd")?.payload ?? []).timescale }
    var movieDuration: UInt64 { MovieHeader(moov.child("mvhd")?.payload ?? []).duration }

    var tracks: [EditableBox] { moov.children?.filter { $0.type == "trak" } ?? [] }

    static func handlerType(of trak: EditableBox) -> String? {
        guard let hdlr = trak.descendant("mdia/hdlr")?.payload, hdlr.count >= 12 else { return nil }
        return String(decoding: hdlr[8..<12], as: UTF8.self)
    }

    static func trackID(of trak: EditableBox) -> UInt32? {
        guard let tkhd = trak.child("tkhd")?.payload, let version = tkhd.first else { return nil }
        return BigEndian.read(tkhd, at: version == 1 ? 20 : 12, width: 4).map { UInt32($0) }
    }

    /// tkhd duration, in the movie time scale.
    static func trackDuration(of trak: EditableBox) -> UInt64? {
        guard let tkhd = trak.child("tkhd")?.payload, let version = tkhd.first else { return nil }
        return BigEndian.read(tkhd, at: version == 1 ? 28 : 20, width: version == 1 ? 8 : 4)
    }

    /// The first sample entry's four-character code (avc1, hvc1, mebx...).
    static func sampleEntryType(of trak: EditableBox) -> String? {
        guard let stsd = trak.descendant("mdia/minf/stbl/stsd")?.payload, stsd.count >= 16 else { return nil }
        return String(decoding: stsd[12..<16], as: UTF8.self)
    }

    /// The first video track, or a clear error when the movie has none.
    func videoTrack() throws(MediaError) -> EditableBox {
        guard let video = tracks.first(where: { Self.handlerType(of: $0) == "vide" }) else {
            let handlers = tracks.compactMap { Self.handlerType(of: $0) }
            throw MediaError.unsupported("the movie has no video track (tracks: \(handlers.isEmpty ? "none" : handlers.joined(separator: ", ")))")
        }
        return video
    }

    // MARK: writing

    /// Lays the file out again with `moov` first ("fast start"), `ftyp` replaced when given, and `mediaData`
    /// (already a complete mdat box, or empty) right after moov. Chunk offsets pointing into `mediaData`
    /// are written as `source.size + index` by the caller: the virtual offset of that box's bytes.
    func assemble(ftyp newFtyp: [UInt8]?, mediaData: [UInt8]) throws(MediaError) -> ByteAssembly {
        enum Piece { case original(TopLevelBox), bytes([UInt8], virtualOffset: UInt64) }
        var pieces: [Piece] = []
        if let newFtyp {
            pieces.append(.bytes(newFtyp, virtualOffset: UInt64.max))
        } else if let ftyp = boxes.first(where: { $0.type == "ftyp" }) {
            pieces.append(.original(ftyp))
        }
        let moovIndex = pieces.count
        pieces.append(.bytes([], virtualOffset: UInt64.max)) // moov, filled below
        if !mediaData.isEmpty { pieces.append(.bytes(mediaData, virtualOffset: source.size)) }
        for box in boxes where box.type != "moov" && box.type != "ftyp" { pieces.append(.original(box)) }

        var moov = self.moov
        // Widening stco to co64 grows moov, which moves everything after it: repeat until nothing overflows.
        for _ in 0...tracks.count + 1 {
            let moovSize = UInt64(moov.size)
            var map: [(old: ByteRange, new: UInt64)] = []
            var position: UInt64 = 0
            for (index, piece) in pieces.enumerated() {
                switch piece {
                case .original(let box):
                    map.append((box.range, position)); position += box.range.length
                case .bytes(let bytes, let virtualOffset):
                    let length = index == moovIndex ? moovSize : UInt64(bytes.count)
                    if virtualOffset != UInt64.max { map.append((ByteRange(offset: virtualOffset, length: length), position)) }
                    position += length
                }
            }
            let translate: (UInt64) throws(MediaError) -> UInt64 = { old throws(MediaError) in
                guard let hit = map.first(where: { old >= $0.old.offset && old < $0.old.end }) else {
                    throw MediaError.invalid("a chunk offset (\(old)) points outside the movie's media data")
                }
                return hit.new + (old - hit.old.offset)
            }
            let (translated, overflowing) = try Self.translatingChunkOffsets(moov, translate: translate)
            if overflowing.isEmpty {
                var assembly = ByteAssembly()
                for (index, piece) in pieces.enumerated() {
                    switch piece {
                    case .original(let box): assembly.append(range: box.range)
                    case .bytes(let bytes, _): assembly.append(index == moovIndex ? translated.serialized() : bytes)
                    }
                }
                return assembly
            }
            moov = try Self.widening(moov, tracks: overflowing)
        }
        throw MediaError.invalid("chunk offsets could not be laid out")
    }

    /// Copies `moov` with every stco/co64 entry passed through `translate`; also returns the indexes (in
    /// moov's children) of tracks whose 32-bit stco can no longer hold the translated offsets.
    private static func translatingChunkOffsets(_ moov: EditableBox, translate: (UInt64) throws(MediaError) -> UInt64)
        throws(MediaError) -> (EditableBox, Set<Int>) {
        var result = moov
        var overflowing: Set<Int> = []
        guard var kids = result.children else { return (result, []) }
        for index in kids.indices where kids[index].type == "trak" {
            try kids[index].modify("mdia/minf/stbl") { (stbl: inout EditableBox) throws(MediaError) in
                guard var tables = stbl.children else { return }
                for t in tables.indices where tables[t].type == "stco" || tables[t].type == "co64" {
                    let width = tables[t].type == "co64" ? 8 : 4
                    var values = try ChunkOffsets.read(tables[t].payload, width: width)
                    for i in values.indices { values[i] = try translate(values[i]) }
                    if width == 4 && values.contains(where: { $0 > UInt64(UInt32.max) }) { overflowing.insert(index) }
                    tables[t].payload = ChunkOffsets.payload(values, width: width)
                }
                stbl.children = tables
            }
        }
        result.children = kids
        return (result, overflowing)
    }

    /// Turns the stco of the given tracks into co64 with the same (untranslated) values.
    private static func widening(_ moov: EditableBox, tracks: Set<Int>) throws(MediaError) -> EditableBox {
        var result = moov
        guard var kids = result.children else { return result }
        for index in tracks where kids.indices.contains(index) {
            try kids[index].modify("mdia/minf/stbl") { (stbl: inout EditableBox) throws(MediaError) in
                guard var tables = stbl.children else { return }
                for t in tables.indices where tables[t].type == "stco" {
                    let values = try ChunkOffsets.read(tables[t].payload, width: 4)
                    tables[t] = EditableBox("co64", payload: ChunkOffsets.payload(values, width: 8))
                }
                stbl.children = tables
            }
        }
        result.children = kids
        return result
    }
}

/// stco/co64 payloads: version/flags, count, offsets.
enum ChunkOffsets {
    static func read(_ payload: [UInt8], width: Int) throws(MediaError) -> [UInt64] {
        guard let count = BigEndian.read(payload, at: 4, width: 4) else { throw MediaError.invalid("chunk offset table too short") }
        guard UInt64(payload.count - 8) / UInt64(width) >= count else {
            throw MediaError.invalid("chunk offset table declares \(count) entries but holds \((payload.count - 8) / width)")
        }
        return (0..<Int(count)).map { BigEndian.read(payload, at: 8 + $0 * width, width: width) ?? 0 }
    }

    static func payload(_ offsets: [UInt64], width: Int) -> [UInt8] {
        var out = BigEndian.u32(0) + BigEndian.u32(UInt32(offsets.count))
        out.reserveCapacity(8 + offsets.count * width)
        for value in offsets { out += width == 8 ? BigEndian.u64(value) : BigEndian.u32(UInt32(truncatingIfNeeded: value)) }
        return out
    }
}

/// The fields of `mvhd` the writers read and change.
struct MovieHeader {
    var bytes: [UInt8]
    init(_ payload: [UInt8]) { bytes = payload }
    var isVersion1: Bool { bytes.first == 1 }
    var timescale: UInt32 { UInt32(BigEndian.read(bytes, at: isVersion1 ? 20 : 12, width: 4) ?? 0) }
    var duration: UInt64 { BigEndian.read(bytes, at: isVersion1 ? 24 : 16, width: isVersion1 ? 8 : 4) ?? 0 }
    var creationTime: UInt64 { BigEndian.read(bytes, at: 4, width: isVersion1 ? 8 : 4) ?? 0 }
    /// next_track_ID is the last field of mvhd.
    var nextTrackID: UInt32 { UInt32(BigEndian.read(bytes, at: bytes.count - 4, width: 4) ?? 1) }

    mutating func setNextTrackID(_ id: UInt32) {
        guard bytes.count >= 4 else { return }
        BigEndian.write(UInt64(id), into: &bytes, at: bytes.count - 4, width: 4)
    }
    mutating func setDuration(_ value: UInt64) {
        let at = isVersion1 ? 24 : 16, width = isVersion1 ? 8 : 4
        guard bytes.count >= at + width else { return }
        BigEndian.write(min(value, isVersion1 ? UInt64.max : UInt64(UInt32.max)), into: &bytes, at: at, width: width)
    }
}
