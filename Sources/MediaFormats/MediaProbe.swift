/// Which parse a probe takes. `.fast` reads what the probe needs straight from the bytes where a probe-only
/// walk exists and proves the full parser would report nothing; otherwise (and always with `.full`) the full
/// parsers run. Both give the same `MediaInfo` (the differential tests hold them to it).
public enum ProbePath: Sendable {
    case fast, full
}

/// Entry point of the media core: sniff the container, dispatch to its reader, never throw for bad content.
public enum MediaProbe {
    /// The magic numbers `sniff` compares, made once: it runs for every probed file, and arrays made per call
    /// (two per comparison) were a dozen allocations a file.
    private enum Magic {
        static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
        static let jpegSOI: [UInt8] = [0xFF, 0xD8]
        static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        static let gif: [UInt8] = Array("GIF8".utf8)
        static let riff: [UInt8] = Array("RIFF".utf8)
        static let webp: [UInt8] = Array("WEBP".utf8)
        static let tiffLittle: [UInt8] = [0x49, 0x49, 0x2A, 0x00]
        static let tiffBig: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A]
        static let bmp: [UInt8] = Array("BM".utf8)
        static let ftyp = fourCCCode("ftyp")
        static let heifBrands: [UInt32] = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis"]
            .map { $0.utf8.reduce(0) { $0 << 8 | UInt32($1) } }
        static let quickTimeBrand = fourCCCode("qt  ")
        /// Old QuickTime files start with moov/mdat/wide/free/skip without an ftyp.
        static let quickTimeTopLevel: [UInt32] = ["moov", "mdat", "wide", "free", "skip", "pnot"]
            .map { $0.utf8.reduce(0) { $0 << 8 | UInt32($1) } }
    }

    /// Container format from the first bytes (at least 12 are needed for ISO BMFF; no more than 16 are read).
    public static func sniff(_ head: [UInt8]) -> ContainerFormat {
        func starts(_ p: [UInt8], at: Int = 0) -> Bool {
            head.count >= at + p.count && head[at..<at + p.count].elementsEqual(p)
        }
        func code(at i: Int) -> UInt32 { head[i..<i + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        // SOI then a marker, or SOI then stray bytes before the first marker: libjpeg (and ImageMagick) read
        // past those with a warning, and so does the segment walk, so the file is a JPEG that says so.
        if starts(Magic.jpeg) || (starts(Magic.jpegSOI) && head.count >= 3) { return .jpeg }
        if starts(Magic.png) { return .png }
        if starts(Magic.gif) { return .gif }
        if starts(Magic.riff) && starts(Magic.webp, at: 8) { return .webp }
        if starts(Magic.tiffLittle) || starts(Magic.tiffBig) { return .tiff }
        if starts(Magic.bmp) && head.count >= 14 { return .bmp }
        if head.count >= 12 {
            // Four-character codes compared as numbers: the same as comparing their ASCII text.
            let type = code(at: 4)
            if type == Magic.ftyp {
                let brand = code(at: 8)
                if Magic.heifBrands.contains(brand) { return .heif }
                return brand == Magic.quickTimeBrand ? .quickTime : .mp4
            }
            if Magic.quickTimeTopLevel.contains(type) { return .quickTime }
        }
        return .unknown
    }

    /// Probes a file; I/O errors opening it are thrown, content problems are in `problems`.
    public static func probe(path: String, limits: ParseLimits = .default, counter: ReadCounter? = nil) throws(MediaError) -> MediaInfo {
        let source = try FileByteSource(path: path, counter: counter)
        return probe(source, limits: limits.forProbing(path: path))
    }

    /// Probes any byte source. Never throws: a file that cannot be parsed is `.unknown` with a problem.
    public static func probe(_ original: any ByteSource, limits: ParseLimits = .default, path: ProbePath = .fast) -> MediaInfo {
        let head: [UInt8]
        let source: any ByteSource
        do {
            // One read serves the sniff and the parser's header read: a still costs one small read (plus a
            // tiny footer read for trailers), not three. The sniff and the guess look at the head itself
            // (the sniff at its first 16 bytes at most): no copies of it per file.
            let prefetched = try PrefetchedByteSource(base: original, headBytes: limits.headerProbeBytes)
            head = prefetched.head
            source = prefetched
        } catch {
            var info = MediaInfo(format: .unknown)
            info.problems.append(ParseProblem(.error, "file", error.description))
            return info
        }
        let format = sniff(head)
        do {
            switch format {
            case .jpeg:
                return try JPEGProbe.probe(source, limits: limits, path: path)
            case .heif, .quickTime, .mp4:
                return try ISOBMFFProbe.probe(source, format: format, limits: limits, path: path)
            case .png, .gif, .webp, .tiff, .bmp:
                return try SimpleImageProbe.probe(source, format: format, limits: limits)
            case .unknown:
                var info = MediaInfo(format: .unknown)
                // Said in the user's terms (issue 15.5): what the file seems to be instead.
                let guess = ContentGuess.guess(head)   // it looks at `sniffBytes` at most
                info.problems.append(ParseProblem(.error, "file", "not a picture: \(guess.plainDescription)"))
                return info
            }
        } catch {
            var info = MediaInfo(format: format)
            info.problems.append(ParseProblem(.error, format.rawValue, error.description))
            return info
        }
    }
}

extension ParseLimits {
    /// Movie name extensions, lowercased, dot included.
    static let movieExtensions: [[UInt8]] = [".mov", ".mp4", ".m4v", ".qt", ".3gp"].map { Array($0.utf8) }
    /// The same as (bytes packed big-endian, length), for a name's last bytes packed the same way.
    static let movieExtensionCodes: [(code: UInt64, length: Int)] = movieExtensions.map { extensionBytes in
        (extensionBytes.reduce(0) { $0 << 8 | UInt64($1) }, extensionBytes.count)
    }

    /// What a file named as a movie prefetches: the sniff's bytes (`ContentGuess.sniffBytes`, so a misnamed
    /// file is described the same), which hold a camera movie's `ftyp`, `wide` and `mdat` headers.
    static let movieHeadBytes = 512

    /// The limits for probing the file at `path`: a file named as a movie prefetches `movieHeadBytes`, not a
    /// still's `headerProbeBytes`. A movie's metadata is in its `moov`, read on its own (a camera movie's with
    /// the end of the file): the rest of a 16 KB head was media data copied for nothing, a third of a movie's
    /// read cost (issue 17), and the rest of a 4 KB page still most of the kernel's copy of the head (a HEIC
    /// keeps the 16 KB: its Exif item, early in its `mdat`, usually lies in it). Only the reads change, never
    /// the answer: the probe sniffs the content, and reads on demand whatever a misnamed file needs.
    public func forProbing(path: String) -> ParseLimits {
        guard headerProbeBytes > Self.movieHeadBytes else { return self }
        // The name's last five bytes, lowercased, packed into one integer: this runs for every probed file,
        // and an array of them was an allocation each time.
        var tail: UInt64 = 0
        var count = 0
        for byte in path.utf8.suffix(5) {
            tail = tail << 8 | UInt64(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
            count += 1
        }
        let named = Self.movieExtensionCodes.contains { ext in
            count >= ext.length && tail & (UInt64(1) << (8 * ext.length) - 1) == ext.code
        }
        guard named else { return self }
        var limits = self
        limits.headerProbeBytes = Self.movieHeadBytes
        return limits
    }
}
