import Foundation
import Imaging
import Library
import LivePairing
import MediaFormats

/// `livegrid export --as loop|bounce|gif|long-exposure`: Apple's Live Photo effects rendered into files
/// that play anywhere. Each file is written to a temporary in the destination and renamed into place under
/// a name that collides with nothing; the items themselves are only read. The CLI (`export --as`) and the
/// browser's export dialog both write through it.
public struct StudioExport: Sendable {
    public let destination: String
    public let effect: StudioEffect
    /// The GIF's bound in bytes.
    public let maxBytes: Int

    public init(destination: String, effect: StudioEffect, maxBytes: Int = StudioExport.defaultGIFBytes) {
        self.destination = destination
        self.effect = effect
        self.maxBytes = maxBytes
    }

    /// Messaging services cap attachments around 8 MB; a little under it leaves room for their headers.
    public static let defaultGIFBytes = 8_000_000

    /// Writes the effect of `item`; returns the new file's path, then a line saying what it holds.
    public func export(_ item: LibraryItem) throws -> [String] {
        guard let playable = item.playableMovie else {
            throw StudioWriting.Failure("not a Live Photo or Motion Photo (no movie to make a \(effect.rawValue) from)")
        }
        let file = try FileByteSource(path: playable.path)
        let movie: any ByteSource = playable.range.map { SliceByteSource(base: file, range: $0) } ?? file
        guard PathBytes.isDirectory(destination) else { throw StudioWriting.Failure("\(destination): no such directory") }
        let base = StudioWriting.baseName(item.still?.path ?? playable.path) + "-" + effect.rawValue
        guard let path = try StudioWriting.freeNames(directory: destination, base: base, extensions: [effect.fileExtension]).first else {
            throw StudioWriting.Failure("\(destination): no free file name")
        }
        TemporaryFileRegistry.installSignalCleanup()
        let writer = try AtomicFileWriter(destination: path)
        defer { writer.abort() }
        let summary: String
        switch effect {
        case .loop, .bounce:
            let rendered = try StudioEditor.studio { try StudioRenderer.renderMovieEffect(effect, source: movie, to: writer.temporaryPath) }
            summary = "\(effect.rawValue): \(StudioEditor.seconds(rendered.duration)) s, \(rendered.frameCount) frames, H.264 MP4"
        case .gif:
            let (rendered, bytes, width) = try StudioEditor.studio {
                try StudioRenderer.renderGIF(source: movie, to: writer.temporaryPath, maxBytes: maxBytes)
            }
            summary = "gif: \(rendered.frameCount) frames, \(width) px wide, \(bytes) bytes (limit \(maxBytes))"
        case .longExposure:
            let exposure = try StudioEditor.studio { try StudioRenderer.longExposure(source: movie) }
            var jpeg = try StudioEditor.studio { try exposure.image.jpeg() }
            var exifNote = ""
            if let still = item.still, still.info.format == .jpeg {
                jpeg = try MediaWriting.jpegCarryingExif(of: try FileByteSource(path: still.path), newJPEG: jpeg,
                                                         keepingContentIdentifier: false)
            } else {
                exifNote = ", without Exif (the original still is not a JPEG)"
            }
            // Through the assembly streamer, the one way files are written here.
            try ByteAssembly([.bytes(jpeg)]).stream(from: MemoryByteSource(jpeg)) { try writer.write($0) }
            summary = "long exposure: the mean of \(exposure.frameCount) frames"
                + (exposure.aligned ? ", aligned first (the camera moved \(Int(exposure.measuredShift.rounded())) px)" : "") + exifNote
        }
        try writer.commit(replace: false)
        return [path, "  \(summary)"]
    }

    /// "8M", "500K", "1200000": a size in bytes (K and M are 1000 and 1000000, as services state limits).
    public static func byteCount(_ text: String) -> Int? {
        let upper = text.uppercased().trimmingCharacters(in: .whitespaces)
        let (digits, factor): (Substring, Double) = upper.hasSuffix("M") || upper.hasSuffix("MB")
            ? (upper.prefix { $0.isNumber || $0 == "." }, 1_000_000)
            : upper.hasSuffix("K") || upper.hasSuffix("KB") ? (upper.prefix { $0.isNumber || $0 == "." }, 1000) : (Substring(upper), 1)
        guard let value = Double(digits), value.isFinite, value > 0, value * factor <= 4_000_000_000 else { return nil }
        return Int(value * factor)
    }
}
