import Foundation

/// Where a listed entry lives, kept as the listed directory's URL text (one shared copy per listing) and the
/// entry's own encoded part after it; the `URL` is made when asked for. A `URL` held per entry was three heap
/// blocks of ~370 bytes together, 73 MB for a 200,000-entry listing (issue 17 item 5); a file name of at most
/// 15 bytes now needs no heap at all.
///
/// A URL is kept in two parts only when its text starts with the prefix's text and that text reads back as the
/// very same URL (checked when stored), so `url` always equals the URL given; anything else is kept whole.
public struct RemoteLocation: Sendable, Hashable, CustomStringConvertible {
    /// The text every URL of one listing starts with: the listed directory, no credentials, ending in "/".
    public final class Prefix: Sendable {
        public let text: String
        public init(text: String) { self.text = text }
    }

    private enum Storage: Sendable {
        case whole(URL)
        case below(Prefix, rest: String)
    }

    private let storage: Storage

    /// `url`, kept whole.
    public init(_ url: URL) { storage = .whole(url) }

    /// `url`, kept as `prefix` and what follows it when that gives back exactly `url`; whole otherwise.
    public init(_ url: URL, below prefix: Prefix) {
        let text = url.absoluteString
        let utf8 = text.utf8
        guard utf8.count > prefix.text.utf8.count, utf8.starts(with: prefix.text.utf8), URL(string: text) == url else {
            storage = .whole(url)
            return
        }
        storage = .below(prefix, rest: String(text[utf8.index(utf8.startIndex, offsetBy: prefix.text.utf8.count)...]))
    }

    /// The same location with its text split at `prefix` when it can be (what a listing stores).
    public func sharing(_ prefix: Prefix) -> RemoteLocation {
        guard case .whole(let url) = storage else { return self }
        return RemoteLocation(url, below: prefix)
    }

    /// The URL, equal to the one this location was made from.
    public var url: URL {
        switch storage {
        case .whole(let url):
            return url
        case .below(let prefix, let rest):
            // The text was read back into this very URL when stored: it parses.
            guard let url = URL(string: prefix.text + rest) else { preconditionFailure("checked in init") }
            return url
        }
    }

    /// The URL's text (`url.absoluteString`), without making the URL.
    public var text: String {
        switch storage {
        case .whole(let url): return url.absoluteString
        case .below(let prefix, let rest): return prefix.text + rest
        }
    }

    /// The text after `prefix` when this location is stored below that very prefix object (no string is made):
    /// the key a listing's tables use for it. nil otherwise.
    public func rest(below prefix: Prefix) -> String? {
        guard case .below(let own, let rest) = storage, own === prefix else { return nil }
        return rest
    }

    public var description: String { text }

    public static func == (a: RemoteLocation, b: RemoteLocation) -> Bool {
        if case .below(let p, let r) = a.storage, case .below(let q, let s) = b.storage, p === q { return r == s }
        return a.text == b.text
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
