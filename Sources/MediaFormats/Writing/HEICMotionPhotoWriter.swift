/// HEIC Motion Photos as Samsung and Google write them: the movie in a top-level `mpvd` box at the end of
/// the file, and Google's Motion Photo XMP (in an XMP `mime` item) whose Container:Directory gives the
/// movie's length and, as the primary image's Padding, the mpvd header between the image and the movie.
enum HEICMotionPhotoWriter {
    /// The mpvd header is written in its 16-byte largesize form, as in the Google sample file
    /// (motion-photo.heic: Primary Padding 16); it also holds movies past 4 GiB.
    static let movieBoxHeaderLength: UInt64 = 16

    static func movieBoxHeader(movieLength: UInt64) -> [UInt8] {
        BigEndian.u32(1) + Array("mpvd".utf8) + BigEndian.u64(movieBoxHeaderLength + movieLength)
    }

    /// Drops every `mpvd` box and the Motion Photo properties of the XMP item (other XMP is kept).
    static func removeMotion(_ editor: inout HEIFMetaEditor) throws(MediaError) {
        try editor.dropTopLevelBoxes("mpvd")
        guard let xmp = editor.xmpItemID else { return }
        let packet = try editor.data(of: xmp)
        let stripped = XMPPacketEditor.removingMotionPhoto(packet)
        if stripped != packet { try editor.replaceData(of: xmp, with: stripped) }
    }

    /// The still of a HEIC Motion Photo on its own.
    static func stillWithoutMotion(_ source: any ByteSource, limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        var editor = try HEIFMetaEditor(source, limits: limits)
        try removeMotion(&editor)
        return try editor.assembly()
    }

    /// A HEIC Motion Photo: `still` (a HEIC in memory; any old mpvd dropped) with Motion Photo XMP, then
    /// an `mpvd` box holding the whole `movie` (copied as a source range: the assembly's ranges refer to it).
    static func motionPhoto(still: [UInt8], movie: any ByteSource, presentationTimestampUs: Int64,
                            limits: ParseLimits = .default) throws(MediaError) -> ByteAssembly {
        let format = MediaProbe.sniff(try movie.read(at: 0, count: 16))
        guard format.isMovie else { throw MediaError.unsupported("the movie is not QuickTime or MP4 (looks like \(format.rawValue))") }
        let stillSource = MemoryByteSource(still)
        var editor = try HEIFMetaEditor(stillSource, limits: limits)
        try removeMotion(&editor)
        let existing = try editor.xmpItemID.map { id throws(MediaError) in (id, try editor.data(of: id)) }
        let packet = XMPPacketEditor.addingMotionPhoto(existing.map { XMPPacketEditor.removingMotionPhoto($0.1) },
                                                       movieMime: format == .quickTime ? "video/quicktime" : "video/mp4",
                                                       movieLength: movie.size, presentationTimestampUs: presentationTimestampUs,
                                                       primaryMime: "image/heic", primaryPadding: movieBoxHeaderLength)
        if let (id, _) = existing {
            try editor.replaceData(of: id, with: packet)
        } else {
            guard let primary = editor.primaryItemID else { throw MediaError.invalid("the HEIC has no primary item (pitm)") }
            try editor.addItem(type: "mime", contentType: "application/rdf+xml", bytes: packet, describing: primary)
        }
        var assembly = ByteAssembly()
        assembly.append(try editor.assembly().bytes(from: stillSource))
        assembly.append(movieBoxHeader(movieLength: movie.size))
        assembly.append(range: ByteRange(offset: 0, length: movie.size))
        return assembly
    }
}
