/// ISO BMFF files: HEIF/HEIC stills and QuickTime/MP4 movies.
/// (Stub: implemented by the ISO BMFF work.)
public enum ISOBMFFProbe {
    public static func probe(_ source: any ByteSource, format: ContainerFormat, limits: ParseLimits) throws(MediaError) -> MediaInfo {
        MediaInfo(format: format)
    }
}
