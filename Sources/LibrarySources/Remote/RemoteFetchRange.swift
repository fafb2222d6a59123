import Foundation

/// A byte range to ask for with `Range:` (inclusive bounds, as HTTP writes them).
public enum RemoteFetchRange: Sendable, Equatable {
    case bytes(first: UInt64, last: UInt64)
    /// The last N bytes (`bytes=-N`).
    case suffix(UInt64)
    /// From an offset to the end (`bytes=N-`), for resuming.
    case from(UInt64)

    public var headerValue: String {
        switch self {
        case .bytes(let a, let b): return "bytes=\(a)-\(b)"
        case .suffix(let n): return "bytes=-\(n)"
        case .from(let a): return "bytes=\(a)-"
        }
    }
}

/// `Content-Range: bytes 0-65535/3478530` → (first, last, total). `*` totals are nil.
public func parseContentRange(_ value: String) -> (first: UInt64, last: UInt64, total: UInt64?)? {
    let v = value.trimmingCharacters(in: .whitespaces)
    guard v.lowercased().hasPrefix("bytes ") else { return nil }
    let rest = v.dropFirst(6)
    let halves = rest.split(separator: "/", maxSplits: 1)
    guard halves.count == 2 else { return nil }
    let bounds = halves[0].split(separator: "-", maxSplits: 1)
    guard bounds.count == 2, let first = UInt64(bounds[0]), let last = UInt64(bounds[1]), last >= first else { return nil }
    let total = UInt64(halves[1])
    if let total, last >= total { return nil }
    return (first, last, total)
}
