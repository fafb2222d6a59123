/// Turns any QuickTime/MP4 movie into a Live Photo movie by stream copy (no sample is re-encoded):
/// `ftyp qt`, moov first, `moov/meta` (mdta) holding `com.apple.quicktime.content.identifier`, and a
/// timed-metadata track whose single `mebx` sample (`com.apple.quicktime.still-image-time`, int8 0xFF)
/// marks the still's moment, laid out as the iPhone camera does (see docs/LIVE-PHOTO-STRUCTURE.md).
enum QuickTimeLivePhotoWriter {
    static let contentIdentifierKey = "com.apple.quicktime.content.identifier"
    static let stillImageTimeKey = "com.apple.quicktime.still-image-time"

    /// - Parameter stillTime: seconds from the start of the movie; nil = the middle.
    static func makeLive(movie source: any ByteSource, identifier: String, stillTime: Double?,
                         limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        var layout = try QuickTimeMovieLayout(source, limits: limits)
        let video = try layout.videoTrack()
        guard let videoID = QuickTimeMovieLayout.trackID(of: video) else { throw MediaError.invalid("the video track has no tkhd") }
        let timescale = layout.movieTimescale
        guard timescale > 0 else { throw MediaError.invalid("mvhd time scale is 0") }
        let duration = layout.movieDuration
        guard duration > 0 else { throw MediaError.invalid("the movie has no duration") }

        let ticks: UInt64
        if let stillTime {
            guard stillTime.isFinite, stillTime >= 0 else { throw MediaError.invalid("still time \(stillTime) s is not a time") }
            let seconds = Double(duration) / Double(timescale)
            guard stillTime < seconds else {
                throw MediaError.invalid("still time \(stillTime) s is past the end of the \(seconds) s movie")
            }
            ticks = UInt64((stillTime * Double(timescale)).rounded())
        } else {
            // The middle of the video track (other tracks, e.g. Google's mett, may run longer).
            let videoDuration = QuickTimeMovieLayout.trackDuration(of: video).flatMap { $0 > 0 && $0 <= duration ? $0 : nil }
            ticks = (videoDuration ?? duration) / 2
        }

        // Drop an older still-image-time track: the movie gets exactly one, at the new time.
        layout.moov.children?.removeAll { $0.type == "trak" && isStillImageTimeTrack($0) }
        try setContentIdentifier(identifier, in: &layout.moov)

        var header = MovieHeader(layout.moov.child("mvhd")?.payload ?? [])
        let trackID = max(header.nextTrackID, (layout.tracks.compactMap { QuickTimeMovieLayout.trackID(of: $0) }.max() ?? 0) + 1)
        header.setNextTrackID(trackID + 1)
        if header.duration < ticks + 1 { header.setDuration(ticks + 1) }
        _ = try layout.moov.modify("mvhd") { $0.payload = header.bytes }

        // The sample lives in a new mdat right after moov; its virtual offset is source.size + 8.
        let sample: [UInt8] = BigEndian.u32(9) + BigEndian.u32(1) + [0xFF]
        let mdat = BigEndian.u32(UInt32(8 + sample.count)) + Array("mdat".utf8) + sample
        let track = stillImageTimeTrack(trackID: trackID, describes: videoID, timescale: timescale,
                                        stillTicks: ticks, creationTime: header.creationTime,
                                        sampleOffset: source.size + 8)
        layout.moov.children?.append(track)
        // Keep moov/meta last, as the camera does (the track list first).
        if let metaIndex = layout.moov.children?.firstIndex(where: { $0.type == "meta" }),
           let meta = layout.moov.children?.remove(at: metaIndex) {
            layout.moov.children?.append(meta)
        }
        let ftyp = BigEndian.u32(20) + Array("ftypqt  ".utf8) + BigEndian.u32(0) + Array("qt  ".utf8)
        return try layout.assemble(ftyp: ftyp, mediaData: mdat)
    }

    static func isStillImageTimeTrack(_ trak: EditableBox) -> Bool {
        guard QuickTimeMovieLayout.sampleEntryType(of: trak) == "mebx",
              let stsd = trak.descendant("mdia/minf/stbl/stsd")?.payload else { return false }
        return stsd.firstIndex(of: Array(stillImageTimeKey.utf8)) != nil
    }

    // MARK: moov/meta

    /// Sets the mdta key in moov/meta, creating meta/hdlr/keys/ilst as needed; other keys are kept.
    static func setContentIdentifier(_ identifier: String, in moov: inout EditableBox) throws(MediaError) {
        var metadata = try QuickTimeMetadataEditor(moov.child("meta"))
        metadata.set(contentIdentifierKey, utf8: identifier)
        let meta = metadata.box()
        if let index = moov.children?.firstIndex(where: { $0.type == "meta" }) {
            moov.children?[index] = meta
        } else {
            moov.children?.append(meta)
        }
    }

    // MARK: the timed-metadata track

    /// `mebx` sample entry with one key, byte for byte as in the camera's train.mov.
    static let stillImageTimeSampleEntry: [UInt8] = {
        let key = Array(stillImageTimeKey.utf8)
        let keyd = BigEndian.u32(UInt32(12 + key.count)) + Array("keydmdta".utf8) + key
        let dtyp = BigEndian.u32(16) + Array("dtyp".utf8) + BigEndian.u32(0) + BigEndian.u32(65) // well-known type 65: int8
        let entry = BigEndian.u32(UInt32(8 + keyd.count + dtyp.count)) + BigEndian.u32(1) + keyd + dtyp // local key id 1
        let keys = BigEndian.u32(UInt32(8 + entry.count)) + Array("keys".utf8) + entry
        let body: [UInt8] = [0, 0, 0, 0, 0, 0] + BigEndian.u16(1) + keys // reserved, data_reference_index 1
        return BigEndian.u32(UInt32(8 + body.count)) + Array("mebx".utf8) + body
    }()

    static let identityMatrix: [UInt8] = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x4000_0000].flatMap { BigEndian.u32($0) }

    static func stillImageTimeTrack(trackID: UInt32, describes videoID: UInt32, timescale: UInt32,
                                    stillTicks: UInt64, creationTime: UInt64, sampleOffset: UInt64) -> EditableBox {
        let time = BigEndian.u32(UInt32(truncatingIfNeeded: creationTime))
        let trackDuration = BigEndian.u32(UInt32(clamping: stillTicks + 1))
        // Flags 0xF (enabled, in movie, in preview, in poster) as the camera writes them.
        let tkhd: [UInt8] = [0, 0, 0, 0x0F] + time + time + BigEndian.u32(trackID) + BigEndian.u32(0) + trackDuration
            + [UInt8](repeating: 0, count: 8) + BigEndian.u16(0) + BigEndian.u16(0) + BigEndian.u16(0) + BigEndian.u16(0)
            + identityMatrix + BigEndian.u32(0) + BigEndian.u32(0)
        // An empty edit up to the still time, then the one-tick sample.
        var edits: [[UInt8]] = []
        if stillTicks > 0 { edits.append(BigEndian.u32(UInt32(clamping: stillTicks)) + BigEndian.i32(-1) + BigEndian.u32(0x10000)) }
        edits.append(BigEndian.u32(1) + BigEndian.u32(0) + BigEndian.u32(0x10000))
        let elst = EditableBox("elst", payload: BigEndian.u32(0) + BigEndian.u32(UInt32(edits.count)) + edits.flatMap { $0 })
        let tref = EditableBox("tref", children: [EditableBox("cdsc", payload: BigEndian.u32(videoID))])
        let mdhd: [UInt8] = BigEndian.u32(0) + time + time + BigEndian.u32(timescale) + BigEndian.u32(1) + BigEndian.u16(0x55C4) + BigEndian.u16(0)
        let mediaHandler = handler(component: "mhlr", subtype: "meta", flags: 1, name: "Core Media Metadata")
        let dataHandler = handler(component: "dhlr", subtype: "alis", flags: 0, name: "Core Media Data Handler")
        let gmin: [UInt8] = BigEndian.u32(0) + BigEndian.u16(0x40) + BigEndian.u16(0x8000) + BigEndian.u16(0x8000)
            + BigEndian.u16(0x8000) + BigEndian.u16(0) + BigEndian.u16(0)
        let dref: [UInt8] = BigEndian.u32(0) + BigEndian.u32(1) + BigEndian.u32(12) + Array("alis".utf8) + BigEndian.u32(1)
        let stbl = EditableBox("stbl", children: [
            EditableBox("stsd", payload: BigEndian.u32(0) + BigEndian.u32(1) + stillImageTimeSampleEntry),
            EditableBox("stts", payload: BigEndian.u32(0) + BigEndian.u32(1) + BigEndian.u32(1) + BigEndian.u32(1)),
            EditableBox("stsc", payload: BigEndian.u32(0) + BigEndian.u32(1) + BigEndian.u32(1) + BigEndian.u32(1) + BigEndian.u32(1)),
            EditableBox("stsz", payload: BigEndian.u32(0) + BigEndian.u32(9) + BigEndian.u32(1)),
            EditableBox("stco", payload: ChunkOffsets.payload([sampleOffset], width: 4)),
        ])
        let minf = EditableBox("minf", children: [
            EditableBox("gmhd", payload: EditableBox("gmin", payload: gmin).serialized()),
            EditableBox("hdlr", payload: dataHandler),
            EditableBox("dinf", payload: EditableBox("dref", payload: dref).serialized()),
            stbl,
        ])
        let mdia = EditableBox("mdia", children: [EditableBox("mdhd", payload: mdhd), EditableBox("hdlr", payload: mediaHandler), minf])
        return EditableBox("trak", children: [
            EditableBox("tkhd", payload: tkhd), EditableBox("edts", children: [elst]), tref, mdia,
        ])
    }

    /// A QuickTime `hdlr` payload with a Pascal-string name.
    static func handler(component: String, subtype: String, flags: UInt32, name: String) -> [UInt8] {
        let nameBytes = Array(name.utf8.prefix(255))
        return BigEndian.u32(0) + Array(component.utf8) + Array(subtype.utf8) + Array("appl".utf8)
            + BigEndian.u32(flags) + BigEndian.u32(0) + [UInt8(nameBytes.count)] + nameBytes
    }
}
