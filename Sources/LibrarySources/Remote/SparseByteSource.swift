import Concurrent
import Foundation
import MediaFormats

/// A remote file known only in pieces: the ranges partial downloads fetched, plus its total size.
/// Reads inside known ranges succeed; a read touching an unknown byte throws `missingBytesError` and is
/// remembered in `misses`, so the caller can fetch exactly what a parser asked for and probe again.
public final class SparseByteSource: ByteSource, Sendable {
    public let size: UInt64
    private struct Known {
        /// Known pieces, sorted by offset, never overlapping.
        var pieces: [(offset: UInt64, bytes: [UInt8])] = []
        var misses: [ByteRange] = []
    }
    private let known = Locked(Known())

    /// Prefix of the message of the error thrown for unknown bytes.
    public static let missingBytesPrefix = "sparse source: bytes not downloaded"

    public init(size: UInt64) { self.size = size }

    /// True for the error a read of unknown bytes throws.
    public static func isMissingBytes(_ error: MediaError) -> Bool {
        if case .unsupported(let what) = error { return what.hasPrefix(missingBytesPrefix) }
        return false
    }

    /// Adds downloaded bytes at `offset` (clipped to the size); overlapping pieces are merged.
    public func add(_ bytes: [UInt8], at offset: UInt64) {
        guard offset < size, !bytes.isEmpty else { return }
        let usable = Array(bytes.prefix(Int(min(UInt64(bytes.count), size - offset))))
        known.withLockedValue { known in
            var merged = (offset: offset, bytes: usable)
            var kept: [(offset: UInt64, bytes: [UInt8])] = []
            for piece in known.pieces {
                let pieceEnd = piece.offset + UInt64(piece.bytes.count)
                let mergedEnd = merged.offset + UInt64(merged.bytes.count)
                if pieceEnd < merged.offset || piece.offset > mergedEnd {
                    kept.append(piece)
                    continue
                }
                // Overlapping or touching: union, new bytes win where both exist.
                let start = min(piece.offset, merged.offset)
                let end = max(pieceEnd, mergedEnd)
                var union = [UInt8](repeating: 0, count: Int(end - start))
                union.replaceSubrange(Int(piece.offset - start)..<Int(pieceEnd - start), with: piece.bytes)
                union.replaceSubrange(Int(merged.offset - start)..<Int(mergedEnd - start), with: merged.bytes)
                merged = (start, union)
            }
            kept.append(merged)
            known.pieces = kept.sorted { $0.offset < $1.offset }
        }
    }

    /// Ranges held, in order.
    public var knownRanges: [ByteRange] {
        known.withLockedValue { $0.pieces.map { ByteRange(offset: $0.offset, length: UInt64($0.bytes.count)) } }
    }
    public var knownByteCount: UInt64 { knownRanges.reduce(0) { $0 + $1.length } }

    /// Reads that failed since the last `clearMisses()`, in order.
    public var misses: [ByteRange] { known.withLockedValue { $0.misses } }
    public func clearMisses() { known.withLockedValue { $0.misses.removeAll() } }

    public func read(at offset: UInt64, count: Int) throws(MediaError) -> [UInt8] {
        guard count > 0, offset < size else { return [] }
        let wanted = min(UInt64(count), size - offset)
        let found: [UInt8]? = known.withLockedValue { known in
            for piece in known.pieces where piece.offset <= offset {
                let pieceEnd = piece.offset + UInt64(piece.bytes.count)
                guard offset + wanted <= pieceEnd else { continue }
                let start = Int(offset - piece.offset)
                return Array(piece.bytes[start..<start + Int(wanted)])
            }
            known.misses.append(ByteRange(offset: offset, length: wanted))
            return nil
        }
        guard let found else {
            throw MediaError.unsupported("\(Self.missingBytesPrefix): \(offset)+\(wanted)")
        }
        return found
    }
}
