import LivePairing
import MediaFormats

/// Words the UI uses for items: kind names and the info panel's lines. No coordinates unless the user asked
/// for them (`L`): the panel is often on screen while sharing or recording a terminal.
public enum ItemDescription {
    public static func kindName(_ kind: ItemKind) -> String {
        switch kind {
        case .live: return "Live Photo"
        case .motion: return "Motion Photo"
        case .still: return "Photo"
        case .video: return "Video"
        }
    }

    /// How the panel shows a position: by default only whether there is one; coordinates after `L`.
    public enum LocationDisplay: Sendable, Equatable {
        case hidden
        case shown(String)
    }

    /// True when a file of the item carries a position.
    public static func hasLocation(_ item: LibraryItem) -> Bool {
        item.files.contains { $0.info.hasGPS }
    }

    /// Label/value lines for the info panel, in the order a photographer reads them: what and when, camera
    /// and exposure, size, location, then the Live Photo facts and the files.
    public static func infoLines(for item: LibraryItem, location: LocationDisplay = .hidden) -> [(label: String, value: String)] {
        var lines: [(String, String)] = [("Name", item.displayName), ("Kind", kindName(item.kind))]
        let info = item.primary.info
        let movieInfo = item.movie?.info
        if let date = info.captureDate.map({ readableDate($0, zone: info.captureTimeZone) })
            ?? movieInfo?.captureDate.map({ readableDate($0, zone: movieInfo?.captureTimeZone) }) {
            lines.append(("Taken", date))
        }
        if let camera = cameraName(make: info.cameraMake ?? movieInfo?.cameraMake, model: info.cameraModel ?? movieInfo?.cameraModel) {
            lines.append(("Camera", camera))
        }
        // The lens model alone, as Lightroom shows it ("iPhone 6s back camera 4.15mm f/2.2", "RF24-105mm F4 L IS USM").
        if let lens = info.lensModel ?? info.lensMake { lines.append(("Lens", lens)) }
        if let exposure = exposureLine(info) { lines.append(("Exposure", exposure)) }
        if let size = info.displaySize ?? movieInfo?.displaySize {
            lines.append(("Pixels", "\(size.width)×\(size.height) · \(megapixels(size.width * size.height)) MP"))
        }
        lines.append(("Location", locationLine(item, location)))
        lines.append(("Format", item.files.map { $0.info.format.rawValue }.joined(separator: " + ")))
        if item.kind.isLive {
            if let identifier = item.contentIdentifier { lines.append(("Identifier", identifier)) }
            if let pairing = item.pairing { lines.append(("Pairing", pairing.rawValue)) }
            if let reason = item.liveOffReason { lines.append(("Live off", reason)) }
        }
        if let movieInfo {
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
        if item.files.count > 1 {
            lines.append(("Total", byteCount(item.files.reduce(0) { $0 + $1.size })))
        }
        var warnings = item.warnings
        for file in item.files {
            warnings += file.info.problems.map { "\(file.fileName): \($0)" }
        }
        for warning in warnings { lines.append(("Warning", warning)) }
        return lines
    }

    static func locationLine(_ item: LibraryItem, _ display: LocationDisplay) -> String {
        guard hasLocation(item) else { return "none" }
        switch display {
        case .hidden: return "yes (hidden · L shows)"
        case .shown(let text): return text + " (L hides)"
        }
    }

    /// "Apple iPhone 6s"; a model that already names the maker ("Canon EOS R5") is not doubled.
    static func cameraName(make: String?, model: String?) -> String? {
        switch (make, model) {
        case (let make?, let model?):
            let brand = make.lowercased().split(separator: " ").first.map(String.init) ?? make.lowercased()
            return model.lowercased().hasPrefix(brand) ? model : make + " " + model
        case (let make?, nil): return make
        case (nil, let model?): return model
        case (nil, nil): return nil
        }
    }

    /// "1/801 s · f/2.2 · ISO 25 · 4.2 mm (29 mm equiv.)"; nil when the file has none of these.
    static func exposureLine(_ info: MediaInfo) -> String? {
        var parts: [String] = []
        if let seconds = info.exposureTime?.value, seconds > 0 { parts.append(shutter(seconds)) }
        if let f = info.fNumber?.value, f > 0 { parts.append("f/" + oneDecimal(f)) }
        if let iso = info.iso { parts.append("ISO \(iso)") }
        if let focal = info.focalLength?.value, focal > 0 {
            var text = oneDecimal(focal) + " mm"
            if let equivalent = info.focalLengthIn35mm { text += " (\(equivalent) mm equiv.)" }
            parts.append(text)
        } else if let equivalent = info.focalLengthIn35mm {
            parts.append("\(equivalent) mm equiv.")
        }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// Shutter speeds as photographers write them: 1/801 s, 1/4 s, 0.3 s, 2 s, 30 s.
    static func shutter(_ seconds: Double) -> String {
        if seconds < 0.3 { return "1/\(Int((1 / seconds).rounded())) s" }
        return oneDecimal(seconds) + " s"
    }

    /// 2.2 → "2.2", 4.0 → "4", 12.25 → "12.3": one decimal at most, no trailing zero.
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }

    /// 12,192,768 pixels → "12.2".
    static func megapixels(_ pixels: Int) -> String {
        let tenths = Int((Double(pixels) / 100_000).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// "2021:04:10 11:44:00" + "+01:00" → "10 Apr 2021 11:44:00 UTC+01:00"; QuickTime's
    /// "2021-04-10T11:43:59+0100" likewise. Without a zone in the file the panel says it is unknown.
    public static func readableDate(_ text: String, zone: String?) -> String {
        let numbers = text.split(whereSeparator: { !$0.isNumber }).map(String.init)
        guard numbers.count >= 5, let year = Int(numbers[0]), let month = Int(numbers[1]), (1...12).contains(month),
              let day = Int(numbers[2]), (1...31).contains(day) else { return text }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let time = numbers[3...].prefix(3).map { $0.count == 1 ? "0" + $0 : $0 }.joined(separator: ":")
        var zoneText = zone
        if zoneText == nil, let t = text.firstIndex(of: "T"),
           let sign = text[t...].lastIndex(where: { $0 == "+" || $0 == "-" }) {
            // ISO 8601 with an offset after the time: "+0100" or "+01:00".
            let offset = text[text.index(after: sign)...].filter(\.isNumber)
            if offset.count == 4 { zoneText = "\(text[sign])\(offset.prefix(2)):\(offset.suffix(2))" }
        } else if zoneText == nil, text.hasSuffix("Z") {
            zoneText = "+00:00"
        }
        return "\(day) \(months[month - 1]) \(year) \(time)" + (zoneText.map { " UTC" + $0 } ?? " (time zone unknown)")
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
