import Concurrent
import Foundation
import LibraryCore

/// Entries of an SFTP listing that are sure to be in `SFTPListingParser.parse`'s result, found while the two
/// listings still arrive, so that `scan` can probe them before the last line is read (issue 32.9).
///
/// The whole parse stays the answer; this only picks entries it cannot refuse. A long line's entry is sure when
/// its line is a plain file (`-`, not a link: a link's name is the longest listed name before ` -> `, which a
/// later name can change), its name is already a line of the names listing (names only ever get added), the
/// name passes `RemoteEntryValidator.checkName`, AND the next long line has arrived, reads, is not a link and
/// is itself already in the names listing: the whole parse refuses an entry only for its own line or for
/// the line right after it (the second half of a name with a line break). Anything else (a link, a line not
/// yet confirmed by the names listing, the last line) waits for the whole parse. Only complete lines (ended by
/// "\n") are looked at. Fed from the two listing transfers' threads.
public final class SFTPListingConfirmer: Sendable {
    private struct State {
        var names = Set<String>()
        var namesTail: [UInt8] = []
        var longTail: [UInt8] = []
        /// Complete long lines not yet decided, oldest first, each parsed once (nil: unreadable).
        var pending: [SFTPListingParser.LongLine?] = []
        var pendingStart = 0
        var emitted = 0
    }
    private let state = Locked(State())
    private let baseURL: URL
    private let maxEntries: Int
    private let onConfirmed: @Sendable ([RemoteEntry]) -> Void

    /// `onConfirmed` gets each batch of sure entries in listing order (at most `maxEntries` in all), outside
    /// any lock, on the thread that fed the bytes.
    public init(baseURL: URL, maxEntries: Int, onConfirmed: @escaping @Sendable ([RemoteEntry]) -> Void) {
        self.baseURL = baseURL
        self.maxEntries = maxEntries
        self.onConfirmed = onConfirmed
    }

    /// Bytes of the names-only listing, as kept by the reader (nothing past its cut).
    public func feedNames(_ bytes: some Collection<UInt8>) {
        let batch = state.withLockedValue { s -> [RemoteEntry] in
            for line in Self.completeLines(bytes, tail: &s.namesTail) { s.names.insert(line) }
            return decide(&s)
        }
        if !batch.isEmpty { onConfirmed(batch) }
    }

    /// Bytes of the long listing, as kept by the reader.
    public func feedLong(_ bytes: some Collection<UInt8>) {
        let batch = state.withLockedValue { s -> [RemoteEntry] in
            s.pending += Self.completeLines(bytes, tail: &s.longTail).map { SFTPListingParser.parseLongLine($0) }
            return decide(&s)
        }
        if !batch.isEmpty { onConfirmed(batch) }
    }

    /// Decides pending lines in order while each can be decided from what has arrived.
    private func decide(_ s: inout State) -> [RemoteEntry] {
        var batch: [RemoteEntry] = []
        while s.pendingStart < s.pending.count, s.emitted < maxEntries {
            guard let parsed = s.pending[s.pendingStart], parsed.type == "-" else {
                s.pendingStart += 1   // not a plain file (or unreadable): the whole parse decides it
                continue
            }
            guard s.names.contains(parsed.rest) else { break }   // the names listing may still bring it
            guard s.pendingStart + 1 < s.pending.count else { break }   // the next line may still refuse it
            guard let next = s.pending[s.pendingStart + 1], next.type != "l" else {
                s.pendingStart += 1   // a next line that is a link or unreadable: left to the whole parse
                continue
            }
            guard s.names.contains(next.rest) else { break }
            s.pendingStart += 1
            guard parsed.rest != ".", parsed.rest != "..",
                  case .success(let checked) = RemoteEntryValidator.checkName(decoded: parsed.rest),
                  let url = SFTPListingParser.entryURL(checked, isDirectory: false, in: baseURL) else { continue }
            batch.append(RemoteEntry(name: checked, url: url, isDirectory: false, size: parsed.size,
                                     modificationTime: parsed.date))
            s.emitted += 1
        }
        if s.pendingStart > 4096 {
            s.pending.removeFirst(s.pendingStart)
            s.pendingStart = 0
        }
        return batch
    }

    /// The lines `bytes` completes (split on "\n" as `SFTPListingParser.lines`), keeping the unfinished rest.
    private static func completeLines(_ bytes: some Collection<UInt8>, tail: inout [UInt8]) -> [String] {
        var lines: [String] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if !tail.isEmpty { lines.append(String(decoding: tail, as: UTF8.self)) }
                tail.removeAll(keepingCapacity: true)
            } else {
                tail.append(byte)
            }
        }
        return lines
    }
}
