#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The probe's walk of a movie's `moov`: what `QuickTimeProbe.apply` asks of a `QuickTimeMovie`, read straight
/// from the box's bytes, without the box tree, without the sample tables the probe never looks at (stsz,
/// stco/co64, stss, stsc, sgpd... are skipped by their headers) and without the metadata values it does not
/// copy. Building the tree and every table of a Live Photo movie was most of a movie's probe CPU (issue 17).
///
/// Exactness: `ProbedMovie.apply` gives the `MediaInfo` that `QuickTimeProbe.apply` gives for the full
/// `QuickTimeMovie.parse`. The `ProbedMovie` it returns keeps only what `apply` reads: per track the tkhd
/// flags, size and rotation, the handler, the media header, the first sample entry, whether a `mebx` entry
/// names the still-image time, the stts totals and the first composition offset (the edit list of the
/// still-image-time track alone); the metadata values `apply` copies. Every box the full parser reads is
/// read the same way, so a broken one is noticed. The walk returns nil — and the caller runs the full parser,
/// which reports the problem in its own words — wherever the full parser would report any problem, and on
/// layouts it does not follow exactly (non-ASCII or more than `maxKeys` metadata keys), so a broken file
/// never takes the shortcut. `ProbeMovieFastPathTests` compares both on fixtures and on damaged copies of them.
extension QuickTimeMovie {
    /// More metadata keys than this (in `moov/meta` or one `mebx` table) send the movie to the full parser:
    /// real movies have a dozen, and the walk's duplicate checks are linear.
    static let maxKeys = 64

    /// `moov`: the whole box (header included), as `ISOBMFFTopLevel.load` reads it. nil: use the full parser.
    static func parseForProbe(_ moov: ByteReader, limits: ParseLimits) -> ProbedMovie? {
        // The walk reads the bytes by index through one pointer: a `ByteReader` window per box (each retaining
        // and releasing the buffer) was a third of the walk's CPU (issue 17, item 4).
        moov.remainingSlice.withUnsafeBytes { bytes in
            // try?: the probe declines (nil) and the full parser reports why.
            try? MoovWalk(bytes: bytes, moov: moov, limits: limits).movie()
        }
    }
}

/// The walk declines: the full parser runs and reports the problem (or the layout it does not follow).
private struct Decline: Error {}

/// A read position in the moov's bytes, up to the end of the box it reads in. Indices, not windows: copying
/// it retains nothing. Every read is checked against `end` before a byte is loaded.
private struct Cursor {
    let bytes: UnsafeRawBufferPointer
    var position: Int
    let end: Int

    var remaining: Int { end - position }

    @inline(__always)
    mutating func skip(_ n: Int) throws(Decline) {
        guard n >= 0, n <= remaining else { throw Decline() }
        position += n
    }

    @inline(__always)
    mutating func readU8() throws(Decline) -> UInt8 {
        guard remaining >= 1 else { throw Decline() }
        defer { position += 1 }
        return bytes[position]
    }

    @inline(__always)
    mutating func readU32() throws(Decline) -> UInt32 {
        guard remaining >= 4 else { throw Decline() }
        defer { position += 4 }
        return UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self))
    }

    @inline(__always)
    mutating func readU64() throws(Decline) -> UInt64 {
        guard remaining >= 8 else { throw Decline() }
        defer { position += 8 }
        return UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
    }

    @inline(__always)
    mutating func readU16() throws(Decline) -> UInt16 {
        guard remaining >= 2 else { throw Decline() }
        defer { position += 2 }
        return UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt16.self))
    }

    mutating func readI32() throws(Decline) -> Int32 { Int32(bitPattern: try readU32()) }

    /// `ByteReader.requireEntries`: `count` entries of `size` bytes within the limit and what is left.
    func requireEntries(_ count: UInt64, of size: Int, limit: Int) throws(Decline) {
        guard count <= UInt64(limit), count * UInt64(max(size, 0)) <= UInt64(remaining) else { throw Decline() }
    }

    /// The next box (as `ISOTreeCheck.nextBox`): its header and a cursor over its payload; the cursor moves
    /// past it. nil where the header is broken.
    @inline(__always)
    mutating func nextBox() -> (header: ISOTreeCheck.Header, payload: Cursor)? {
        guard let header = ISOTreeCheck.Walk.header(in: bytes, at: position, end: end) else { return nil }
        let boxEnd = position + Int(header.size)
        let payload = Cursor(bytes: bytes, position: position + header.headerSize, end: boxEnd)
        position = boxEnd
        return (header, payload)
    }

    /// The first direct child of `type` (as `ISOBox.child`): its payload, or nil (also at a broken header).
    func firstChild(_ type: UInt32) -> Cursor? {
        var r = self
        while r.remaining >= 8 {
            guard let (header, body) = r.nextBox() else { return nil }
            if header.typeCode == type { return body }
        }
        return nil
    }

    /// True when `ISOBox.parseSequence` at `depth` reads the boxes from here to `end` without a problem.
    func sequenceIsClean(depth: Int, limits: ParseLimits) -> Bool {
        ISOTreeCheck.Walk(bytes: bytes, limits: limits).sequence(from: position, to: end, depth: depth) != nil
    }

    /// The unread bytes equal `other` (compared with `memcmp`: the generic `elementsEqual` over a slice of raw
    /// bytes was most of the metadata walk).
    func equals(_ other: [UInt8]) -> Bool {
        guard remaining == other.count else { return false }
        guard let base = bytes.baseAddress else { return other.isEmpty }
        return other.withUnsafeBytes { theirs in
            guard let otherBase = theirs.baseAddress else { return remaining == 0 }
            return memcmp(base + position, otherBase, theirs.count) == 0
        }
    }

    /// The unread bytes equal those of `other` (a cursor over the same bytes).
    func equals(_ other: Cursor) -> Bool {
        guard remaining == other.remaining else { return false }
        guard let base = bytes.baseAddress, let otherBase = other.bytes.baseAddress else { return remaining == 0 }
        return memcmp(base + position, otherBase + other.position, remaining) == 0
    }

    var isASCII: Bool { bytes[position..<end].allSatisfy { $0 < 0x80 } }
}

/// The probe-only walk over one `moov`'s bytes (`QuickTimeMovie.parseForProbe`).
private struct MoovWalk {
    private enum Code {
        static let mvhd = fourCCCode("mvhd"), trak = fourCCCode("trak"), meta = fourCCCode("meta")
        static let tkhd = fourCCCode("tkhd"), mdia = fourCCCode("mdia"), edts = fourCCCode("edts")
        static let elst = fourCCCode("elst"), mdhd = fourCCCode("mdhd"), hdlr = fourCCCode("hdlr")
        static let minf = fourCCCode("minf"), stbl = fourCCCode("stbl"), stsd = fourCCCode("stsd")
        static let stts = fourCCCode("stts"), ctts = fourCCCode("ctts"), stsz = fourCCCode("stsz")
        static let keys = fourCCCode("keys"), ilst = fourCCCode("ilst"), data = fourCCCode("data")
        static let mebx = fourCCCode("mebx"), keyd = fourCCCode("keyd"), mdta = fourCCCode("mdta")
        static let vide = fourCCCode("vide"), soun = fourCCCode("soun")
    }

    /// The metadata keys `QuickTimeProbe.apply` reads, as bytes; the others' values are checked, not kept.
    static let probedKeys: [[UInt8]] = QuickTimeProbe.probedMetadataKeys.map { Array($0.utf8) }
    static let stillImageTimeKey = Array(QuickTimeMovie.stillImageTimeKey.utf8)

    /// The moov's bytes (`moov`'s unread bytes): index 0 is file offset `base`.
    let bytes: UnsafeRawBufferPointer
    /// The same bytes as a reader, for the few boxes read by the full parser's own readers (tkhd, elst, data).
    let moov: ByteReader
    let limits: ParseLimits

    init(bytes: UnsafeRawBufferPointer, moov: ByteReader, limits: ParseLimits) {
        self.bytes = bytes
        self.moov = moov
        self.limits = limits
    }

    private var base: UInt64 { moov.fileOffset }

    /// A reader over `c`'s unread bytes (sharing the moov's buffer).
    private func reader(_ c: Cursor) throws(Decline) -> ByteReader {
        guard let window = moov.window(moov.position + c.position, c.remaining, baseOffset: base + UInt64(c.position))
        else { throw Decline() }
        return window
    }

    func movie() throws(Decline) -> ProbedMovie {
        // The tree `ISOStructure.parse` would build must parse cleanly (then the walks below cannot fail on
        // structure, only on what is inside a box).
        let walk = ISOTreeCheck.Walk(bytes: bytes, limits: limits)
        guard walk.box(at: 0, depth: 0) != nil else { throw Decline() }
        var root = Cursor(bytes: bytes, position: 0, end: bytes.count)
        guard let (header, payload) = root.nextBox() else { throw Decline() }
        var movie = ProbedMovie()
        var body = payload
        try body.skip(min(walk.childrenOffset(typeCode: header.typeCode, payload: payload.position, end: payload.end),
                          body.remaining))
        // The tracks are counted first: one allocation for all of them.
        var count = 0, counting = body
        while counting.remaining >= 8, let (child, _) = counting.nextBox() { if child.typeCode == Code.trak { count += 1 } }
        movie.tracks.reserveCapacity(count)
        var mvhd: Cursor?, meta: Cursor?
        while body.remaining >= 8 {
            guard let (child, childPayload) = body.nextBox() else { throw Decline() }
            switch child.typeCode {
            case Code.mvhd where mvhd == nil: mvhd = childPayload
            case Code.meta where meta == nil: meta = childPayload
            case Code.trak: movie.tracks.append(try track(childPayload))
            default: break
            }
        }
        // No mvhd is a warning of the full parser's.
        guard var r = mvhd else { throw Decline() }
        let version = try r.readU8()
        try r.skip(3 + (version == 1 ? 16 : 8))
        movie.timescale = try r.readU32()
        movie.duration = version == 1 ? try r.readU64() : UInt64(try r.readU32())
        if let meta { movie.metadata = try metadata(meta) }
        // Only the still-image-time track's edit list is read (the others were checked).
        if let still = movie.stillImageTimeTrackIndex, let range = movie.tracks[still].editListRange {
            let payload = try reader(Cursor(bytes: bytes, position: range.lowerBound, end: range.upperBound))
            do { movie.tracks[still].editList = try QuickTimeEditList.parse(payload: payload, limits: limits) } catch { throw Decline() }
        }
        return movie
    }

    /// One `trak`, as `QuickTimeTrack.parse` reads it.
    private func track(_ trak: Cursor) throws(Decline) -> ProbedMovie.Track {
        var track = ProbedMovie.Track()
        var tkhd: Cursor?, mdia: Cursor?, edts: Cursor?
        var children = trak
        while children.remaining >= 8 {
            guard let (header, body) = children.nextBox() else { throw Decline() }
            switch header.typeCode {
            case Code.tkhd where tkhd == nil: tkhd = body
            case Code.mdia where mdia == nil: mdia = body
            case Code.edts where edts == nil: edts = body
            default: break
            }
        }
        if var r = tkhd {
            // As `QuickTimeTrack.readTrackHeader`.
            let word = try r.readU32()
            let version = UInt8(word >> 24), flags = word & 0xFF_FFFF
            track.enabled = flags & 1 != 0
            try r.skip(version == 1 ? 16 : 8)
            _ = try r.readU32()   // track id
            try r.skip(4)
            _ = version == 1 ? try r.readU64() : UInt64(try r.readU32())   // duration
            try r.skip(8 + 2 + 2 + 2 + 2)
            let a = try r.readI32(), b = try r.readI32()
            try r.skip(4)
            let c = try r.readI32(), d = try r.readI32()
            try r.skip(4 * 4)
            track.rotation = QuickTimeTrack.displayRotation(a: a, b: b, c: c, d: d)
            // 16.16 fixed point, rounded (in 64 bits: 0xFFFFFFFF + 0x8000 must not trap).
            track.width = Int((UInt64(try r.readU32()) + 0x8000) >> 16)
            track.height = Int((UInt64(try r.readU32()) + 0x8000) >> 16)
        }
        var stbl: Cursor?
        if let mdia {
            if var r = mdia.firstChild(Code.mdhd) {
                let version = try r.readU8()
                try r.skip(3 + (version == 1 ? 16 : 8))
                track.mediaTimescale = try r.readU32()
                track.mediaDuration = version == 1 ? try r.readU64() : UInt64(try r.readU32())
            }
            if var r = mdia.firstChild(Code.hdlr) {
                try r.skip(4 + 4)
                let handler = try r.readU32()
                track.isVideo = handler == Code.vide
                track.isAudio = handler == Code.soun
            }
            stbl = mdia.firstChild(Code.minf).flatMap { $0.firstChild(Code.stbl) }
        }
        if let elst = edts.flatMap({ $0.firstChild(Code.elst) }) {
            // As `QuickTimeEditList.parse` reads it: its entries fit, so reading them cannot fail.
            var r = elst
            let version = try r.readU8()
            try r.skip(3)
            let count = UInt64(try r.readU32())
            try r.requireEntries(count, of: version == 1 ? 20 : 12, limit: limits.maxEntries)
            track.editListRange = elst.position..<elst.end
        }
        if let stbl {
            if let stsd = stbl.firstChild(Code.stsd) { try sampleDescriptions(stsd, into: &track) }
            try sampleTable(stbl, into: &track)
        }
        return track
    }

    /// `stsd`: the first entry (format, and size for visual formats) and whether a `mebx` entry's key table
    /// names the still-image time.
    private func sampleDescriptions(_ stsd: Cursor, into track: inout ProbedMovie.Track) throws(Decline) {
        var r = stsd
        try r.skip(4)
        let count = UInt64(try r.readU32())
        try r.requireEntries(count, of: 16, limit: limits.maxEntries)
        guard r.sequenceIsClean(depth: 7, limits: limits) else { throw Decline() }
        var isFirst = true
        while r.remaining >= 8 {
            guard let (header, payload) = r.nextBox() else { throw Decline() }
            var body = payload
            var entry = ProbedMovie.SampleEntry(format: header.typeCode)
            // Every entry is read as the full parser reads it, so that a broken one is noticed.
            if QuickTimeTrack.videoSampleEntryCodes.contains(header.typeCode) {
                try body.skip(8 + 16)
                entry.width = Int(try body.readU16())
                entry.height = Int(try body.readU16())
            } else if header.typeCode == Code.mebx {
                try body.skip(8)
                if try stillImageTimeKey(body) != nil { track.hasStillImageTimeKey = true }
            }
            if isFirst { track.firstEntry = entry }
            isFirst = false
        }
    }

    /// A `mebx` entry's key table: the local id that (last value per local id, as the full parser's
    /// dictionary keeps) maps to the still-image-time key, or nil when none does. Declines where the full
    /// parser would report a problem or the table is not plain ASCII.
    private func stillImageTimeKey(_ body: Cursor) throws(Decline) -> UInt32? {
        guard body.sequenceIsClean(depth: 8, limits: limits) else { throw Decline() }
        guard let keys = body.firstChild(Code.keys) else { return nil }
        guard keys.sequenceIsClean(depth: 9, limits: limits) else { throw Decline() }
        // (local id, is the still-image-time key), later ids replacing earlier ones.
        var table: [(id: UInt32, isStill: Bool)] = []
        var r = keys
        while r.remaining >= 8 {
            guard let (header, key) = r.nextBox() else { throw Decline() }
            guard key.sequenceIsClean(depth: 10, limits: limits) else { throw Decline() }
            guard var k = key.firstChild(Code.keyd) else { continue }
            try k.skip(4)   // namespace, `mdta`
            guard k.isASCII else { throw Decline() }
            let isStill = k.equals(Self.stillImageTimeKey)
            if let index = table.firstIndex(where: { $0.id == header.typeCode }) {
                table[index].isStill = isStill
            } else {
                guard table.count < QuickTimeMovie.maxKeys else { throw Decline() }
                table.append((header.typeCode, isStill))
            }
        }
        // The full parser's dictionary has no order: any still id would do, and only its presence is read.
        return table.first(where: \.isStill)?.id
    }

    /// The stts totals, whether a sample is timed, the first composition offset, and the stsz count checked,
    /// as `QuickTimeSampleTable.parse` reads them.
    private func sampleTable(_ stbl: Cursor, into track: inout ProbedMovie.Track) throws(Decline) {
        track.hasSampleTable = true
        var stts: Cursor?, ctts: Cursor?, stsz: Cursor?
        var children = stbl
        while children.remaining >= 8 {
            guard let (header, body) = children.nextBox() else { break }
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
            try r.requireEntries(count, of: 8, limit: limits.maxSamples)
            for _ in 0..<count {
                let samples = try r.readU32(), delta = try r.readU32()
                if samples > 0 { track.hasTimedSample = true }
                track.timedSampleCount += UInt64(samples)
                let (sum, overflow) = track.totalDuration.addingReportingOverflow(UInt64(samples) * UInt64(delta))
                track.totalDuration = overflow ? .max : sum
            }
            guard track.timedSampleCount <= UInt64(limits.maxSamples) else { throw Decline() }
        }
        if var r = ctts {
            let version = try r.readU8()
            try r.skip(3)
            if try r.readU32() > 0 {
                _ = try r.readU32()
                track.firstCompositionOffset = version == 0 ? Int64(try r.readU32()) : Int64(try r.readI32())
            }
        }
        if var r = stsz {
            try r.skip(4)
            let constantSize = try r.readU32()
            let count = UInt64(try r.readU32())
            try r.requireEntries(count, of: constantSize == 0 ? 4 : 0, limit: limits.maxSamples)
        }
    }

    /// `moov/meta` (`mdta`): the values `apply` reads, after the checks `QuickTimeMetadata.parse` makes of
    /// every key and item. Declines where it would report a problem or the keys are not plain ASCII.
    private func metadata(_ meta: Cursor) throws(Decline) -> [QuickTimeMetadata.Value?] {
        var result: [QuickTimeMetadata.Value?] = []
        var body = meta
        let walk = ISOTreeCheck.Walk(bytes: bytes, limits: limits)
        try body.skip(min(walk.childrenOffset(typeCode: Code.meta, payload: meta.position, end: meta.end), body.remaining))
        var keysBox: Cursor?, ilst: Cursor?, hdlr: Cursor?
        while body.remaining >= 8 {
            guard let (header, payload) = body.nextBox() else { throw Decline() }
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
        try r.requireEntries(count, of: 8, limit: limits.maxEntries)
        guard count <= UInt64(QuickTimeMovie.maxKeys) else { throw Decline() }
        // Each key's bytes (after its namespace); keys are compared as bytes, which for ASCII is String equality.
        var keys: [Cursor] = []
        keys.reserveCapacity(Int(count))
        for _ in 0..<count {
            let size = Int(try r.readU32())
            guard size >= 8, size - 4 <= r.remaining else { throw Decline() }
            var entry = Cursor(bytes: bytes, position: r.position, end: r.position + size - 4)
            r.position = entry.end
            try entry.skip(4)
            guard entry.isASCII else { throw Decline() }
            keys.append(entry)
        }
        // Indices of the keys that got a value (the full parser keeps the first value per key text).
        var valued: [Int] = []
        valued.reserveCapacity(keys.count)
        while items.remaining >= 8 {
            guard let (header, item) = items.nextBox() else { throw Decline() }
            let index = header.typeCode
            // An item that refers to no key is a warning of the full parser's.
            guard index >= 1, index <= UInt32(keys.count) else { throw Decline() }
            guard item.sequenceIsClean(depth: 5, limits: limits) else { throw Decline() }
            guard let data = item.firstChild(Code.data) else { continue }
            let key = keys[Int(index) - 1]
            guard !valued.contains(where: { keys[$0].equals(key) }) else { continue }
            valued.append(Int(index) - 1)
            // Every first value is read as the full parser reads it (its 8-byte type and locale can fail).
            guard data.remaining >= 8 else { throw Decline() }
            if let probed = Self.probedKeys.firstIndex(where: { key.equals($0) }) {
                let payload = try reader(data)
                if result.isEmpty { result = Array(repeating: nil, count: Self.probedKeys.count) }
                do { result[probed] = try QuickTimeMetadata.parseDataValue(payload: payload) } catch { throw Decline() }
            }
        }
        return result
    }
}
