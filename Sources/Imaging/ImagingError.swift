import MediaFormats

/// Why a picture could not be made. Every decoder failure ends here: callers show a "cannot decode"
/// placeholder with `description`, never crash.
public enum ImagingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The container is not one this build decodes (yet).
    case unsupportedFormat(String)
    /// The bytes are corrupt, truncated or refused by the codec library.
    case cannotDecode(String)
    /// The picture is larger than `ImageDecoder.maxPixels` (an absurd header must not allocate gigabytes).
    case tooLarge(width: Int, height: Int)
    /// Reading the file failed.
    case io(String)
    /// Writing an encoded picture failed.
    case cannotEncode(String)

    public var description: String {
        switch self {
        case .unsupportedFormat(let what): return "cannot decode: unsupported format \(what)"
        case .cannotDecode(let why): return "cannot decode: \(why)"
        case .tooLarge(let w, let h): return "cannot decode: picture too large (\(w)x\(h))"
        case .io(let why): return "cannot read: \(why)"
        case .cannotEncode(let why): return "cannot encode: \(why)"
        }
    }

    init(_ error: MediaError) {
        switch error {
        case .io, .notARegularFile: self = .io(error.description)
        default: self = .cannotDecode(error.description)
        }
    }
}
