import Foundation
import LivePairing
import MediaFormats

/// A lossless rotation or flip of how a picture is displayed. The cases mirror `OrientationChange` of the
/// writers module (branch `writers`), so the adapter is `OrientationChange(rawValue: adjustment.rawValue)`.
public enum Adjustment: String, Sendable, CaseIterable, Codable {
    case rotateClockwise, rotateCounterclockwise, rotate180, flipHorizontal, flipVertical

    /// The adjustment that takes this one back (undo): a quarter turn the other way; a half turn and the
    /// flips are their own inverse.
    public var inverse: Adjustment {
        switch self {
        case .rotateClockwise: return .rotateCounterclockwise
        case .rotateCounterclockwise: return .rotateClockwise
        case .rotate180, .flipHorizontal, .flipVertical: return self
        }
    }
}

/// The byte-level writers the orchestration needs; the real one wraps `MediaWriting` (Exif Orientation for
/// stills, the track display matrix for movies). Each returns the new file as a `ByteAssembly` of `source`
/// and throws when the format cannot take the change losslessly.
public protocol LosslessOrientationWriting: Sendable {
    func reorientStill(_ still: MediaFile, source: any ByteSource, by adjustment: Adjustment) throws -> ByteAssembly
    func reorientMovie(_ movie: MediaFile, source: any ByteSource, by adjustment: Adjustment) throws -> ByteAssembly
}

/// Applies an adjustment to an item's still and movie together, or to neither: a Live Photo whose movie
/// cannot take it is never left with a rotated still and an unrotated movie; the caller gets
/// `.offerConvertToStill` and may ask the user.
public struct AdjustmentApplier: Sendable {
    public enum Target: Sendable, Equatable {
        /// Write adjusted copies into a directory (the default way: originals untouched).
        case exportCopies(directory: String)
        /// Replace the originals (temporary file + rename each); refused unless `confirmed`.
        case inPlace(confirmed: Bool)
    }

    public enum Outcome: Sendable, Equatable {
        /// The files written (copies, or the originals replaced).
        case applied([String])
        /// The movie cannot take the change; nothing was written. Offer: export/convert to a still.
        case offerConvertToStill(MovieNotAdjustable)
    }

    /// Why a Live or Motion Photo's movie cannot take a lossless turn, kept as a value up to the prompt that
    /// offers a still instead (issue 27.6); the prompt and the CLI make the sentence (`description`).
    public enum MovieNotAdjustable: Sendable, Equatable, CustomStringConvertible {
        /// The embedded movie of a Motion Photo has no display matrix livegrid writes yet.
        case embeddedMovie
        /// The movie's writer refused; `cause` is its own sentence.
        case writerRefused(cause: String)
        public var description: String {
            switch self {
            case .embeddedMovie: return "rotating a Motion Photo's embedded movie is not yet supported"
            case .writerRefused(let cause): return "the movie cannot be adjusted: \(cause)"
            }
        }
    }

    public enum ApplyError: Error, CustomStringConvertible, Equatable {
        case inPlaceNeedsConfirmation
        case stillUnsupported(String)
        case nothingToAdjust(String)
        public var description: String {
            switch self {
            case .inPlaceNeedsConfirmation: return "changing the originals in place needs an explicit confirmation"
            case .stillUnsupported(let why): return "the photo cannot be adjusted losslessly: \(why)"
            case .nothingToAdjust(let item): return "\(item): nothing to adjust"
            }
        }
    }

    public var writer: any LosslessOrientationWriting
    public init(writer: any LosslessOrientationWriting) { self.writer = writer }

    public func apply(_ adjustment: Adjustment, to item: LibraryItem, target: Target) throws -> Outcome {
        if case .inPlace(confirmed: false) = target { throw ApplyError.inPlaceNeedsConfirmation }
        if item.kind == .motion {
            // TODO(writers): the embedded movie's display matrix; until then the still must not turn alone.
            return .offerConvertToStill(.embeddedMovie)
        }
        var planned: [(file: MediaFile, source: any ByteSource, assembly: ByteAssembly)] = []
        if let movie = item.movie {
            do {
                let source = try FileByteSource(path: movie.path)
                planned.append((movie, source, try writer.reorientMovie(movie, source: source, by: adjustment)))
            } catch {
                guard item.still != nil else { throw error }
                return .offerConvertToStill(.writerRefused(cause: String(describing: error)))
            }
        }
        if let still = item.still {
            do {
                let source = try FileByteSource(path: still.path)
                planned.insert((still, source, try writer.reorientStill(still, source: source, by: adjustment)), at: 0)
            } catch {
                throw ApplyError.stillUnsupported("\(error)")
            }
        }
        guard !planned.isEmpty else { throw ApplyError.nothingToAdjust(item.displayName) }

        switch target {
        case .exportCopies(let directory):
            let sidecars = SidecarLocator.sidecarsTravelling(with: item)
            let names = planned.map(\.file.fileName) + sidecars.map { ($0 as NSString).lastPathComponent }
            let copier = FileCopier()
            let written = try FileGroupTransfer().writeGroup(names, in: directory) { i, destination in
                guard i < planned.count else { return try copier.prepare(sidecars[i - planned.count], to: destination) }
                let writer = try AtomicFileWriter(destination: destination, permissions: 0o644)
                do {
                    try planned[i].assembly.stream(from: planned[i].source) { try writer.write($0) }
                } catch {
                    writer.abort()
                    throw error
                }
                return writer
            }
            return .applied(written)
        case .inPlace:
            try replaceTogether(planned)
            return .applied(planned.map(\.file.path))
        }
    }

    /// Writes every new file beside its original first, then swaps them in; if a swap fails, the originals
    /// already replaced come back from hard-link backups, so the still and the movie never disagree.
    private func replaceTogether(_ planned: [(file: MediaFile, source: any ByteSource, assembly: ByteAssembly)]) throws {
        var writers: [AtomicFileWriter] = []
        defer { writers.forEach { $0.abort() } }
        for p in planned {
            var st = StatBuffer()
            let mode: mode_t = PathBytes.stat(p.file.path, &st) == 0 ? st.st_mode & 0o7777 : 0o644
            let w = try AtomicFileWriter(destination: p.file.path, permissions: mode)
            writers.append(w)
            try p.assembly.stream(from: p.source) { try w.write($0) }
        }
        // Named like livegrid's temporaries: a backup a kill -9 strands is swept like one (it is only a second
        // link to the old contents, read by nothing once this function has returned).
        let backups = planned.map { ($0.file.path as NSString).deletingLastPathComponent + "/"
            + TemporaryFileName.make(for: $0.file.fileName) }
        var linked: [Int] = []
        defer { for i in linked { _ = PathBytes.unlink(backups[i]) } }
        for i in planned.indices where PathBytes.link(planned[i].file.path, backups[i]) == 0 { linked.append(i) }
        var committed: [Int] = []
        for (i, w) in writers.enumerated() {
            do {
                try w.commit(replace: true)
                committed.append(i)
            } catch {
                for j in committed where linked.contains(j) { _ = PathBytes.rename(backups[j], planned[j].file.path) }
                throw error
            }
        }
    }
}
