/// The `?` key reference: one line per command group, with the keys bound to it now (rebindings included).
public enum HelpScreen {
    public static let rows: [(String, [KeyCommand])] = [
        ("Up", [.moveUp]), ("Down", [.moveDown]), ("Left", [.moveLeft]), ("Right", [.moveRight]),
        ("Page up", [.pageUp]), ("Page down", [.pageDown]), ("First item", [.first]), ("Last item", [.last]),
        ("Filter by name", [.filter]), ("Rescan", [.rescan]), ("Bigger", [.zoomIn]), ("Smaller", [.zoomOut]),
        ("Zoom 100 %/fit", [.actualSize]),
        ("Open viewer", [.open]), ("Info panel", [.info]), ("Play (hold)", [.play]), ("Sound on/off", [.sound]), ("Back", [.back]),
        ("Redraw", [.redraw]), ("Help", [.help]), ("Quit", [.quit]),
        ("Retry download", [.retry]), ("Transfers", [.activity]), ("Parent folder", [.parent]),
        ("All below (-r)", [.recursive]),
        ("Key photo", [.keyPhoto]),
        ("Sort order", [.sort]), ("Group/timeline", [.group]), ("Jump to date", [.jumpToDate]),
    ] + TriageKeys.helpRows

    /// "Rating 0-5      0-5" style lines, label padded to `labelWidth`.
    public static func lines(keymap: Keymap, labelWidth: Int = 16) -> [String] {
        rows.map { label, commands in
            DisplayWidth.pad(label, width: labelWidth) + keys(for: commands, in: keymap)
        }
    }

    /// The keys of `commands`: a run of single digits bound one per command (rate-0 … rate-5 = 0 … 5)
    /// reads "0-5"; anything else lists every key, command by command.
    public static func keys(for commands: [KeyCommand], in keymap: Keymap) -> String {
        let perCommand = commands.map { keymap.keys(for: $0).map(\.displayName) }
        let digits = perCommand.compactMap { $0.count == 1 ? Int($0[0]) : nil }
        if commands.count > 2, digits.count == commands.count,
           zip(digits, digits.dropFirst()).allSatisfy({ $1 == $0 + 1 }), let first = digits.first, let last = digits.last {
            return "\(first)-\(last)"
        }
        var seen: Set<String> = []
        return perCommand.flatMap { $0 }.filter { seen.insert($0).inserted }.joined(separator: " ")
    }
}
