import MediaFormats

extension ImagingError {
    /// libav's failures in the user's terms. libav's codes say little about the file: a corrupt 1.3 KB PNG
    /// makes its decoder return ENOMEM ("Cannot allocate memory"), a truncated one EINVAL or INDA; so every
    /// failure of the decode itself is "damaged", and `ImageDecoder` then looks at the file to say how.
    public init(_ error: LibavError) {
        switch error {
        case .library(let operation, let code, let message):
            let detail = "libav \(operation): \(message) (\(code))"
            if message.hasPrefix("read failed") {
                self.init(.unreadable(.readError), detail: detail)
            } else if operation == "avformat_open_input" || operation == "avformat_find_stream_info"
                        || operation == "avcodec_open2" || operation == "avcodec_parameters_to_context" {
                self.init(.damaged(format: nil, .badHeader), detail: detail)
            } else {
                self.init(.damaged(format: nil, .corruptData), detail: detail)
            }
        case .noVideoStream(let why):
            // "no video or image stream in ... data" is a movie without video; "no picture in ... data" and
            // "the movie has no frames" are streams whose every packet was refused.
            let noTrack = why.hasPrefix("no video or image stream")
            self.init(noTrack ? .noVideo(format: nil) : .damaged(format: nil, .corruptData), detail: "libav: \(why)")
        case .unsupported(let what):
            if let problem = CodecLibraries.libavProblem, what.contains("libav is unavailable") {
                self.init(.needsLibrary("FFmpeg's libavcodec and libavformat"), detail: problem)
            } else {
                self.init(.unsupported(format: nil), detail: "libav: unsupported \(what)")
            }
        case .invalidArgument(let why):
            self.init(.damaged(format: nil, .corruptData), detail: "libav: invalid request: \(why)")
        case .outOfMemory(let what):
            self.init(PictureProblem.outOfMemory, detail: "allocating \(what)")
        case .tooLarge(let width, let height):
            self.init(PictureProblem.tooLarge(width: width, height: height))
        }
    }

    /// Any error met while probing, decoding or playing the file at `path`, as one plain `ImagingError`: the
    /// edge (CLI, browser) calls this once and prints `description` (or `verboseDescription`). A failure
    /// that does not say which format, or whether the file is cut, is completed by a look at the file.
    public static func explaining(_ error: any Error, path: String?) -> ImagingError {
        let base: ImagingError
        switch error {
        case let error as ImagingError: base = error
        case let error as LibavError: base = ImagingError(error)
        case let error as MediaError: base = ImagingError(error)
        default: base = ImagingError(.other("\(error)"))
        }
        // try?: an unreadable file keeps the sentence it has; the look only makes it more precise.
        guard let path, base.needsLookAtFile, let source = try? FileByteSource(path: path) else { return base }
        return base.refined(by: source)
    }

    /// True when the file's first bytes or its end can make the sentence more precise.
    var needsLookAtFile: Bool {
        switch problem {
        case .damaged(nil, _), .damaged(_, .corruptData), .damaged(_, .badHeader), .unsupported(nil), .noVideo(nil): return true
        default: return false
        }
    }

    /// Names the format from the first bytes (or says what the file is when it is no picture at all) and
    /// turns "corrupt"/"bad header" into "ends early" when the file is visibly cut short.
    func refined(by source: any ByteSource) -> ImagingError {
        guard needsLookAtFile else { return self }
        let head = (try? source.read(at: 0, count: ContentGuess.sniffBytes)) ?? []   // try?: only refines the sentence
        let format = MediaProbe.sniff(Array(head.prefix(16)))
        var refined = self
        if format == .unknown {
            if case .damaged = problem { refined.problem = .notAPicture(ContentGuess.guess(head)) }
            return refined
        }
        refined = refined.about(format)
        if case .damaged(let name, let damage) = refined.problem, damage != .endsEarly,
           FileEnd.isCutShort(source, format: format) {
            refined.problem = .damaged(format: name, .endsEarly)
        }
        return refined
    }
}
