/// Colours a terminal can show.
public enum ColorDepth: String, Sendable, CaseIterable, Hashable {
    case truecolor = "full"
    case indexed256 = "256"
    case indexed16 = "16"
    case indexed8 = "8"

    public init?(userName: String) {
        switch userName.lowercased() {
        case "full", "truecolor", "24bit", "direct": self = .truecolor
        case "256": self = .indexed256
        case "16": self = .indexed16
        case "8": self = .indexed8
        default: return nil
        }
    }
}
