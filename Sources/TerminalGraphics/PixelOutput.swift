import TerminalProtocol

/// How a provider's pixel pictures reach the terminal: the protocol, and whether they must be wrapped for
/// tmux passthrough.
public struct PixelOutput: Sendable, Hashable {
    public var mode: GraphicsMode
    /// Inside tmux: passthrough wrapping and the pane's offset (nil outside tmux).
    public var tmux: TmuxPassthroughTarget?
    /// Pixels per cell, known or assumed (movie frames are sized like the thumbnails).
    public var cellPixelSize: PixelSizeInCells?
    /// Sixels: the largest picture the terminal shows (XTSMGRAPHICS), nil when unknown.
    public var maxSixelSize: PixelSizeInCells?
    public var wrapForTmux: Bool { tmux != nil }

    public init(mode: GraphicsMode, wrapForTmux: Bool, cellPixelSize: PixelSizeInCells? = nil) {
        self.init(mode: mode, tmux: wrapForTmux ? TmuxPassthroughTarget(depth: 1) : nil, cellPixelSize: cellPixelSize)
    }

    public init(mode: GraphicsMode, tmux: TmuxPassthroughTarget?, cellPixelSize: PixelSizeInCells? = nil,
                maxSixelSize: PixelSizeInCells? = nil) {
        self.mode = mode
        self.maxSixelSize = maxSixelSize
        self.tmux = tmux
        self.cellPixelSize = cellPixelSize
    }
}
