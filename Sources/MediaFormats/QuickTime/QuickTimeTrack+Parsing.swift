extension QuickTimeTrack {
    /// Reads a `trak`; a broken optional box inside it is a problem, not the end of the track.
    static func parse(_ trak: ISOBox, in structure: ISOStructure, limits: ParseLimits, context: String,
                      problems: inout [ParseProblem]) -> QuickTimeTrack {
        var track = QuickTimeTrack(box: trak)
        func attempt(_ box: ISOBox?, _ body: (ISOBox) throws(MediaError) -> Void) {
            guard let box else { return }
            do {
                try body(box)
            } catch {
                problems.append(ParseProblem(.warning, "\(context)/\(box.type)", error.description))
            }
        }
        attempt(trak.child("tkhd")) { box throws(MediaError) in try track.readTrackHeader(structure.payload(of: box)) }
        attempt(trak.descendant("mdia", "mdhd")) { box throws(MediaError) in
            let (version, _, reader) = try structure.fullBoxPayload(of: box)
            var r = reader
            try r.skip(version == 1 ? 16 : 8)
            track.mediaTimescale = try r.readU32()
            track.mediaDuration = version == 1 ? try r.readU64() : UInt64(try r.readU32())
        }
        attempt(trak.descendant("mdia", "hdlr")) { box throws(MediaError) in
            var r = try structure.fullBoxPayload(of: box).reader
            try r.skip(4)
            track.handlerType = try r.readFourCC()
        }
        attempt(trak.descendant("edts", "elst")) { box throws(MediaError) in
            track.editList = try QuickTimeEditList.parse(box, in: structure, limits: limits)
        }
        let stbl = trak.descendant("mdia", "minf", "stbl")
        attempt(stbl?.child("stsd")) { box throws(MediaError) in
            track.sampleEntries = try parseSampleDescriptions(box, in: structure, limits: limits, problems: &problems)
        }
        attempt(stbl) { box throws(MediaError) in
            track.sampleTable = try QuickTimeSampleTable.parse(box, in: structure, limits: limits)
        }
        return track
    }

    /// A `tkhd` from its payload (version and flags first).
    mutating func readTrackHeader(_ payload: ByteReader) throws(MediaError) {
        var r = payload
        let word = try r.readU32()
        let version = UInt8(word >> 24), flags = word & 0xFF_FFFF
        enabled = flags & 1 != 0
        try r.skip(version == 1 ? 16 : 8)
        trackID = try r.readU32()
        try r.skip(4)
        duration = version == 1 ? try r.readU64() : UInt64(try r.readU32())
        try r.skip(8 + 2 + 2 + 2 + 2)
        matrix = []
        matrix.reserveCapacity(9)   // one allocation per track, not one per doubling (every probed movie)
        for _ in 0..<9 { matrix.append(try r.readI32()) }
        // 16.16 fixed point, rounded (in 64 bits: 0xFFFFFFFF + 0x8000 must not trap).
        width = Int((UInt64(try r.readU32()) + 0x8000) >> 16)
        height = Int((UInt64(try r.readU32()) + 0x8000) >> 16)
    }

    /// Visual sample entries whose width and height this reader takes (a constant, not rebuilt per entry).
    static let videoSampleEntryFormats: Set<String> = [
        "avc1", "avc3", "hvc1", "hev1", "mp4v", "av01", "vp09", "jpeg", "apcn", "apch", "apcs", "ap4h",
    ]
    /// The same formats as big-endian type codes (the probe-only walk compares integers).
    static let videoSampleEntryCodes: [UInt32] = videoSampleEntryFormats.map { format in
        format.utf8.reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func parseSampleDescriptions(_ stsd: ISOBox, in structure: ISOStructure, limits: ParseLimits,
                                        problems: inout [ParseProblem]) throws(MediaError) -> [SampleEntry] {
        var r = try structure.fullBoxPayload(of: stsd).reader
        let count = UInt64(try r.readU32())
        try r.requireEntries(count, of: 16, limit: limits.maxEntries, what: "stsd")
        let boxes = ISOBox.parseSequence(&r, depth: 7, limits: limits, context: "quicktime/stsd", problems: &problems)
        return try boxes.map { box throws(MediaError) in
            var entry = SampleEntry(format: box.type)
            var body = try structure.payload(of: box)
            if videoSampleEntryFormats.contains(box.type) {
                // SampleEntry (8) + pre_defined/reserved (16), then width and height.
                try body.skip(8 + 16)
                entry.width = Int(try body.readU16())
                entry.height = Int(try body.readU16())
            } else if box.type == "mebx" {
                try body.skip(8)
                entry.metadataKeys = try parseMetadataKeyTable(&body, in: structure, limits: limits, problems: &problems)
            }
            return entry
        }
    }

    /// The `keys` box of a `mebx` sample entry: child boxes typed by local key id, each with a `keyd`
    /// (namespace + key value).
    static func parseMetadataKeyTable(_ body: inout ByteReader, in structure: ISOStructure, limits: ParseLimits,
                                      problems: inout [ParseProblem]) throws(MediaError) -> [UInt32: String] {
        let children = ISOBox.parseSequence(&body, depth: 8, limits: limits, context: "quicktime/mebx", problems: &problems)
        guard let keys = children.first(where: { $0.type == "keys" }) else { return [:] }
        var keysBody = try structure.payload(of: keys)
        var table: [UInt32: String] = [:]
        for key in ISOBox.parseSequence(&keysBody, depth: 9, limits: limits, context: "quicktime/mebx/keys", problems: &problems) {
            let localID = key.typeCode
            var keyBody = try structure.payload(of: key)
            let parts = ISOBox.parseSequence(&keyBody, depth: 10, limits: limits, context: "quicktime/mebx/keys", problems: &problems)
            guard let keyd = parts.first(where: { $0.type == "keyd" }) else { continue }
            var k = try structure.payload(of: keyd)
            _ = try k.readFourCC() // namespace, `mdta`
            table[localID] = String(decoding: try k.readBytes(k.remaining), as: UTF8.self)
        }
        return table
    }
}
