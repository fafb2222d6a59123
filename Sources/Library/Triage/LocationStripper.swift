import Foundation
import LibraryCore
import LibrarySources
import LivePairing
import MediaFormats

/// Writes an export entry's files without their location: stills and movies through
/// `MediaWriting.withoutLocation` (JPEG, HEIC, QuickTime/MP4), XMP sidecars without `exif:GPS*`, each
/// through `AtomicFileWriter` as one group with paired names. The originals are only read.
struct LocationStripper {
    var copier: FileCopier

    func write(_ files: [String], of entry: ExportPlan.Entry, to directory: String, transfer: FileGroupTransfer,
               observe: (String, UInt64) throws -> Void) throws -> [String] {
        let item = entry.item
        // Decide every file's new bytes before writing anything, so an unsupported file fails the item whole.
        var plans: [(source: any ByteSource, assembly: ByteAssembly)?] = []
        for (index, path) in files.enumerated() {
            if index == 0, item.kind == .motion, entry.choice == .livePhoto {
                // The embedded movie keeps its own position inside the still's bytes: both halves are cleaned
                // and the Motion Photo is made again from them.
                plans.append(try motionPhotoPlan(path, itemName: item.displayName))
                continue
            }
            plans.append(try plan(path, isMotionStill: index == 0 && ExportPlan.writesStillWithoutMotion(entry),
                                  itemName: item.displayName))
        }
        // Prepared, not committed: the group commits movie and sidecars first, the still last.
        return try transfer.writeGroup(files.map { ($0 as NSString).lastPathComponent }, in: directory) { i, destination in
            try observe(files[i], 0)
            let writer = try plans[i].map { try AtomicFileWriter.prepare($0.assembly, from: $0.source, to: destination) }
                ?? copier.prepare(files[i], to: destination)
            try observe(files[i], fileSize(files[i]))
            return writer
        }
    }

    /// A Motion Photo without the location of its still or of its embedded movie: the still alone and the
    /// movie alone are cleaned, then written again as one Motion Photo (Google's format, the still's kind:
    /// JPEG with the movie appended, or HEIC with an `mpvd` box). One with no location anywhere is copied as is.
    private func motionPhotoPlan(_ path: String, itemName: String) throws -> (source: any ByteSource, assembly: ByteAssembly)? {
        let original = try FileByteSource(path: path)
        let info = MediaProbe.probe(original)
        guard let embedded = info.embeddedMovie, embedded.range.fits(in: original.size) else {
            throw ExportError.cannotStripLocation(itemName, reason: "its embedded movie could not be found; export it as a still")
        }
        let movie = SliceByteSource(base: original, range: embedded.range)
        let stillLocation = try? LocationReader.location(original)   // try?: an unreadable position is handled below
        let movieLocation = try? LocationReader.location(movie)
        if !info.hasGPS, stillLocation == nil, movieLocation == nil, !MediaProbe.probe(movie).hasGPS { return nil }
        do {
            let stillAlone = MemoryByteSource(try MediaWriting.stillWithoutMotion(original).materialize(from: original))
            let stillClean = try MediaWriting.withoutLocation(stillAlone).materialize(from: stillAlone)
            let movieClean = MemoryByteSource(try MediaWriting.withoutLocation(movie).materialize(from: movie))
            let timestamp = embedded.presentationTimestampUs ?? -1
            return (movieClean, try MediaWriting.motionPhoto(still: stillClean, movie: movieClean, presentationTimestampUs: timestamp))
        } catch {
            throw ExportError.cannotStripLocation(itemName, reason: "its location could not be removed (\(error)); export it as a still")
        }
    }

    /// The new bytes of one file, or nil to copy it as is (a file that cannot hold a position we know of).
    private func plan(_ path: String, isMotionStill: Bool, itemName: String) throws -> (source: any ByteSource, assembly: ByteAssembly)? {
        if path.lowercased().hasSuffix(".xmp") {
            let text = try FileByteSource(path: path)
            let bytes = try text.readExactly(at: 0, count: Int(text.size))
            let stripped = MediaWriting.xmpWithoutLocation(bytes)
            return (MemoryByteSource(stripped), ByteAssembly([.source(ByteRange(offset: 0, length: UInt64(stripped.count)))]))
        }
        let original = try FileByteSource(path: path)
        var source: any ByteSource = original
        if isMotionStill {
            // A Motion Photo leaving as a still: first without its movie, then without its location.
            source = MemoryByteSource(try MediaWriting.stillWithoutMotion(original).materialize(from: original))
        }
        let format = MediaProbe.sniff(try source.read(at: 0, count: 16))
        switch format {
        case .jpeg, .heif, .quickTime, .mp4:
            return (source, try MediaWriting.withoutLocation(source))
        default:
            // PNG/GIF/WebP/TIFF/BMP: only a position the probe found stops the export; none is copied as is.
            if MediaProbe.probe(source).hasGPS {
                throw ExportError.cannotStripLocation(itemName,
                    reason: "\((path as NSString).lastPathComponent) is \(format.rawValue), whose location livegrid cannot remove")
            }
            return isMotionStill ? (source, ByteAssembly([.source(ByteRange(offset: 0, length: source.size))])) : nil
        }
    }

    private func fileSize(_ path: String) -> UInt64 {
        var st = StatBuffer()
        return PathBytes.stat(path, &st) == 0 ? UInt64(max(0, st.st_size)) : 0
    }
}
