/// JPEG stills: segments, Exif (APP1), XMP (APP1, standard and extended), Motion Photo trailers.
/// (Stub: implemented by the JPEG/TIFF/XMP work.)
public enum JPEGProbe {
    public static func probe(_ source: any ByteSource, limits: ParseLimits) throws(MediaError) -> MediaInfo {
        MediaInfo(format: .jpeg)
    }
}
