import TerminalGraphics

/// How a provider's pixel pictures reach the terminal: the protocol, and whether they must be wrapped for
/// tmux passthrough (only when a pixel mode was forced inside tmux).
public struct PixelOutput: Sendable, Hashable {
    public var mode: GraphicsMode
    public var wrapForTmux: Bool
    /// Pixels per cell, known or assumed (movie frames are sized like the thumbnails).
    public var cellPixelSize: PixelSizeInCells?
    public init(mode: GraphicsMode, wrapForTmux: Bool, cellPixelSize: PixelSizeInCells? = nil) {
        self.mode = mode
        self.wrapForTmux = wrapForTmux
        self.cellPixelSize = cellPixelSize
    }
}
