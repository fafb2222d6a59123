import TerminalProtocol

/// The words people type for how pictures are drawn: the same vocabulary on the command line (`--graphics`,
/// `--format`, `--colors`), in config.toml (`[graphics] mode`, `colors`, `[badge] corner`, `style`) and in
/// `LIVEGRID_GRAPHICS`, parsed here and nowhere else. The executable makes these `ExpressibleByArgument`.

/// Which graphics protocol draws pictures: one the user forces, `auto` (detect) or `none` (no pictures).
public enum GraphicsModeSetting: String, Sendable, CaseIterable, Hashable {
    case auto, symbols, sixel, kitty, iterm, none

    /// The canonical words, and every name `GraphicsMode(userName:)` knows (`sixels`, `iterm2`, `block`...).
    public init?(userName: String) {
        switch userName.lowercased() {
        case "auto": self = .auto
        case "none": self = .none
        default:
            guard let mode = GraphicsMode(userName: userName) else { return nil }
            self.init(mode)
        }
    }

    public init(_ mode: GraphicsMode) {
        switch mode {
        case .symbols: self = .symbols
        case .sixels: self = .sixel
        case .kitty: self = .kitty
        case .iterm: self = .iterm
        }
    }

    /// The mode this setting forces, or nil for `auto` (detect) and `none`.
    public var forcedMode: GraphicsMode? {
        switch self {
        case .auto, .none: return nil
        case .symbols: return .symbols
        case .sixel: return .sixels
        case .kitty: return .kitty
        case .iterm: return .iterm
        }
    }

    /// "auto, symbols, sixel, kitty, iterm, none", for messages.
    public static var userNames: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// `--colors` / `[graphics] colors`: a colour depth, or `auto` (decided like chafa, `ColorDepthDecision`).
public enum ColorDepthSetting: Sendable, Hashable {
    case auto
    case depth(ColorDepth)

    public init?(userName: String) {
        if userName.lowercased() == "auto" {
            self = .auto
        } else if let depth = ColorDepth(userName: userName) {
            self = .depth(depth)
        } else {
            return nil
        }
    }

    /// The depth asked for; nil for `auto`.
    public var depth: ColorDepth? {
        if case .depth(let depth) = self { return depth }
        return nil
    }
}
