import LibraryCore
import LivePairing
import MediaFormats

extension OrientationChange {
    /// The writers' change for a triage adjustment (the cases mirror each other by name).
    init(_ adjustment: Adjustment) {
        switch adjustment {
        case .rotateClockwise: self = .rotateClockwise
        case .rotateCounterclockwise: self = .rotateCounterclockwise
        case .rotate180: self = .rotate180
        case .flipHorizontal: self = .flipHorizontal
        case .flipVertical: self = .flipVertical
        }
    }
}

/// The real lossless writers behind `AdjustmentApplier`: a JPEG's Exif Orientation and a movie's track
/// display matrix (`MediaWriting.rotate`). Anything else (HEIC, a movie without a video track) throws, so a
/// Live Photo whose movie cannot turn is offered a still instead of being half rotated.
public struct MediaWritingOrientationWriter: LosslessOrientationWriting {
    public var limits: ParseLimits
    public init(limits: ParseLimits = .default) { self.limits = limits }

    public func reorientStill(_ still: MediaFile, source: any ByteSource, by adjustment: Adjustment) throws -> ByteAssembly {
        // `rotate` takes movies too: a "still" that is a movie must not be turned through the still path.
        if MediaProbe.sniff(try source.read(at: 0, count: 16)).isMovie {
            throw MediaError.unsupported("\(still.fileName) is a movie, not a still")
        }
        return try MediaWriting.rotate(source, by: OrientationChange(adjustment), limits: limits)
    }

    public func reorientMovie(_ movie: MediaFile, source: any ByteSource, by adjustment: Adjustment) throws -> ByteAssembly {
        guard MediaProbe.sniff(try source.read(at: 0, count: 16)).isMovie else {
            throw MediaError.unsupported("\(movie.fileName) is not a QuickTime/MP4 movie")
        }
        return try MediaWriting.rotateMovie(source, by: OrientationChange(adjustment), limits: limits)
    }
}
