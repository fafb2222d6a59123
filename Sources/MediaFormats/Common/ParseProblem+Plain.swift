extension ContainerFormat {
    /// The name a user knows the format by ("JPEG", "HEIC", "MOV movie").
    public var plainName: String {
        switch self {
        case .jpeg: return "JPEG"
        case .heif: return "HEIC"
        case .png: return "PNG"
        case .gif: return "GIF"
        case .webp: return "WebP"
        case .tiff: return "TIFF"
        case .bmp: return "BMP"
        case .quickTime: return "MOV movie"
        case .mp4: return "MP4 movie"
        case .unknown: return "file"
        }
    }
}

extension ParseProblem {
    /// The problem in the user's terms (issue 15.5), for lists such as `livegrid scan`: "damaged MOV movie:
    /// the file ends early" instead of "isobmff: invalid data: box 'mdat' at 28 has size 22901 but only 1163
    /// byte(s) remain". The parser's own words stay in `context` and `message` for the info panel and
    /// `--verbose`.
    public func plainSentence(format: ContainerFormat) -> String {
        if message.hasPrefix("not a picture:") { return message }
        if message.hasPrefix("broken motion photo") { return "broken Motion Photo: its movie cannot be found in the file" }
        let name = format.plainName
        let lowered = message.lowercased()
        if lowered.contains("byte(s) remain") || lowered.contains("past the end") || lowered.contains("truncated")
            || lowered.contains("more byte(s) needed") {
            return "damaged \(name): the file ends early"
        }
        if context.hasPrefix("exif") { return "damaged \(name): its Exif metadata cannot be read" }
        if context.hasPrefix("xmp") || context.hasSuffix("/xmp") { return "damaged \(name): its XMP metadata cannot be read" }
        if context == "file" { return "unreadable: \(message)" }
        // A remote file that could not be read: the reason is already the user's sentence (a broken link, a
        // timeout), not a fact about the file's structure.
        if context == "remote" { return message }
        return severity == .error ? "damaged \(name): its structure is broken" : "damaged \(name): part of its structure is broken"
    }
}
