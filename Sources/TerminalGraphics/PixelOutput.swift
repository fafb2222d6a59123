import TerminalProtocol

/// Where pixel sequences go when livegrid runs inside tmux: wrapped `depth` times for passthrough, and placed
/// with absolute cursor moves inside the wrapper, shifted by the pane's position on the outer terminal
/// (the cursor tmux knows is the pane's; the outer terminal's cursor is the whole window's).
public struct TmuxPassthroughTarget: Sendable, Hashable {
    public var depth: Int
    public var originRow: Int
    public var originColumn: Int
    public init(depth: Int, originRow: Int = 0, originColumn: Int = 0) {
        self.depth = depth
        self.originRow = originRow
        self.originColumn = originColumn
    }

    public init(chain: TmuxChain, depth: Int) {
        self.init(depth: depth, originRow: chain.origin.row, originColumn: chain.origin.column)
    }
}

/// How a provider's pixel pictures reach the terminal: the protocol, and whether they must be wrapped for
/// tmux passthrough.
public struct PixelOutput: Sendable, Hashable {
    public var mode: GraphicsMode
    /// Inside tmux: passthrough wrapping and the pane's offset (nil outside tmux).
    public var tmux: TmuxPassthroughTarget?
    /// Pixels per cell, known or assumed (movie frames are sized like the thumbnails).
    public var cellPixelSize: PixelSizeInCells?
    public var wrapForTmux: Bool { tmux != nil }

    public init(mode: GraphicsMode, wrapForTmux: Bool, cellPixelSize: PixelSizeInCells? = nil) {
        self.init(mode: mode, tmux: wrapForTmux ? TmuxPassthroughTarget(depth: 1) : nil, cellPixelSize: cellPixelSize)
    }

    public init(mode: GraphicsMode, tmux: TmuxPassthroughTarget?, cellPixelSize: PixelSizeInCells? = nil) {
        self.mode = mode
        self.tmux = tmux
        self.cellPixelSize = cellPixelSize
    }
}
