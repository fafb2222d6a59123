/// QuickTime/MP4 movies: walk the top level by headers, read `moov` wholly (wherever it is, also after
/// `mdat` at the end of the file), and report size, timing, codecs, the Live Photo identifier and the
/// still-image time.
public enum QuickTimeProbe {
    static let contentIdentifierKey = "com.apple.quicktime.content.identifier"
    static let vitalityScoreKey = "com.apple.quicktime.live-photo.vitality-score"
    static let creationDateKey = "com.apple.quicktime.creationdate"
    static let makeKey = "com.apple.quicktime.make"
    static let modelKey = "com.apple.quicktime.model"
    static let locationKey = "com.apple.quicktime.location.ISO6709"
    /// Every metadata key `apply` reads: the probe-only walk keeps the values of these alone.
    static let probedMetadataKeys = [contentIdentifierKey, vitalityScoreKey, creationDateKey, makeKey, modelKey, locationKey]

    public static func probe(_ source: any ByteSource, topLevel: ISOBMFFTopLevel, format: ContainerFormat,
                             limits: ParseLimits, path: ProbePath = .fast) throws(MediaError) -> MediaInfo {
        var info = MediaInfo(format: format)
        info.problems = topLevel.problems
        if path == .fast, let fast = probeMovie(topLevel, source: source, limits: limits) {
            fast.apply(to: &info)
            return info
        }
        // Problems found so far stay with the answer: a file cut before its moov says where it broke.
        guard let structure = topLevel.loadStructure("moov", from: source, limits: limits, context: "quicktime",
                                                     problems: &info.problems) else { return info }
        let movie = QuickTimeMovie.parse(structure, limits: limits)
        info.problems += movie.problems
        apply(movie, to: &info)
        return info
    }

    /// The `moov` box read by the probe-only walk; nil when it cannot be read or the walk declines (the full
    /// parser then reports why).
    static func probeMovie(_ topLevel: ISOBMFFTopLevel, source: any ByteSource, limits: ParseLimits) -> ProbedMovie? {
        guard let box = topLevel.first("moov"), box.range.length <= UInt64(limits.maxStructureBytes) else { return nil }
        // A camera movie's moov ends the file: the top-level walk has read it already.
        if let bytes = topLevel.tailBytes(of: box) { return QuickTimeMovie.parseForProbe(bytes, limits: limits) }
        guard let bytes = try? source.readExactly(at: box.range.offset, count: Int(box.range.length)) else { return nil }   // try?: the full parser says why
        return QuickTimeMovie.parseForProbe(ByteReader(bytes, baseOffset: box.range.offset), limits: limits)
    }

    /// Copies what the movie says into `info`.
    public static func apply(_ movie: QuickTimeMovie, to info: inout MediaInfo) {
        info.duration = movie.durationSeconds
        var videoCodec = info.videoCodec, audioCodec = info.audioCodec
        if let videoIndex = movie.mainVideoTrackIndex {
            let video = movie.tracks[videoIndex]
            let entry = video.sampleEntries.first
            // The sample entry has the stored size; tkhd's is the display size after pixel aspect ratio
            // (1365x768 for a 1024x768 anamorphic track), used only when the entry has none.
            info.pixelWidth = nonZero(entry?.width) ?? nonZero(video.width)
            info.pixelHeight = nonZero(entry?.height) ?? nonZero(video.height)
            if let (degrees, mirrored) = video.displayRotation {
                info.rotation = degrees
                info.mirrored = mirrored
            }
            videoCodec = entry.map { codecName($0.format) }
            if let table = video.sampleTable, table.timedSampleCount > 0 {
                info.frameCount = Int(table.timedSampleCount)
                if let seconds = video.mediaDurationSeconds, seconds > 0 {
                    info.frameRate = Double(table.timedSampleCount) / seconds
                }
            }
        }
        if let audio = movie.tracks.firstIndex(where: \.isAudio), let entry = movie.tracks[audio].sampleEntries.first {
            audioCodec = codecName(entry.format)
        }
        if let still = movie.stillImageTimeTrackIndex, let timescale = movie.timescale {
            info.stillImageTime = movie.tracks[still].presentationTime(ofSample: 0, movieTimescale: timescale)
        }
        let metadata = movie.metadata
        applyMetadata(identifier: metadata.string(contentIdentifierKey), vitalityScore: metadata.number(vitalityScoreKey),
                      creationDate: metadata.string(creationDateKey), make: metadata.string(makeKey),
                      model: metadata.string(modelKey), hasLocation: metadata.values[locationKey] != nil,
                      videoCodec: videoCodec, audioCodec: audioCodec, to: &info)
    }

    /// The metadata part of `apply` (shared with `ProbedMovie.apply`), and the codec names found before it.
    static func applyMetadata(identifier: String?, vitalityScore: Double?, creationDate: String?, make: String?,
                              model: String?, hasLocation: Bool, videoCodec: String?, audioCodec: String?,
                              to info: inout MediaInfo) {
        if let identifier { info.contentIdentifier = identifier }
        info.vitalityScore = vitalityScore
        info.captureDate = creationDate
        info.updateNames { names in
            if identifier != nil { names.contentIdentifierSource = "quicktime-mdta" }
            names.cameraMake = make
            names.cameraModel = model
            names.videoCodec = videoCodec
            names.audioCodec = audioCodec
        }
        info.hasGPS = hasLocation
    }

    static func nonZero(_ v: Int?) -> Int? { v == 0 ? nil : v }

    /// Short codec names from sample entry formats (the FourCC itself when unknown).
    public static func codecName(_ format: String) -> String {
        switch format {
        case "avc1", "avc3": return "h264"
        case "hvc1", "hev1": return "hevc"
        case "av01": return "av1"
        case "vp09": return "vp9"
        case "mp4v": return "mpeg4"
        case "apcn", "apch", "apcs", "apco", "ap4h", "ap4x": return "prores"
        case "jpeg": return "mjpeg"
        case "mp4a": return "aac"
        case "lpcm", "sowt", "twos", "ipcm", "in24", "in32", "fl32", "fl64", "raw ": return "pcm"
        case "alac": return "alac"
        case "ac-3": return "ac3"
        case "ec-3": return "eac3"
        case "Opus": return "opus"
        case "samr": return "amr"
        default: return format.trimmingTrailingSpaces
        }
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
