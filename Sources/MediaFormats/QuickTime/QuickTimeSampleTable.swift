/// A track's sample tables (`stbl`). Small tables (stts, first ctts entry) are read; the per-sample ones
/// (stsc, stsz, stco/co64) stay in the structure's bytes and are looked up on demand, so a movie with
/// millions of samples costs no allocation.
public struct QuickTimeSampleTable: Sendable {
    public struct TimeToSample: Sendable, Hashable {
        public var count: UInt32
        public var delta: UInt32
    }

    public var timeToSample: [TimeToSample] = []
    /// Composition offset of the first sample (ctts), when the table has one.
    public var firstCompositionOffset: Int64?
    /// stsz sample count.
    public var sampleCount: UInt64 = 0
    /// Samples counted in stts.
    public var timedSampleCount: UInt64 = 0
    /// Sum of stts durations, in the media timescale.
    public var totalDuration: UInt64 = 0
    /// The boxes, for locating samples in `structure`.
    public var sampleToChunk: ISOBox?
    public var sampleSizes: ISOBox?
    public var chunkOffsets: ISOBox?
    let structure: ISOStructure

    static func parse(_ stbl: ISOBox, in structure: ISOStructure, limits: ParseLimits) throws(MediaError) -> QuickTimeSampleTable {
        var table = QuickTimeSampleTable(structure: structure)
        if let stts = stbl.child("stts") {
            var r = try structure.fullBoxPayload(of: stts).reader
            let count = UInt64(try r.readU32())
            try r.requireEntries(count, of: 8, limit: limits.maxSamples, what: "stts")
            for _ in 0..<count {
                let entry = TimeToSample(count: try r.readU32(), delta: try r.readU32())
                table.timeToSample.append(entry)
                table.timedSampleCount += UInt64(entry.count)
                // Each product fits in 64 bits; the sum saturates instead of trapping.
                let (sum, overflow) = table.totalDuration.addingReportingOverflow(UInt64(entry.count) * UInt64(entry.delta))
                table.totalDuration = overflow ? .max : sum
            }
            guard table.timedSampleCount <= UInt64(limits.maxSamples) else {
                throw MediaError.limitExceeded("stts: \(table.timedSampleCount) samples (limit \(limits.maxSamples))")
            }
        }
        if let ctts = stbl.child("ctts") {
            let (version, _, reader) = try structure.fullBoxPayload(of: ctts)
            var r = reader
            if try r.readU32() > 0 {
                _ = try r.readU32()
                table.firstCompositionOffset = version == 0 ? Int64(try r.readU32()) : Int64(try r.readI32())
            }
        }
        table.sampleToChunk = stbl.child("stsc")
        table.chunkOffsets = stbl.child("stco") ?? stbl.child("co64")
        if let stsz = stbl.child("stsz") {
            table.sampleSizes = stsz
            var r = try structure.fullBoxPayload(of: stsz).reader
            let constantSize = try r.readU32()
            let count = UInt64(try r.readU32())
            try r.requireEntries(count, of: constantSize == 0 ? 4 : 0, limit: limits.maxSamples, what: "stsz")
            table.sampleCount = count
        }
        return table
    }

    /// Decode time (media timescale) of sample `index`, from stts.
    public func decodeTime(ofSample index: UInt64) -> UInt64? {
        var time: UInt64 = 0
        var remaining = index
        for entry in timeToSample {
            if remaining < UInt64(entry.count) {
                let (t, overflow) = time.addingReportingOverflow(remaining * UInt64(entry.delta))
                return overflow ? nil : t
            }
            remaining -= UInt64(entry.count)
            let (t, overflow) = time.addingReportingOverflow(UInt64(entry.count) * UInt64(entry.delta))
            guard !overflow else { return nil }
            time = t
        }
        return nil
    }

    /// Where sample `index` (0-based) lies, in the offsets of the source the movie was read from.
    public func location(ofSample index: UInt64) throws(MediaError) -> ByteRange {
        guard let stsc = sampleToChunk, let stsz = sampleSizes, let chunks = chunkOffsets else {
            throw MediaError.invalid("sample table lacks stsc, stsz or stco/co64")
        }
        guard index < sampleCount else { throw MediaError.invalid("sample \(index) of \(sampleCount)") }
        // Chunk offsets.
        var co = try structure.fullBoxPayload(of: chunks).reader
        let chunkCount = UInt64(try co.readU32())
        let offsetSize = chunks.type == "co64" ? 8 : 4
        try co.requireEntries(chunkCount, of: offsetSize, limit: Int.max, what: chunks.type)
        // Sample to chunk: runs of chunks with the same samples-per-chunk.
        var sc = try structure.fullBoxPayload(of: stsc).reader
        let runCount = UInt64(try sc.readU32())
        try sc.requireEntries(runCount, of: 12, limit: Int.max, what: "stsc")
        var found: (chunk: UInt64, firstSample: UInt64)?
        var previous: (first: UInt64, perChunk: UInt64)?
        var sampleBase: UInt64 = 0
        // One pass over the runs plus a sentinel run starting after the last chunk.
        for i in 0...runCount {
            let first = i < runCount ? UInt64(try sc.readU32()) : chunkCount + 1
            let perChunk = i < runCount ? UInt64(try sc.readU32()) : 0
            if i < runCount { try sc.skip(4) }
            if let run = previous {
                guard run.first >= 1, first >= run.first else { throw MediaError.invalid("stsc chunk numbers go backwards") }
                // Both factors are below 2^32, so the product fits in 64 bits.
                let samplesInRun = (first - run.first) * run.perChunk
                if index - sampleBase < samplesInRun {
                    let chunkInRun = (index - sampleBase) / run.perChunk
                    found = (run.first + chunkInRun, sampleBase + chunkInRun * run.perChunk)
                    break
                }
                sampleBase += samplesInRun
            }
            previous = (first, perChunk)
        }
        guard let (chunk, firstSample) = found, chunk >= 1, chunk <= chunkCount else {
            throw MediaError.invalid("sample \(index) is not in any chunk")
        }
        try co.skip(Int(chunk - 1) * offsetSize)
        var offset = try co.readUInt(size: offsetSize)
        // Sample sizes: the samples before it in its chunk move the offset.
        var sz = try structure.fullBoxPayload(of: stsz).reader
        let constantSize = UInt64(try sz.readU32())
        _ = try sz.readU32()
        let size: UInt64
        if constantSize != 0 {
            offset = offset &+ (index - firstSample) * constantSize
            size = constantSize
        } else {
            try sz.skip(Int(firstSample) * 4)
            for _ in firstSample..<index { offset = offset &+ UInt64(try sz.readU32()) }
            size = UInt64(try sz.readU32())
        }
        return ByteRange(offset: offset, length: size)
    }
}
