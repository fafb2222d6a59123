#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Errors that stop a parse or a read. Problems that leave the file usable are `ParseProblem`s instead.
public enum MediaError: Error, Sendable, Equatable, CustomStringConvertible {
    case truncated(at: UInt64, needed: Int)
    case invalid(String)
    case limitExceeded(String)
    case unsupported(String)
    case io(path: String, errno: Int32)
    /// `kind` in words ("a FIFO", "a directory"), empty when unknown.
    case notARegularFile(path: String, kind: String = "")

    public var description: String {
        switch self {
        case .truncated(let at, let needed): return "truncated data: \(needed) more byte(s) needed at offset \(at)"
        case .invalid(let why): return "invalid data: \(why)"
        case .limitExceeded(let what): return "parse limit exceeded: \(what)"
        case .unsupported(let what): return "unsupported: \(what)"
        case .io(let path, let e): return "\(path): \(String(cString: strerror(e)))"
        case .notARegularFile(let path, let kind):
            return kind.isEmpty ? "\(path): not a regular file" : "\(path) is not a regular file (\(kind))"
        }
    }
}

extension MediaError {
    /// A file type in words, for `notARegularFile`.
    public static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a FIFO"
        case S_IFDIR: return "a directory"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFLNK: return "a symbolic link"
        default: return "not a plain file"
        }
    }
}
