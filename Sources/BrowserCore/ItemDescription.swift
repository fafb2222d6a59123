import LivePairing
import MediaFormats

/// Words the UI uses for items: kind names and the info panel's lines. No GPS, ever: the panel is often
/// on screen while sharing or recording a terminal.
public enum ItemDescription {
    public static func kindName(_ kind: ItemKind) -> String {
        switch kind {
        case .live: return "Live Photo"
        case .motion: return "Motion Photo"
        case .still: return "Photo"
        case .video: return "Video"
        }
    }

    /// Label/value lines for the info panel.
    public static func infoLines(for item: LibraryItem) -> [(label: String, value: String)] {
        var lines: [(String, String)] = [("Name", item.displayName), ("Kind", kindName(item.kind))]
        let info = item.primary.info
        let camera = [info.cameraMake, info.cameraModel].compactMap { $0 }.joined(separator: " ")
        if !camera.isEmpty { lines.append(("Camera", camera)) }
        if let date = info.captureDate ?? item.movie?.info.captureDate { lines.append(("Date", date)) }
        if let size = info.displaySize { lines.append(("Size", "\(size.width)×\(size.height)")) }
        lines.append(("Format", info.format.rawValue))
        if let identifier = item.contentIdentifier { lines.append(("Identifier", identifier)) }
        if let pairing = item.pairing { lines.append(("Pairing", pairing.rawValue)) }
        if let movieInfo = item.movie?.info {
            if let duration = movieInfo.duration { lines.append(("Duration", formatSeconds(duration))) }
            if let still = movieInfo.stillImageTime { lines.append(("Still time", formatSeconds(still))) }
            if let codec = movieInfo.videoCodec { lines.append(("Codec", codec)) }
        }
        if let embedded = item.still?.info.embeddedMovie {
            lines.append(("Movie", "embedded (\(embedded.kind.rawValue), \(byteCount(embedded.range.length)))"))
        }
        for file in item.files {
            lines.append(("File", "\(file.path) (\(byteCount(file.size)))"))
        }
        var warnings = item.warnings
        for file in item.files {
            warnings += file.info.problems.map { "\(file.fileName): \($0)" }
        }
        for warning in warnings { lines.append(("Warning", warning)) }
        return lines
    }

    public static func formatSeconds(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        return "\(milliseconds / 1000).\(String(format3(milliseconds % 1000)))s"
    }

    private static func format3(_ value: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, 3 - text.count)) + text
    }

    public static func byteCount(_ bytes: UInt64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return "\(Int((value * 10).rounded()) / 10).\(Int((value * 10).rounded()) % 10) \(units[unit])"
    }
}
