import Concurrent
import CFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// Why libav could not open, demux, decode or scale something. Each case keeps libav's numeric code (when
/// there is one) and a message a user can read, so the UI can show "cannot decode: ..." instead of crashing.
public enum LibavError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A libav call returned a negative AVERROR code. `operation` names the call (e.g. "avformat_open_input").
    case library(operation: String, code: Int32, message: String)
    /// The container holds no stream we can decode (no video stream, or no decoder for its codec).
    case noVideoStream(String)
    /// Data libav recognised but we cannot turn into pixels (unsupported codec or pixel format).
    case unsupported(String)
    /// A request that makes no sense (a target size of zero, a seek to NaN).
    case invalidArgument(String)
    /// An allocation failed (libav returned NULL).
    case outOfMemory(String)
    /// The header announces more pixels than `LibavFrameSource.maximumPixels` (checked before decoding).
    case tooLarge(width: Int, height: Int)

    /// Wraps a negative libav return code with its `av_strerror` text.
    public static func library(_ operation: String, _ code: Int32) -> LibavError {
        .library(operation: operation, code: code, message: LibavError.message(for: code))
    }

    /// The text `av_strerror` gives for a code.
    public static func message(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        if av_strerror(code, &buffer, buffer.count) < 0 {
            return "libav error \(code)"
        }
        return String(cString: buffer)
    }

    /// libav's numeric code, when there is one.
    public var code: Int32? {
        if case .library(_, let code, _) = self { return code }
        return nil
    }

    public var description: String {
        switch self {
        case .library(let operation, let code, let message):
            return "cannot decode: \(message) (\(operation) returned \(code))"
        case .noVideoStream(let why): return "cannot decode: \(why)"
        case .unsupported(let what): return "cannot decode: unsupported \(what)"
        case .invalidArgument(let why): return "invalid request: \(why)"
        case .outOfMemory(let what): return "out of memory allocating \(what)"
        case .tooLarge(let width, let height): return "cannot decode: image size \(width)x\(height) is over the pixel limit"
        }
    }
}

/// libav's log level as the executable was asked at start (`LIVEGRID_AV_LOG`, a debugging aid); nil: quiet.
/// Set before the first decoder opens: it is applied once.
public enum LibavLogging {
    static let requestedLevel = Locked<Int32?>(nil)
    public static func request(level: Int32?) { requestedLevel.set(level) }
}

/// One-time libav set-up shared by every decoder: libav logs to stderr by default, which would scribble over
/// a full-screen terminal UI, so it is silenced unless `LibavLogging` asks for a level.
enum LibavSetup {
    static let once: Void = {
        if let value = LibavLogging.requestedLevel.value {
            av_log_set_level(value)
        } else {
            av_log_set_level(AV_LOG_QUIET)
        }
    }()

    /// Opens the libraries on first use (throws when they are missing) and sets libav's log level once.
    static func ensure() throws(LibavError) {
        if let problem = CodecLibraries.libavProblem { throw LibavError.unsupported("libav is unavailable: \(problem)") }
        _ = once
    }
}

/// libav error codes defined by macros Swift cannot import (FFERRTAG), computed the same way:
/// `-(a | b << 8 | c << 16 | d << 24)`.
enum LibavErrorCodes {
    private static func tag(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Int32 {
        -Int32(bitPattern: UInt32(a) | UInt32(b) << 8 | UInt32(c) << 16 | UInt32(d) << 24)
    }
    static let invalidData = tag(UInt8(ascii: "I"), UInt8(ascii: "N"), UInt8(ascii: "D"), UInt8(ascii: "A"))
    static let decoderNotFound = tag(0xF8, UInt8(ascii: "D"), UInt8(ascii: "E"), UInt8(ascii: "C"))
    static let streamNotFound = tag(0xF8, UInt8(ascii: "S"), UInt8(ascii: "T"), UInt8(ascii: "R"))
    static let eof = lg_averror_eof()
    static let again = lg_averror_eagain()
}
