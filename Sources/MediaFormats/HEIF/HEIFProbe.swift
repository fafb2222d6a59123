/// HEIF/HEIC stills: size, rotation and thumbnail from the item properties, then Exif, XMP and a Motion
/// Photo's movie. Reads the `meta` box and the few item bytes it points at, never the image data.
///
/// Rotation convention: `MediaInfo.rotation` is the clockwise rotation (degrees) that displays the stored
/// pixels upright. HEIF `irot` counts counter-clockwise quarter turns, so angle a gives (4 - a) % 4 * 90.
/// `mirrored` means "flip left-right first, then rotate" (as for movies' display matrices).
/// The container's irot/imir are authoritative (libheif applies them when decoding), so the Exif
/// Orientation of a HEIF file is not copied into `MediaInfo.orientation`: nothing rotates twice.
public enum HEIFProbe {
    public static func probe(_ source: any ByteSource, topLevel: ISOBMFFTopLevel, format: ContainerFormat,
                             limits: ParseLimits, path: ProbePath = .fast) throws(MediaError) -> MediaInfo {
        var info = MediaInfo(format: format)
        info.problems = topLevel.problems
        let meta: HEIFMeta
        if path == .fast, let fast = probeMeta(topLevel, source: source, limits: limits) {
            meta = fast
        } else {
            guard let structure = topLevel.loadStructure("meta", from: source, limits: limits, context: "heif",
                                                         problems: &info.problems) else { return info }
            meta = HEIFMeta.parse(structure, limits: limits)
        }
        info.problems += meta.problems
        if let handler = meta.handlerType, handler != "pict" {
            info.problems.append(ParseProblem(.warning, "heif/hdlr", "handler '\(handler)' is not 'pict'"))
        }
        applyPrimaryImage(meta, source: source, limits: limits, to: &info)
        applyExif(meta, source: source, limits: limits, to: &info)
        let hasMotionPhotoBox = applyMotionPhotoBox(topLevel, source: source, to: &info)
        applyXMP(meta, hasMotionPhotoBox: hasMotionPhotoBox, source: source, limits: limits, path: path, to: &info)
        return info
    }

    /// The `meta` box read by the probe-only walk; nil when it cannot be read or the walk declines (the full
    /// parser then reports why).
    static func probeMeta(_ topLevel: ISOBMFFTopLevel, source: any ByteSource, limits: ParseLimits) -> HEIFMeta? {
        // try?: the probe declines (nil) and the full parser reports why.
        guard let box = topLevel.first("meta"), box.range.length <= UInt64(limits.maxStructureBytes),
              let bytes = try? source.readExactly(at: box.range.offset, count: Int(box.range.length)) else { return nil }
        return HEIFMeta.parseForProbe(ByteReader(bytes, baseOffset: box.range.offset), limits: limits)
    }

    static func applyPrimaryImage(_ meta: HEIFMeta, source: any ByteSource, limits: ParseLimits, to info: inout MediaInfo) {
        guard let primary = meta.primaryItemID else {
            info.problems.append(ParseProblem(.error, "heif/pitm", "no primary item"))
            return
        }
        if let size = meta.spatialExtent(of: primary) ?? gridSize(primary, meta: meta, source: source, limits: limits) {
            info.pixelWidth = size.width
            info.pixelHeight = size.height
        } else {
            info.problems.append(ParseProblem(.warning, "heif/iprp", "primary item \(primary) has no size (ispe)"))
        }
        if let (rotation, mirrored) = displayTransform(meta.properties(of: primary)) {
            info.rotation = rotation
            info.mirrored = mirrored
        }
        if let thumbnail = meta.items(referring: "thmb", to: primary).first,
           let size = meta.spatialExtent(of: thumbnail) {
            info.thumbnailWidth = size.width
            info.thumbnailHeight = size.height
        }
    }

    /// Composes irot/imir in association order (the order HEIF applies them) into "flip horizontally if
    /// mirrored, then rotate clockwise": a left-right flip after a rotation r equals rotation -r after the
    /// flip, and a top-bottom flip (imir axis 1) is a left-right flip plus 180 degrees. nil without either.
    static func displayTransform(_ properties: [HEIFMeta.Property]) -> (rotation: Int, mirrored: Bool)? {
        var rotation = 0, mirrored = false, found = false
        for property in properties {
            switch property {
            case .rotation(let quarterTurns):
                rotation = (rotation + (4 - quarterTurns) % 4 * 90) % 360
                found = true
            case .mirror(let axis):
                rotation = ((axis == 1 ? 180 : 0) - rotation + 360) % 360
                mirrored.toggle()
                found = true
            default:
                break
            }
        }
        return found ? (rotation, mirrored) : nil
    }

    /// A grid item's output size from its data, when it lacks an ispe.
    static func gridSize(_ id: UInt32, meta: HEIFMeta, source: any ByteSource, limits: ParseLimits) -> (width: Int, height: Int)? {
        guard meta.item(id)?.type == "grid",
              // try?: a grid that cannot be read has no size; the decoder reports the damage.
              let data = try? meta.data(of: id, from: source, limits: limits),
              let grid = try? HEIFImageGrid(parsing: data.bytes) else { return nil }
        return (grid.outputWidth, grid.outputHeight)
    }

    /// The Exif item: its data starts with a 4-byte exif_tiff_header_offset, then (usually) `Exif\0\0`.
    static func applyExif(_ meta: HEIFMeta, source: any ByteSource, limits: ParseLimits, to info: inout MediaInfo) {
        let exifItems = meta.items.filter { $0.type == "Exif" }.map(\.id)
        let describingPrimary = meta.primaryItemID.map { meta.items(referring: "cdsc", to: $0) } ?? []
        guard let id = exifItems.first(where: describingPrimary.contains) ?? exifItems.first else { return }
        do throws(MediaError) {
            let (bytes, fileOffset) = try meta.data(of: id, from: source, limits: limits)
            var r = ByteReader(bytes, baseOffset: fileOffset)
            let headerOffset = try r.readU32()
            guard UInt64(headerOffset) <= UInt64(r.remaining) else {
                throw MediaError.invalid("exif_tiff_header_offset \(headerOffset) past the item's \(bytes.count) bytes")
            }
            let tiffStart = 4 + Int(headerOffset)
            let tiff = Array(bytes[tiffStart...])
            let orientationBefore = info.orientation
            ExifReader.parse(tiff: tiff, fileOffset: fileOffset + UInt64(tiffStart), limits: limits).apply(to: &info)
            info.orientation = orientationBefore
        } catch {
            info.problems.append(ParseProblem(.warning, "heif/Exif", "item \(id): \(error.description)"))
        }
    }

    static func applyXMP(_ meta: HEIFMeta, hasMotionPhotoBox: Bool, source: any ByteSource, limits: ParseLimits,
                         path: ProbePath = .fast, to info: inout MediaInfo) {
        for item in meta.items where item.type == "mime" && item.contentType == "application/rdf+xml" {
            do {
                let packet = try meta.data(of: item.id, from: source, limits: limits).bytes
                info.hasXMP = true
                let xmp = XMPReader.parse(packet, limits: limits, path: path)
                info.problems += xmp.problems
                info.hasGPS = info.hasGPS || xmp.hasGPS
                if info.contentIdentifier == nil, let id = xmp.contentIdentifier {
                    info.contentIdentifier = id
                    info.contentIdentifierSource = "xmp"
                }
                if hasMotionPhotoBox {
                    // The mpvd box holds the movie; the XMP adds only its timestamp.
                    if info.embeddedMovie?.presentationTimestampUs == nil {
                        info.embeddedMovie?.presentationTimestampUs = xmp.presentationTimestampUs
                    }
                } else {
                    applyXMPMotionPhoto(xmp, source: source, to: &info)
                }
            } catch {
                info.problems.append(ParseProblem(.warning, "heif/xmp", "item \(item.id): \(error.description)"))
            }
        }
    }

    /// Motion Photo 1.0 in XMP: the movie is the last `Length` bytes before `Padding` at the end of the file
    /// (located by the same rules as in JPEGs); a claim that is not an MP4 is a broken motion photo.
    static func applyXMPMotionPhoto(_ xmp: XMPSummary, source: any ByteSource, to info: inout MediaInfo) {
        guard let claim = MotionPhotoLocator.googleMotionPhoto(xmp, fileSize: source.size) else { return }
        guard let range = claim.range, MotionPhotoLocator.startsMP4(source, range) else {
            info.problems.append(ParseProblem(.error, "heif/xmp", "broken motion photo: \(claim.why)"
                + (claim.range.map { " points at \($0), which is not an MP4 (no ftyp)" } ?? "")))
            return
        }
        info.embeddedMovie = EmbeddedMovie(kind: .googleMotionPhoto, range: range,
                                           presentationTimestampUs: claim.presentationTimestampUs)
    }

    /// Samsung/Google HEIC Motion Photos put the MP4 in a top-level `mpvd` box.
    /// Returns whether the file has one (valid or not).
    static func applyMotionPhotoBox(_ topLevel: ISOBMFFTopLevel, source: any ByteSource, to info: inout MediaInfo) -> Bool {
        guard let mpvd = topLevel.first("mpvd") else { return false }
        let payload = mpvd.payloadRange
        guard MotionPhotoLocator.startsMP4(source, payload) else {
            info.problems.append(ParseProblem(.error, "heif/mpvd", "broken motion photo: the mpvd payload at \(payload.offset) is not an MP4"))
            return true
        }
        info.embeddedMovie = EmbeddedMovie(kind: .heifMpvd, range: payload)
        return true
    }
}
