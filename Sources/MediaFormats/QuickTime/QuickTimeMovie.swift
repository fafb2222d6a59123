/// A QuickTime/MP4 movie's `moov`, as data: header, tracks, `mdta` metadata and the tree for a future writer.
public struct QuickTimeMovie: Sendable {
    public var structure: ISOStructure
    public var timescale: UInt32?
    /// mvhd duration, in `timescale` units (after edit lists).
    public var duration: UInt64?
    public var tracks: [QuickTimeTrack] = []
    public var metadata = QuickTimeMetadata()
    public var problems: [ParseProblem] = []

    public static let stillImageTimeKey = "com.apple.quicktime.still-image-time"

    public var durationSeconds: Double? {
        guard let timescale, timescale > 0, let duration else { return nil }
        return Double(duration) / Double(timescale)
    }

    /// The main video track: the enabled video track with the most samples (a Motion Photo's MP4 can carry
    /// a second, 4-frame high-resolution track), else any video track.
    public var mainVideoTrack: QuickTimeTrack? { mainVideoTrackIndex.map { tracks[$0] } }

    /// Where `mainVideoTrack` is in `tracks`. Indices, not filtered copies: a track is a large value (boxes,
    /// tables, arrays) and the probe asks this of every movie. The first of equally long tracks wins, as
    /// `max(by:)` keeps it.
    var mainVideoTrackIndex: Int? {
        let anyEnabled = tracks.contains { $0.isVideo && $0.enabled }
        var best: (index: Int, samples: UInt64)?
        for (index, track) in tracks.enumerated() where track.isVideo && (track.enabled || !anyEnabled) {
            let samples = track.sampleTable?.timedSampleCount ?? 0
            if best == nil || best!.samples < samples { best = (index, samples) }
        }
        return best?.index
    }

    /// The timed-metadata track whose `mebx` key table holds `com.apple.quicktime.still-image-time`.
    public var stillImageTimeTrack: QuickTimeTrack? { stillImageTimeTrackIndex.map { tracks[$0] } }

    var stillImageTimeTrackIndex: Int? {
        tracks.firstIndex { track in
            track.sampleEntries.contains { $0.metadataKeys.values.contains(Self.stillImageTimeKey) }
        }
    }

    /// Parses a loaded `moov` structure.
    public static func parse(_ moov: ISOStructure, limits: ParseLimits) -> QuickTimeMovie {
        var movie = QuickTimeMovie(structure: moov)
        if let mvhd = moov.root.child("mvhd") {
            do {
                let (version, _, reader) = try moov.fullBoxPayload(of: mvhd)
                var r = reader
                try r.skip(version == 1 ? 16 : 8)
                movie.timescale = try r.readU32()
                movie.duration = version == 1 ? try r.readU64() : UInt64(try r.readU32())
            } catch {
                movie.problems.append(ParseProblem(.warning, "quicktime/mvhd", error.description))
            }
        } else {
            movie.problems.append(ParseProblem(.warning, "quicktime/moov", "no mvhd"))
        }
        for (i, trak) in moov.root.children("trak").enumerated() {
            movie.tracks.append(QuickTimeTrack.parse(trak, in: moov, limits: limits, context: "quicktime/moov/trak[\(i + 1)]",
                                                     problems: &movie.problems))
        }
        if let meta = moov.root.child("meta") {
            do {
                movie.metadata = try QuickTimeMetadata.parse(meta, in: moov, limits: limits, problems: &movie.problems)
            } catch {
                movie.problems.append(ParseProblem(.warning, "quicktime/moov/meta", error.description))
            }
        }
        return movie
    }
}
