import Foundation
import LibraryCore
import LibrarySources
import LivePairing
import MediaFormats

/// Reads a remote file's metadata from a few ranged requests: the head (Exif/XMP/ftyp), the tail for stills
/// (trailers), and for movies whose `moov` follows `mdat` a growing tail, then whatever else the parser
/// asked for. Bytes live in a `SparseByteSource`; the file is never downloaded whole for pairing.
public enum RemoteHeaderProbe {
    public struct Result: Sendable {
        public var file: MediaFile
        /// Bytes received for this probe (the benchmark compares it with the file size).
        public var bytesFetched: UInt64
        public var requests: Int
    }

    /// Rounds of "probe, fetch what was missing" before giving up with what is known.
    static let maxRounds = 6

    public static func probe(_ entry: RemoteEntry, client: RemoteHTTPClient, limits: ParseLimits = .default) async -> Result {
        let headBytes = UInt64(max(limits.headerProbeBytes, 16))
        var fetched: UInt64 = 0
        var requests = 0
        let isMovieName = ["mov", "mp4", "m4v", "qt"].contains(entry.url.pathExtension.lowercased())
        func failed(_ why: String) -> Result {
            var info = MediaInfo(format: .unknown)
            info.problems.append(ParseProblem(.error, "remote", why))
            return Result(file: MediaFile(path: entry.name, size: entry.size ?? 0,
                                          modificationTime: entry.modificationTime?.timeIntervalSince1970 ?? 0, info: info),
                          bytesFetched: fetched, requests: requests)
        }
        // The file's kind of library reads the ranges (`LibrarySourceTable`).
        guard let library = LibrarySourceTable.source(for: entry.url, client: client) else {
            return failed(RemoteError.unsupportedURL(entry.url.absoluteString).description)
        }
        let suffixRanges = library.capabilities.suffixRanges
        let head: RemoteResponse
        do {
            // An SFTP entry without a size (a symbolic link) asks for an open range: its answer carries the size.
            let range: RemoteFetchRange = entry.size == nil && !suffixRanges
                ? .from(0) : .bytes(first: 0, last: headBytes - 1)
            head = try await library.fetch(entry.url, range: range, maxBytes: Int(headBytes))
            requests += 1
            fetched += UInt64(head.body.count)
        } catch RemoteError.brokenLink(_, let why) {
            return failed(why.sentence)   // the list names the file first
        } catch {
            return failed("\(error)")
        }
        guard let size = head.totalSize ?? entry.size else { return failed("the server gives no file size") }
        let source = SparseByteSource(size: size)
        // SFTP has no "last N bytes" request: with the size known, ask for the bytes themselves.
        func tail(_ n: UInt64) -> RemoteFetchRange {
            !suffixRanges ? .bytes(first: size - min(n, size), last: size - 1) : .suffix(n)
        }
        source.add(head.body, at: head.bodyOffset)
        let ranged = head.rangeHonoured
        var mtime = entry.modificationTime?.timeIntervalSince1970
        if mtime == nil, let lm = head.lastModified { mtime = HTTPDate.parse(lm)?.timeIntervalSince1970 }

        // Trailers of stills (Samsung SEF, MicroVideo) sit at the end: one small extra request when cheap.
        if !isMovieName, ranged, size > headBytes {
            let n = min(UInt64(limits.trailerProbeBytes), size - headBytes)
            if let piece = try? await library.fetch(entry.url, range: tail(n), maxBytes: Int(n)) {   // try?: no trailer read = none known
                requests += 1
                fetched += UInt64(piece.body.count)
                source.add(piece.body, at: piece.bodyOffset)
            }
        }

        var info = MediaProbe.probe(source, limits: limits)
        var tailLength: UInt64 = 0
        var round = 0
        while round < maxRounds, let miss = source.misses.first {
            round += 1
            source.clearMisses()
            let range: RemoteFetchRange
            let cap = UInt64(limits.maxStructureBytes) + headBytes
            if info.format.isMovie || isMovieName, miss.offset >= size / 2 || miss.offset > headBytes {
                // mdat first: fetch the end of the file, doubling until the parser is satisfied.
                let needed = size - miss.offset
                tailLength = min(cap, min(size, max(needed, tailLength * 2, 64 << 10)))
                range = tail(tailLength)
            } else {
                let length = min(cap, max(miss.length, 64 << 10))
                let last = min(size - 1, miss.offset + length - 1)
                range = .bytes(first: miss.offset, last: last)
            }
            do {
                let piece = try await library.fetch(entry.url, range: range, maxBytes: Int(cap))
                requests += 1
                fetched += UInt64(piece.body.count)
                source.add(piece.body, at: piece.bodyOffset)
            } catch {
                info.problems.append(ParseProblem(.warning, "remote", "could not fetch bytes \(miss): \(error)"))
                break
            }
            info = MediaProbe.probe(source, limits: limits)
        }
        let file = MediaFile(path: entry.name, size: size, modificationTime: mtime ?? 0, info: info)
        return Result(file: file, bytesFetched: fetched, requests: requests)
    }
}
