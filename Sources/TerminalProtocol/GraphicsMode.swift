/// How pictures reach the terminal.
public enum GraphicsMode: String, Sendable, CaseIterable, Hashable {
    /// Unicode block/sextant symbols with colours: works everywhere, including tmux and mosh.
    case symbols
    /// DEC sixel graphics.
    case sixels
    /// The kitty graphics protocol.
    case kitty
    /// iTerm2's OSC 1337 inline images.
    case iterm

    public var isPixelProtocol: Bool { self != .symbols }

    /// Accepts the names chafa/timg users type, too (`sixel`, `iterm2`, `block`).
    public init?(userName: String) {
        switch userName.lowercased() {
        case "symbols", "symbol", "block", "blocks", "text": self = .symbols
        case "sixels", "sixel": self = .sixels
        case "kitty": self = .kitty
        case "iterm", "iterm2": self = .iterm
        default: return nil
        }
    }
}
