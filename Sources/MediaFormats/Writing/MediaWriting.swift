/// The writers' public entry points. Each returns a `ByteAssembly` (new bytes + ranges of the input) to be
/// written with `AtomicFileWriter.write(_:from:to:)`; none modifies its input, and bad input throws a
/// `MediaError` saying what is wrong.
public enum MediaWriting {
    /// A QuickTime Live Photo movie made from any QuickTime/MP4 movie with a video track, by stream copy:
    /// content identifier in moov/meta, a still-image-time `mebx` track at `stillTime` seconds (nil =
    /// middle), moov first. The output is `ftyp qt`.
    public static func makeLivePhotoMovie(_ movie: any ByteSource, identifier: String, stillTime: Double? = nil,
                                          limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        try QuickTimeLivePhotoWriter.makeLive(movie: movie, identifier: identifier, stillTime: stillTime, limits: limits)
    }
}
