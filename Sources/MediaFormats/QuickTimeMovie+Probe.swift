/// The probe's walk of a movie's `moov`: what `QuickTimeProbe.apply` asks of a `QuickTimeMovie`, read straight
/// from the box's bytes, without the box tree, without the sample tables the probe never looks at (stsz,
/// stco/co64, stss, stsc, sgpd... are skipped by their headers) and without the metadata values it does not
/// copy. Building the tree and every table of a Live Photo movie was most of a movie's probe CPU (issue 17).
///
/// Exactness: `QuickTimeProbe.apply` gives the `MediaInfo` the full `QuickTimeMovie.parse` would give. The
/// movie it returns keeps only what `apply` reads: per track the header, handler, media header, edit list,
/// the first sample entry (plus the `mebx` entries naming the still-image time, with only that key), the
/// stts totals and the first composition offset; the metadata values `apply` copies. Its boxes have no
/// children and its sample tables cannot locate samples: it is for the probe only. The walk returns nil —
/// and the caller runs the full parser, which reports the problem in its own words — wherever the full parser
/// would report any problem, and on layouts it does not follow exactly (non-ASCII or more than
/// `maxKeys` metadata keys), so a broken file never takes the shortcut. `ProbeFastPathTests` compares both
/// on fixtures and on damaged copies of them.
extension QuickTimeMovie {
    private enum Code {
        static let mvhd = fourCCCode("mvhd"), trak = fourCCCode("trak"), meta = fourCCCode("meta")
        static let tkhd = fourCCCode("tkhd"), mdia = fourCCCode("mdia"), edts = fourCCCode("edts")
        static let elst = fourCCCode("elst"), mdhd = fourCCCode("mdhd"), hdlr = fourCCCode("hdlr")
        static let minf = fourCCCode("minf"), stbl = fourCCCode("stbl"), stsd = fourCCCode("stsd")
        static let stts = fourCCCode("stts"), ctts = fourCCCode("ctts"), stsz = fourCCCode("stsz")
        static let keys = fourCCCode("keys"), ilst = fourCCCode("ilst"), data = fourCCCode("data")
        static let mebx = fourCCCode("mebx"), keyd = fourCCCode("keyd"), mdta = fourCCCode("mdta")
    }

    /// More metadata keys than this (in `moov/meta` or one `mebx` table) send the movie to the full parser:
    /// real movies have a dozen, and the walk's duplicate checks are linear.
    static let maxKeys = 64

    /// The metadata keys `QuickTimeProbe.apply` reads; the others' values are checked, not kept.
    static let probedKeys: [ArraySlice<UInt8>] = QuickTimeProbe.probedMetadataKeys.map { ArraySlice($0.utf8) }

    static let stillImageTimeKeyBytes = ArraySlice(stillImageTimeKey.utf8)

    /// `moov`: the whole box (header included), as `ISOBMFFTopLevel.load` reads it. nil: use the full parser.
    static func parseForProbe(_ moov: ByteReader, limits: ParseLimits) -> QuickTimeMovie? {
        // The tree `ISOStructure.parse` would build must parse cleanly (then the walks below cannot fail on
        // structure, only on what is inside a box).
        var check = moov
        guard ISOTreeCheck.box(&check, depth: 0, limits: limits) else { return nil }
        var root = moov
        guard let (header, payload) = ISOTreeCheck.nextBox(&root) else { return nil }
        let rootBox = ISOBox(type: fourCC(header.typeCode), typeCode: header.typeCode,
                             range: ByteRange(offset: moov.baseOffset, length: header.size), headerSize: header.headerSize)
        let structure = ISOStructure(root: rootBox, bytes: moov)
        var movie = QuickTimeMovie(structure: structure)
        var body = payload
        guard (try? body.skip(min(ISOTreeCheck.childrenOffset(typeCode: header.typeCode, payload: payload),
                                  body.remaining))) != nil else { return nil }
        var mvhd: ByteReader?, meta: ByteReader?
        do throws(MediaError) {
            while body.remaining >= 8 {
                let start = body.fileOffset
                guard let (child, childPayload) = ISOTreeCheck.nextBox(&body) else { return nil }
                switch child.typeCode {
                case Code.mvhd where mvhd == nil: mvhd = childPayload
                case Code.meta where meta == nil: meta = childPayload
                case Code.trak:
                    let box = ISOBox(type: "trak", typeCode: Code.trak, range: ByteRange(offset: start, length: child.size),
                                     headerSize: child.headerSize)
                    guard let track = try probeTrack(box, childPayload, structure: structure, limits: limits) else { return nil }
                    movie.tracks.append(track)
                default: break
                }
            }
            // No mvhd is a warning of the full parser's.
            guard var r = mvhd else { return nil }
            let version = try r.readU8()
            try r.skip(3 + (version == 1 ? 16 : 8))
            movie.timescale = try r.readU32()
            movie.duration = version == 1 ? try r.readU64() : UInt64(try r.readU32())
            if let meta {
                guard let metadata = try probeMetadata(meta, limits: limits) else { return nil }
                movie.metadata = metadata
            }
            return movie
        } catch {
            return nil
        }
    }

    /// The first direct child of `type` in a container's payload (as `ISOBox.child`), or nil.
    private static func firstChild(_ type: UInt32, in payload: ByteReader) -> ByteReader? {
        var r = payload
        while r.remaining >= 8 {
            guard let (header, body) = ISOTreeCheck.nextBox(&r) else { return nil }
            if header.typeCode == type { return body }
        }
        return nil
    }

    /// One `trak`, as `QuickTimeTrack.parse` reads it; nil where it would report a problem.
    private static func probeTrack(_ box: ISOBox, _ trak: ByteReader, structure: ISOStructure,
                                   limits: ParseLimits) throws(MediaError) -> QuickTimeTrack? {
        var track = QuickTimeTrack(box: box)
        var tkhd: ByteReader?, mdia: ByteReader?, edts: ByteReader?
        var children = trak
        while children.remaining >= 8 {
            guard let (header, body) = ISOTreeCheck.nextBox(&children) else { return nil }
            switch header.typeCode {
            case Code.tkhd where tkhd == nil: tkhd = body
            case Code.mdia where mdia == nil: mdia = body
            case Code.edts where edts == nil: edts = body
            default: break
            }
        }
        if let tkhd { try track.readTrackHeader(tkhd) }
        var stbl: ByteReader?
        if let mdia {
            if var r = firstChild(Code.mdhd, in: mdia) {
                let version = try r.readU8()
                try r.skip(3 + (version == 1 ? 16 : 8))
                track.mediaTimescale = try r.readU32()
                track.mediaDuration = version == 1 ? try r.readU64() : UInt64(try r.readU32())
            }
            if var r = firstChild(Code.hdlr, in: mdia) {
                try r.skip(4 + 4)
                track.handlerType = try r.readFourCC()
            }
            stbl = firstChild(Code.minf, in: mdia).flatMap { firstChild(Code.stbl, in: $0) }
        }
        if let elst = edts.flatMap({ firstChild(Code.elst, in: $0) }) {
            track.editList = try QuickTimeEditList.parse(payload: elst, limits: limits)
        }
        if let stbl {
            if let stsd = firstChild(Code.stsd, in: stbl) {
                guard let entries = try probeSampleDescriptions(stsd, limits: limits) else { return nil }
                track.sampleEntries = entries
            }
            track.sampleTable = try probeSampleTable(stbl, structure: structure, limits: limits)
        }
        return track
    }

    /// `stsd`: the first entry (format, and size for visual formats) and the `mebx` entries whose key table
    /// names the still-image time (with only that key). nil where the full parser would report a problem.
    private static func probeSampleDescriptions(_ stsd: ByteReader, limits: ParseLimits) throws(MediaError) -> [QuickTimeTrack.SampleEntry]? {
        var r = stsd
        try r.skip(4)
        let count = UInt64(try r.readU32())
        try r.requireEntries(count, of: 16, limit: limits.maxEntries, what: "stsd")
        var check = r
        guard ISOTreeCheck.sequence(&check, depth: 7, limits: limits) else { return nil }
        var entries: [QuickTimeTrack.SampleEntry] = []
        while r.remaining >= 8 {
            guard let (header, payload) = ISOTreeCheck.nextBox(&r) else { return nil }
            var body = payload
            let isFirst = entries.isEmpty
            var entry: QuickTimeTrack.SampleEntry?
            if isFirst { entry = QuickTimeTrack.SampleEntry(format: fourCC(header.typeCode)) }
            // Every entry is read as the full parser reads it, so that a broken one is noticed.
            if QuickTimeTrack.videoSampleEntryCodes.contains(header.typeCode) {
                try body.skip(8 + 16)
                let width = Int(try body.readU16()), height = Int(try body.readU16())
                entry?.width = width
                entry?.height = height
            } else if header.typeCode == Code.mebx {
                try body.skip(8)
                guard let stillKeyID = try probeStillImageTimeKey(body, limits: limits) else { return nil }
                if let id = stillKeyID {
                    if entry == nil { entry = QuickTimeTrack.SampleEntry(format: "mebx") }
                    entry?.metadataKeys = [id: stillImageTimeKey]
                }
            }
            if let entry { entries.append(entry) }
        }
        return entries
    }

    /// A `mebx` entry's key table: `.some(id)` when the table (last value per local id, as the full parser's
    /// dictionary keeps) maps a local id to the still-image-time key, `.some(nil)` when none does, nil where
    /// the full parser would report a problem or the table is not plain ASCII.
    private static func probeStillImageTimeKey(_ body: ByteReader, limits: ParseLimits) throws(MediaError) -> UInt32??  {
        var check = body
        guard ISOTreeCheck.sequence(&check, depth: 8, limits: limits) else { return nil }
        guard let keys = firstChild(Code.keys, in: body) else { return .some(nil) }
        var keysCheck = keys
        guard ISOTreeCheck.sequence(&keysCheck, depth: 9, limits: limits) else { return nil }
        // (local id, is the still-image-time key), later ids replacing earlier ones.
        var table: [(id: UInt32, isStill: Bool)] = []
        var r = keys
        while r.remaining >= 8 {
            guard let (header, key) = ISOTreeCheck.nextBox(&r) else { return nil }
            var partsCheck = key
            guard ISOTreeCheck.sequence(&partsCheck, depth: 10, limits: limits) else { return nil }
            guard var k = firstChild(Code.keyd, in: key) else { continue }
            try k.skip(4)   // namespace, `mdta`
            guard let value = k.slice(k.position, k.remaining), isASCII(value) else { return nil }
            let isStill = value == stillImageTimeKeyBytes
            if let index = table.firstIndex(where: { $0.id == header.typeCode }) {
                table[index].isStill = isStill
            } else {
                guard table.count < maxKeys else { return nil }
                table.append((header.typeCode, isStill))
            }
        }
        // The full parser's dictionary has no order: any still id would do, and only its presence is read.
        return .some(table.first(where: \.isStill)?.id)
    }

    private static func isASCII(_ bytes: ArraySlice<UInt8>) -> Bool { bytes.allSatisfy { $0 < 0x80 } }

    /// The stts totals (the first timed entry kept: sample 0's decode time is all `apply` asks), the first
    /// composition offset and the stsz count, as `QuickTimeSampleTable.parse` reads them.
    private static func probeSampleTable(_ stbl: ByteReader, structure: ISOStructure,
                                         limits: ParseLimits) throws(MediaError) -> QuickTimeSampleTable {
        var table = QuickTimeSampleTable(structure: structure)
        var stts: ByteReader?, ctts: ByteReader?, stsz: ByteReader?
        var children = stbl
        while children.remaining >= 8 {
            guard let (header, body) = ISOTreeCheck.nextBox(&children) else { break }
            switch header.typeCode {
            case Code.stts where stts == nil: stts = body
            case Code.ctts where ctts == nil: ctts = body
            case Code.stsz where stsz == nil: stsz = body
            default: break
            }
        }
        if var r = stts {
            try r.skip(4)
            let count = UInt64(try r.readU32())
            try r.requireEntries(count, of: 8, limit: limits.maxSamples, what: "stts")
            for _ in 0..<count {
                let entry = QuickTimeSampleTable.TimeToSample(count: try r.readU32(), delta: try r.readU32())
                if table.timeToSample.isEmpty, entry.count > 0 { table.timeToSample = [entry] }
                table.timedSampleCount += UInt64(entry.count)
                let (sum, overflow) = table.totalDuration.addingReportingOverflow(UInt64(entry.count) * UInt64(entry.delta))
                table.totalDuration = overflow ? .max : sum
            }
            guard table.timedSampleCount <= UInt64(limits.maxSamples) else {
                throw MediaError.limitExceeded("stts: \(table.timedSampleCount) samples (limit \(limits.maxSamples))")
            }
        }
        if var r = ctts {
            let version = try r.readU8()
            try r.skip(3)
            if try r.readU32() > 0 {
                _ = try r.readU32()
                table.firstCompositionOffset = version == 0 ? Int64(try r.readU32()) : Int64(try r.readI32())
            }
        }
        if var r = stsz {
            try r.skip(4)
            let constantSize = try r.readU32()
            let count = UInt64(try r.readU32())
            try r.requireEntries(count, of: constantSize == 0 ? 4 : 0, limit: limits.maxSamples, what: "stsz")
            table.sampleCount = count
        }
        return table
    }

    /// `moov/meta` (`mdta`): the values `apply` reads, after the checks `QuickTimeMetadata.parse` makes of
    /// every key and item. nil where it would report a problem or the keys are not plain ASCII.
    private static func probeMetadata(_ meta: ByteReader, limits: ParseLimits) throws(MediaError) -> QuickTimeMetadata? {
        var result = QuickTimeMetadata()
        var body = meta
        try body.skip(min(ISOTreeCheck.childrenOffset(typeCode: Code.meta, payload: meta), body.remaining))
        var keysBox: ByteReader?, ilst: ByteReader?, hdlr: ByteReader?
        while body.remaining >= 8 {
            guard let (header, payload) = ISOTreeCheck.nextBox(&body) else { return nil }
            switch header.typeCode {
            case Code.keys where keysBox == nil: keysBox = payload
            case Code.ilst where ilst == nil: ilst = payload
            case Code.hdlr where hdlr == nil: hdlr = payload
            default: break
            }
        }
        guard var r = keysBox, var items = ilst else { return result }
        if var h = hdlr {
            try h.skip(4 + 4)
            guard try h.readU32() == Code.mdta else { return result }
        }
        try r.skip(4)
        let count = UInt64(try r.readU32())
        try r.requireEntries(count, of: 8, limit: limits.maxEntries, what: "keys")
        guard count <= UInt64(maxKeys) else { return nil }
        // Each key's bytes (after its namespace); keys are compared as bytes, which for ASCII is String equality.
        var keys: [ArraySlice<UInt8>] = []
        keys.reserveCapacity(Int(count))
        result.values.reserveCapacity(probedKeys.count)
        for _ in 0..<count {
            let size = Int(try r.readU32())
            guard size >= 8 else { throw MediaError.invalid("keys entry of \(size) bytes") }
            var entry = try r.subReader(size - 4)
            try entry.skip(4)
            guard let key = entry.slice(entry.position, entry.remaining), isASCII(key) else { return nil }
            keys.append(key)
        }
        // Indices of the keys that got a value (the full parser keeps the first value per key text).
        var valued: [Int] = []
        valued.reserveCapacity(keys.count)
        while items.remaining >= 8 {
            guard let (header, item) = ISOTreeCheck.nextBox(&items) else { return nil }
            let index = header.typeCode
            // An item that refers to no key is a warning of the full parser's.
            guard index >= 1, index <= UInt32(keys.count) else { return nil }
            var check = item
            guard ISOTreeCheck.sequence(&check, depth: 5, limits: limits) else { return nil }
            guard let data = firstChild(Code.data, in: item) else { continue }
            let key = keys[Int(index) - 1]
            guard !valued.contains(where: { keys[$0] == key }) else { continue }
            valued.append(Int(index) - 1)
            // Every first value is read as the full parser reads it (its 8-byte type and locale can fail).
            guard data.remaining >= 8 else { throw MediaError.truncated(at: data.fileOffset, needed: 8 - data.remaining) }
            if let probed = probedKeys.firstIndex(of: key) {
                let text = QuickTimeProbe.probedMetadataKeys[probed]
                result.values[text] = try QuickTimeMetadata.parseDataValue(payload: data)
            }
        }
        return result
    }
}
