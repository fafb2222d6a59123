import Foundation
import LibraryCore

/// Follows symbolic links through a directory's SFTP listing alone: no request. The long listing already names
/// each link's target (libcurl reads the link for its ` -> target`), so a link to a name of the same folder is
/// followed name by name; a chain that leaves the folder (another directory, or `..`) is left to the server.
public struct SFTPLinks {
    public enum Verdict: Sendable, Equatable {
        /// Not a link, or a link whose chain ends at a listed name (a file or a directory).
        case fine
        case broken(BrokenLink)
        /// The chain leaves the folder for `next` (a server path, `.` and `..` taken out), or the listing was cut
        /// (`next` nil): only a request can tell.
        case undecided(next: String?)
    }

    /// Linux's limit on links followed in one lookup (MAXSYMLINKS): a longer chain fails as a loop does.
    static let maxHops = 40

    private let links: [String: String]
    private let names: Set<String>
    private let truncated: Bool
    /// The listed directory's path with its trailing slash, for targets written as absolute paths into it.
    private let directoryPath: String

    /// Cheap for a listing without links (no set of names is made).
    public init(_ listing: RemoteListing) {
        links = listing.links
        truncated = listing.truncated
        names = links.isEmpty ? [] : Set(listing.entries.map(\.name) + listing.rejected.map(\.raw))
        let path = listing.baseURL.path
        directoryPath = path.hasSuffix("/") ? path : path + "/"
    }

    public var isEmpty: Bool { links.isEmpty }

    public func isLink(_ name: String) -> Bool { links[name] != nil }

    /// The verdict of every link of the listing, by name.
    public func verdicts() -> [String: Verdict] {
        Dictionary(uniqueKeysWithValues: links.keys.map { ($0, verdict(for: $0)) })
    }

    public func verdict(for name: String) -> Verdict {
        guard links[name] != nil else { return .fine }
        var seen: Set<String> = []
        var current = name
        while let target = links[current] {
            guard seen.insert(current).inserted, seen.count <= Self.maxHops else { return .broken(.loop) }
            guard let next = localName(target) else {
                return .undecided(next: Self.normalized(target.hasPrefix("/") ? target : directoryPath + target))
            }
            if next == "." { return .fine }   // the folder itself
            current = next
        }
        if names.contains(current) { return .fine }
        return truncated ? .undecided(next: nil) : .broken(.missingTarget)
    }

    /// `path` with `.` and `..` worked out as text (the server would resolve a `..` after a link physically;
    /// close enough to name where to look next and to notice a loop).
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The name in this folder a link target stands for ("." for the folder itself), or nil when it points
    /// elsewhere.
    private func localName(_ target: String) -> String? {
        var rest = Substring(target)
        if rest.hasPrefix(directoryPath) {
            rest = rest.dropFirst(directoryPath.count)
        } else if rest.hasPrefix("/") {
            return nil
        }
        while rest.hasPrefix("./") { rest = rest.dropFirst(2) }
        if rest.isEmpty || rest == "." { return "." }
        if rest == ".." || rest.contains("/") { return nil }
        return String(rest)
    }
}
