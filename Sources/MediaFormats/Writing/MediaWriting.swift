/// The writers' public entry points. Each returns a `ByteAssembly` (new bytes + ranges of the input) to be
/// written with `AtomicFileWriter.write(_:from:to:)`; none modifies its input, and bad input throws a
/// `MediaError` saying what is wrong.
public enum MediaWriting {
    // MARK: Live Photos

    /// A QuickTime Live Photo movie made from any QuickTime/MP4 movie with a video track, by stream copy:
    /// content identifier in moov/meta, a still-image-time `mebx` track at `stillTime` seconds (nil =
    /// middle), moov first. The output is `ftyp qt`.
    public static func makeLivePhotoMovie(_ movie: any ByteSource, identifier: String, stillTime: Double? = nil,
                                          limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        try QuickTimeLivePhotoWriter.makeLive(movie: movie, identifier: identifier, stillTime: stillTime, limits: limits)
    }

    /// The still with Apple MakerNote 0x0011 = `identifier`: JPEG, or HEIC (its Exif item edited, or a new
    /// one added).
    public static func setContentIdentifier(still: any ByteSource, identifier: String,
                                            limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        let format = MediaProbe.sniff(try still.read(at: 0, count: 16))
        switch format {
        case .jpeg:
            return try JPEGExifWriter.setContentIdentifier(still, identifier: identifier, limits: limits)
        case .heif:
            return try HEICExifWriter.setContentIdentifier(still, identifier: identifier, limits: limits)
        default:
            throw MediaError.unsupported("a Live Photo still must be a JPEG or HEIC (this file looks like \(format.rawValue))")
        }
    }

    /// A new content identifier: a random (version 4) UUID in upper case, as Apple writes them.
    public static func newContentIdentifier() -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { b in String(b >> 4, radix: 16, uppercase: true) + String(b & 0xF, radix: 16, uppercase: true) }
        return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }.joined(separator: "-")
    }

    // MARK: Motion Photos

    /// A Motion Photo's still alone: no appended movie, Samsung trailer or HEIC `mpvd` box, no Motion Photo
    /// XMP flags. JPEG or HEIC.
    public static func stillWithoutMotion(_ motionPhoto: any ByteSource, limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        if MediaProbe.sniff(try motionPhoto.read(at: 0, count: 16)) == .heif {
            return try HEICMotionPhotoWriter.stillWithoutMotion(motionPhoto, limits: limits)
        }
        return try MotionPhotoWriter.stillWithoutMotion(motionPhoto, limits: limits)
    }

    /// A Google Motion Photo: a JPEG `still` (in memory) + Motion Photo XMP + `movie` appended, or a HEIC
    /// `still` + Motion Photo XMP item + `movie` in a final `mpvd` box. The assembly's source ranges refer
    /// to `movie`.
    public static func motionPhoto(still: [UInt8], movie: any ByteSource, presentationTimestampUs: Int64,
                                   limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        if MediaProbe.sniff(Array(still.prefix(16))) == .heif {
            return try HEICMotionPhotoWriter.motionPhoto(still: still, movie: movie, presentationTimestampUs: presentationTimestampUs, limits: limits)
        }
        return try MotionPhotoWriter.motionPhoto(still: still, movie: movie, presentationTimestampUs: presentationTimestampUs, limits: limits)
    }

    // MARK: sharing without location

    /// The file without its GPS position (JPEG, HEIC, QuickTime/MP4; see `LocationWriter`). A file without
    /// one comes back unchanged.
    public static func withoutLocation(_ source: any ByteSource, limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        try LocationWriter.withoutLocation(source, limits: limits)
    }

    /// The sidecar / XMP packet text without `exif:GPS*` properties.
    public static func xmpWithoutLocation(_ packet: [UInt8]) -> [UInt8] {
        XMPPacketEditor.removingLocation(packet)
    }

    // MARK: lossless rotation (for the triage work)

    /// A JPEG displayed turned or flipped by `change`: Exif Orientation composed (APP1 added if needed).
    public static func rotateJPEG(_ jpeg: any ByteSource, by change: OrientationChange,
                                  limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        let current = try JPEGExifWriter.orientation(jpeg, limits: limits)
        return try JPEGExifWriter.setOrientation(jpeg, change.applied(toExifOrientation: current), limits: limits)
    }

    /// A JPEG with Exif Orientation set to `orientation` (1...8).
    public static func setJPEGOrientation(_ jpeg: any ByteSource, to orientation: Int,
                                          limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        try JPEGExifWriter.setOrientation(jpeg, orientation, limits: limits)
    }

    /// A movie displayed turned or flipped by `change`: every video track's display matrix composed.
    public static func rotateMovie(_ movie: any ByteSource, by change: OrientationChange,
                                   limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        try QuickTimeRotationWriter.rotate(movie, by: change, limits: limits)
    }

    /// Turns or flips a still (JPEG) or a movie (QuickTime/MP4), whichever `source` is.
    public static func rotate(_ source: any ByteSource, by change: OrientationChange,
                              limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        let format = MediaProbe.sniff(try source.read(at: 0, count: 16))
        if format == .jpeg { return try rotateJPEG(source, by: change, limits: limits) }
        if format.isMovie { return try rotateMovie(source, by: change, limits: limits) }
        throw MediaError.unsupported("lossless rotation of \(format.rawValue) files is not supported (JPEG and QuickTime/MP4 only)")
    }
}
