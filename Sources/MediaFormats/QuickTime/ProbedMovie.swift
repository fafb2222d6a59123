/// What `QuickTimeProbe.apply` reads of a movie, as the probe-only `moov` walk (`QuickTimeMovie.parseForProbe`)
/// finds it: per track a few numbers, no boxes, tables, matrices or sample-entry lists; the probed metadata
/// values by key index, not in a dictionary. Building a `QuickTimeMovie` (tracks of boxes, arrays and
/// strings) and taking it apart again was most of what was left of a movie's probe CPU (issue 17, item 4).
///
/// `apply` gives the `MediaInfo` that `QuickTimeProbe.apply` gives for the full parser's movie: it follows it
/// line by line, and shares its codec names, rotation and metadata code (`ProbeMovieFastPathTests`).
struct ProbedMovie {
    struct SampleEntry {
        /// The entry's four-character code (`avc1`, `lpcm`, `mebx`...).
        var format: UInt32
        var width: Int?
        var height: Int?
    }

    struct Track {
        /// The handler is `vide` / `soun`.
        var isVideo = false
        var isAudio = false
        /// tkhd flags bit 0.
        var enabled = true
        /// tkhd width and height (rounded 16.16).
        var width: Int?
        var height: Int?
        /// From the tkhd matrix, as `QuickTimeTrack.displayRotation`.
        var rotation: (degrees: Int, mirrored: Bool)?
        var mediaTimescale: UInt32?
        var mediaDuration: UInt64?
        /// The first sample entry.
        var firstEntry: SampleEntry?
        /// A `mebx` entry's key table names `com.apple.quicktime.still-image-time`.
        var hasStillImageTimeKey = false
        /// The track has a sample table (`stbl`), with these stts totals.
        var hasSampleTable = false
        var timedSampleCount: UInt64 = 0
        var totalDuration: UInt64 = 0
        /// Some stts entry has samples (sample 0 has a decode time, 0).
        var hasTimedSample = false
        var firstCompositionOffset: Int64?
        /// The `elst` payload (indices in the moov's bytes), checked; read only for the still-image-time track.
        var editListRange: Range<Int>?
        /// The edit list, read for the still-image-time track only.
        var editList: QuickTimeEditList?

        /// `QuickTimeTrack.mediaDurationSeconds`.
        var mediaDurationSeconds: Double? {
            guard let scale = mediaTimescale, scale > 0 else { return nil }
            if hasSampleTable, totalDuration > 0 { return Double(totalDuration) / Double(scale) }
            guard let duration = mediaDuration, duration > 0 else { return nil }
            return Double(duration) / Double(scale)
        }

        /// `QuickTimeTrack.presentationTime(ofSample: 0, movieTimescale:)`.
        func firstSamplePresentationTime(movieTimescale: UInt32) -> Double? {
            guard let scale = mediaTimescale, scale > 0, hasSampleTable, hasTimedSample else { return nil }
            // Sample 0 decodes at 0; its composition offset cannot overflow from there.
            let mediaTime = firstCompositionOffset ?? 0
            guard let edits = editList, !edits.entries.isEmpty else { return Double(mediaTime) / Double(scale) }
            return edits.movieTime(ofMediaTime: mediaTime, mediaTimescale: scale, movieTimescale: movieTimescale)
        }
    }

    var timescale: UInt32?
    var duration: UInt64?
    var tracks: [Track] = []
    /// The values of `QuickTimeProbe.probedMetadataKeys`, in that order (nil: no value).
    var metadata: [QuickTimeMetadata.Value?] = []

    /// `QuickTimeMovie.mainVideoTrackIndex`.
    var mainVideoTrackIndex: Int? {
        let anyEnabled = tracks.contains { $0.isVideo && $0.enabled }
        var best: (index: Int, samples: UInt64)?
        for index in tracks.indices where tracks[index].isVideo && (tracks[index].enabled || !anyEnabled) {
            let samples = tracks[index].hasSampleTable ? tracks[index].timedSampleCount : 0
            if best.map({ $0.samples < samples }) ?? true { best = (index, samples) }
        }
        return best?.index
    }

    /// The first track whose sample entries name the still-image time (`QuickTimeMovie.stillImageTimeTrackIndex`).
    var stillImageTimeTrackIndex: Int? { tracks.firstIndex { $0.hasStillImageTimeKey } }

    private func value(_ key: String) -> QuickTimeMetadata.Value? {
        guard let index = QuickTimeProbe.probedMetadataKeys.firstIndex(of: key), index < metadata.count else { return nil }
        return metadata[index]
    }

    /// `QuickTimeProbe.apply` for this movie.
    func apply(to info: inout MediaInfo) {
        if let timescale, timescale > 0, let duration { info.duration = Double(duration) / Double(timescale) } else { info.duration = nil }
        var videoCodec = info.videoCodec, audioCodec = info.audioCodec
        if let videoIndex = mainVideoTrackIndex {
            let video = tracks[videoIndex]
            let entry = video.firstEntry
            info.pixelWidth = QuickTimeProbe.nonZero(entry?.width) ?? QuickTimeProbe.nonZero(video.width)
            info.pixelHeight = QuickTimeProbe.nonZero(entry?.height) ?? QuickTimeProbe.nonZero(video.height)
            if let (degrees, mirrored) = video.rotation {
                info.rotation = degrees
                info.mirrored = mirrored
            }
            videoCodec = entry.map { QuickTimeProbe.codecName(fourCC($0.format)) }
            if video.hasSampleTable, video.timedSampleCount > 0 {
                info.frameCount = Int(video.timedSampleCount)
                if let seconds = video.mediaDurationSeconds, seconds > 0 {
                    info.frameRate = Double(video.timedSampleCount) / seconds
                }
            }
        }
        if let audio = tracks.firstIndex(where: \.isAudio), let entry = tracks[audio].firstEntry {
            audioCodec = QuickTimeProbe.codecName(fourCC(entry.format))
        }
        if let still = stillImageTimeTrackIndex, let timescale {
            info.stillImageTime = tracks[still].firstSamplePresentationTime(movieTimescale: timescale)
        }
        QuickTimeProbe.applyMetadata(identifier: value(QuickTimeProbe.contentIdentifierKey)?.string,
                                     vitalityScore: value(QuickTimeProbe.vitalityScoreKey)?.number,
                                     creationDate: value(QuickTimeProbe.creationDateKey)?.string,
                                     make: value(QuickTimeProbe.makeKey)?.string,
                                     model: value(QuickTimeProbe.modelKey)?.string,
                                     hasLocation: value(QuickTimeProbe.locationKey) != nil,
                                     videoCodec: videoCodec, audioCodec: audioCodec, to: &info)
    }
}
