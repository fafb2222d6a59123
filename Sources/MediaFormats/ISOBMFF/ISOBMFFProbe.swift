/// ISO BMFF files: HEIF/HEIC stills and QuickTime/MP4 movies.
///
/// The top level is walked by reading box headers only; then only `meta` (stills) or `moov` (movies) is
/// read wholly, bounded by `ParseLimits.maxStructureBytes`.
public enum ISOBMFFProbe {
    public static func probe(_ source: any ByteSource, format: ContainerFormat, limits: ParseLimits,
                             path: ProbePath = .fast) throws(MediaError) -> MediaInfo {
        let topLevel = ISOBMFFTopLevel.scan(source, limits: limits)
        switch format {
        case .heif:
            // An image sequence (`msf1`, `heis`) without a `pict` meta is a movie in HEIF clothing.
            if topLevel.first("meta") == nil, topLevel.first("moov") != nil {
                return try QuickTimeProbe.probe(source, topLevel: topLevel, format: format, limits: limits, path: path)
            }
            return try HEIFProbe.probe(source, topLevel: topLevel, format: format, limits: limits, path: path)
        default:
            // An image whose major brand the sniffer does not know (e.g. `MiHE`) still has its meta.
            if topLevel.first("moov") == nil, topLevel.first("meta") != nil {
                return try HEIFProbe.probe(source, topLevel: topLevel, format: .heif, limits: limits, path: path)
            }
            return try QuickTimeProbe.probe(source, topLevel: topLevel, format: format, limits: limits, path: path)
        }
    }
}
