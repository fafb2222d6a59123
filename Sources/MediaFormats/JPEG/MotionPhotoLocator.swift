/// Finds the movie of a Motion Photo JPEG from its XMP and its Samsung trailer, and refuses any range that
/// does not start an MP4: a claim that points at other bytes becomes a visible "broken motion photo" error.
public enum MotionPhotoLocator {
    /// A movie some metadata claims, before validation.
    struct Claim {
        var kind: EmbeddedMovieKind
        /// nil when the metadata claims a movie but does not say where.
        var range: ByteRange?
        var presentationTimestampUs: Int64?
        var why: String
    }

    /// True when `range` lies in the source and its bytes 4..<8 are `ftyp` (an ISO BMFF/MP4 start).
    public static func startsMP4(_ source: any ByteSource, _ range: ByteRange) -> Bool {
        guard range.length >= 8, range.fits(in: source.size),
              let head = try? source.readExactly(at: range.offset, count: 8) else { return false }   // try?: unread = not an MP4
        return Array(head[4..<8]) == Array("ftyp".utf8)
    }

    /// The first claim that validates; every claim that does not is reported as a problem.
    static func locate(_ source: any ByteSource, xmp: XMPSummary?, limits: ParseLimits,
                       problems: inout [ParseProblem]) -> EmbeddedMovie? {
        var claims: [Claim] = []
        if let xmp {
            if let claim = googleMotionPhoto(xmp, fileSize: source.size) { claims.append(claim) }
            if let claim = microVideo(xmp, fileSize: source.size) { claims.append(claim) }
        }
        do {
            let entries = try SamsungTrailer.read(source, limits: limits, problems: &problems)
            if let entry = entries.first(where: { $0.marker == SamsungTrailer.motionPhotoMarker || $0.name == SamsungTrailer.motionPhotoName }) {
                claims.append(Claim(kind: .samsungTrailer, range: entry.payload, presentationTimestampUs: nil,
                                    why: "Samsung trailer \(entry.name)"))
            }
        } catch {
            problems.append(ParseProblem(.warning, "jpeg/SEF trailer", error.description))
        }
        var found: EmbeddedMovie?
        for claim in claims {
            guard let range = claim.range else {
                problems.append(ParseProblem(.error, "jpeg/motion photo", "broken motion photo: \(claim.why)"))
                continue
            }
            if startsMP4(source, range) {
                if found == nil {
                    found = EmbeddedMovie(kind: claim.kind, range: range, presentationTimestampUs: claim.presentationTimestampUs)
                }
            } else {
                problems.append(ParseProblem(.error, "jpeg/motion photo",
                    "broken motion photo: \(claim.why) points at \(range), which is not an MP4 (no ftyp)"))
            }
        }
        return found
    }

    /// Google Motion Photo 1.0: the MotionPhoto item is located from the end of the file, as the items after
    /// it (and its own Padding) come after it.
    static func googleMotionPhoto(_ xmp: XMPSummary, fileSize: UInt64) -> Claim? {
        let index = xmp.directory.lastIndex { $0.semantic.lowercased() == "motionphoto" }
        guard xmp.motionPhoto || index != nil else { return nil }
        let timestamp = xmp.presentationTimestampUs.flatMap { $0 >= 0 ? $0 : nil }
        guard let index else {
            return Claim(kind: .googleMotionPhoto, range: nil, presentationTimestampUs: timestamp,
                         why: "MotionPhoto=1 but Container:Directory has no MotionPhoto item")
        }
        var end = fileSize
        for item in xmp.directory[(index + 1)...] {
            let (sum, overflow) = item.length.addingReportingOverflow(item.padding)
            guard !overflow, sum <= end else {
                return Claim(kind: .googleMotionPhoto, range: nil, presentationTimestampUs: timestamp,
                             why: "Container:Directory lengths exceed the \(fileSize)-byte file")
            }
            end -= sum
        }
        let item = xmp.directory[index]
        guard item.length > 0, item.padding <= end, item.length <= end - item.padding else {
            return Claim(kind: .googleMotionPhoto, range: nil, presentationTimestampUs: timestamp,
                         why: "MotionPhoto item Length \(item.length) + Padding \(item.padding) does not fit the \(fileSize)-byte file")
        }
        end -= item.padding
        return Claim(kind: .googleMotionPhoto, range: ByteRange(offset: end - item.length, length: item.length),
                     presentationTimestampUs: timestamp, why: "Container:Directory MotionPhoto item")
    }

    /// Legacy `GCamera:MicroVideo`: the movie is the last MicroVideoOffset bytes of the file.
    static func microVideo(_ xmp: XMPSummary, fileSize: UInt64) -> Claim? {
        guard xmp.microVideo else { return nil }
        let timestamp = xmp.microVideoPresentationTimestampUs.flatMap { $0 >= 0 ? $0 : nil }
        guard let length = xmp.microVideoOffset, length > 0, length <= fileSize else {
            return Claim(kind: .microVideo, range: nil, presentationTimestampUs: timestamp,
                         why: "MicroVideo=1 with MicroVideoOffset \(xmp.microVideoOffset.map(String.init) ?? "missing") for a \(fileSize)-byte file")
        }
        return Claim(kind: .microVideo, range: ByteRange(offset: fileSize - length, length: length),
                     presentationTimestampUs: timestamp, why: "MicroVideoOffset \(length)")
    }
}
