import MediaFormats
#if canImport(Glibc)
import Glibc
#endif

/// Why a picture could not be made, or was made only in part, in two layers (issue 15.5): `problem` says
/// what is wrong in the user's terms, the one sentence the CLI prints and the grid shows ("damaged JPEG: the
/// file ends early"); `detail` keeps the technical cause (libav's code and text, libjpeg's message) for
/// `--verbose` and the info panel. Callers never crash on it; the sentence is rendered at the edge.
public struct ImagingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var problem: PictureProblem
    /// The library's own words, for people who debug: never shown without being asked for.
    public var detail: String?

    public init(_ problem: PictureProblem, detail: String? = nil) {
        self.problem = problem
        self.detail = detail.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The plain sentence.
    public var description: String { problem.sentence }

    /// The sentence and, in brackets, the technical detail (`--verbose`).
    public var verboseDescription: String { detail.map { "\(problem.sentence) [\($0)]" } ?? problem.sentence }

    // MARK: the ways decoders fail (the format is filled in by ImageDecoder, which knows it)

    /// Corrupt or truncated data the codec refused; `ImageDecoder` decides whether the file ends early.
    public static func cannotDecode(_ detail: String) -> ImagingError { ImagingError(.damaged(format: nil, .corruptData), detail: detail) }
    /// A valid file of a variant livegrid does not decode.
    public static func unsupportedFormat(_ detail: String) -> ImagingError { ImagingError(.unsupported(format: nil), detail: detail) }
    /// Over `ImageDecoder`'s pixel or byte limits (an absurd header must not allocate gigabytes).
    public static func tooLarge(width: Int, height: Int) -> ImagingError { ImagingError(PictureProblem.tooLarge(width: width, height: height)) }
    /// Reading the file failed for a reason other than its content: the errno says which (missing, permission).
    public static func io(path: String, errno code: Int32) -> ImagingError { ImagingError(MediaError.io(path: path, errno: code)) }
    /// Writing an encoded picture failed.
    public static func cannotEncode(_ detail: String) -> ImagingError { ImagingError(.cannotWrite, detail: detail) }

    init(_ error: MediaError) {
        switch error {
        case .io(_, let code):
            self.init(.unreadable(Unreadable(errno: code)), detail: error.description)
        case .notARegularFile(_, let kind):
            self.init(.unreadable(kind.isEmpty ? .notAFile : .notARegularFile(kind: kind)), detail: error.description)
        case .truncated:
            self.init(.damaged(format: nil, .endsEarly), detail: error.description)
        case .unsupported:
            self.init(.unsupported(format: nil), detail: error.description)
        case .invalid, .limitExceeded:
            self.init(.damaged(format: nil, .badHeader), detail: error.description)
        }
    }

    /// The same problem, said about `format` when the decoder did not name it.
    func about(_ format: ContainerFormat) -> ImagingError {
        var copy = self
        copy.problem = problem.about(PictureProblem.formatName(format))
        return copy
    }
}

/// What is wrong, in the user's terms. Each case renders as "category: what", with the category first so
/// that a list of failures reads at a glance.
public enum PictureProblem: Sendable, Equatable {
    /// A picture or movie of a known format whose bytes are broken.
    case damaged(format: String?, Damage)
    /// The file is no picture at all.
    case notAPicture(ContentGuess)
    /// A real picture of a kind livegrid does not decode.
    case unsupported(format: String?)
    /// Bigger than the decoders' limits (0x0 = the file itself is too big).
    case tooLarge(width: Int, height: Int)
    /// The file could not be read at all.
    case unreadable(Unreadable)
    /// The decoder is a shared library that is not installed (e.g. libheif, FFmpeg's libraries).
    case needsLibrary(String)
    /// A movie without a video track: nothing to show.
    case noVideo(format: String?)
    /// Memory ran out (a real allocation failure, not libav's ENOMEM for corrupt data).
    case outOfMemory
    /// The thumbnail or output could not be written.
    case cannotWrite
    /// A movie given where a still picture is needed.
    case movieNotPicture(format: String)
    /// Anything else, already in words (errors from outside the decoders).
    case other(String)

    public enum Damage: Sendable, Equatable {
        case endsEarly
        case badHeader
        case corruptData
    }

    public var sentence: String {
        switch self {
        case .damaged(let format, let damage):
            let what = format.map { "damaged \($0)" } ?? "damaged file"
            switch damage {
            case .endsEarly: return "\(what): the file ends early"
            case .badHeader: return "\(what): its header is broken"
            case .corruptData: return "\(what): the picture data is corrupt"
            }
        case .notAPicture(let guess): return "not a picture: \(guess.plainDescription)"
        case .unsupported(let format):
            return format.map { "unsupported \($0): a variant livegrid cannot decode" } ?? "unsupported picture format"
        case .tooLarge(let width, let height):
            if width == 0 || height == 0 { return "too large: the file is over \(ImageDecoder.maxFileBytes >> 20) MiB" }
            return "too large: \(width)×\(height) pixels is over livegrid's limit"
        case .unreadable(let why): return "unreadable: \(why.plainDescription)"
        case .needsLibrary(let library): return "cannot decode: needs \(library), which is not installed"
        case .noVideo(let format): return "\(format.map { "\($0) " } ?? "")has no video to show"
        case .outOfMemory: return "not enough memory to decode this picture"
        case .cannotWrite: return "cannot write the output file"
        case .movieNotPicture(let format): return "\(format): a movie, not a still picture"
        case .other(let words): return words
        }
    }

    /// True for a picture whose bytes are broken (the grid marks such items "damaged").
    public var isDamage: Bool {
        if case .damaged = self { return true }
        return false
    }

    func about(_ format: String) -> PictureProblem {
        switch self {
        case .damaged(nil, let damage): return .damaged(format: format, damage)
        case .unsupported(nil): return .unsupported(format: format)
        case .noVideo(nil): return .noVideo(format: format)
        default: return self
        }
    }

    /// The name a user knows the format by.
    public static func formatName(_ format: ContainerFormat) -> String { format.plainName }
}

/// Why a file could not be read at all.
public enum Unreadable: Sendable, Equatable {
    case missing
    case permissionDenied
    case notAFile
    /// A FIFO, a socket, a device, a directory: named, since a FIFO named like a photo is a trap.
    case notARegularFile(kind: String)
    case readError

    init(errno code: Int32) {
        switch code {
        case ENOENT, ENOTDIR: self = .missing
        case EACCES, EPERM: self = .permissionDenied
        case EISDIR: self = .notAFile
        default: self = .readError
        }
    }

    public var plainDescription: String {
        switch self {
        case .missing: return "no such file"
        case .permissionDenied: return "permission denied"
        case .notAFile: return "not a regular file (a folder or a device)"
        case .notARegularFile(let kind): return "not a regular file (\(kind))"
        case .readError: return "the disk or network reported a read error"
        }
    }
}
