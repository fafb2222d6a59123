/// `elst`: how a track's media timeline maps onto the movie's.
public struct QuickTimeEditList: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        /// In the movie timescale.
        public var segmentDuration: UInt64
        /// In the media timescale; -1 is an empty edit (nothing plays for `segmentDuration`).
        public var mediaTime: Int64
        /// 16.16 media rate as a number (1 = normal speed).
        public var rate: Double
    }

    public var entries: [Entry]

    static func parse(_ box: ISOBox, in structure: ISOStructure, limits: ParseLimits) throws(MediaError) -> QuickTimeEditList {
        try parse(payload: structure.payload(of: box), limits: limits)
    }

    /// An `elst` from its payload (version and flags first).
    static func parse(payload: ByteReader, limits: ParseLimits) throws(MediaError) -> QuickTimeEditList {
        var r = payload
        let version = try r.readU8()
        try r.skip(3)
        let count = UInt64(try r.readU32())
        try r.requireEntries(count, of: version == 1 ? 20 : 12, limit: limits.maxEntries, what: "elst")
        var entries: [Entry] = []
        for _ in 0..<count {
            let duration = version == 1 ? try r.readU64() : UInt64(try r.readU32())
            let mediaTime = version == 1 ? try r.readI64() : Int64(try r.readI32())
            let rate = Double(try r.readI32()) / 65536
            entries.append(Entry(segmentDuration: duration, mediaTime: mediaTime, rate: rate))
        }
        return QuickTimeEditList(entries: entries)
    }

    /// Movie time (seconds) at which media time `t` is presented: empty edits shift everything after them;
    /// `t` must fall inside a non-empty edit (a 1-tick edit still holds the sample starting at its media time).
    public func movieTime(ofMediaTime t: Int64, mediaTimescale: UInt32, movieTimescale: UInt32) -> Double? {
        guard mediaTimescale > 0, movieTimescale > 0 else { return nil }
        var movieStart = 0.0
        for entry in entries {
            let segment = Double(entry.segmentDuration) / Double(movieTimescale)
            if entry.mediaTime >= 0 {
                let rate = entry.rate > 0 ? entry.rate : 1
                let offset = (Double(t) - Double(entry.mediaTime)) / Double(mediaTimescale)
                if t >= entry.mediaTime && (offset / rate < segment || entry.rate == 0) {
                    return movieStart + offset / rate
                }
            }
            movieStart += segment
        }
        return nil
    }
}
