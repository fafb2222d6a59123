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
    case notARegularFile(path: String)

    public var description: String {
        switch self {
        case .truncated(let at, let needed): return "truncated data: \(needed) more byte(s) needed at offset \(at)"
        case .invalid(let why): return "invalid data: \(why)"
        case .limitExceeded(let what): return "parse limit exceeded: \(what)"
        case .unsupported(let what): return "unsupported: \(what)"
        case .io(let path, let e): return "\(path): \(String(cString: strerror(e)))"
        case .notARegularFile(let path): return "\(path): not a regular file"
        }
    }
}
