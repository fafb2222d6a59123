import BrowserCore
import TerminalProtocol

extension PixelSequences {
    /// `eraseThroughTmux` for the layout's rects (the writer itself, in TerminalProtocol, knows no BrowserCore).
    public static func eraseThroughTmux(_ rects: [CellRect], target: TmuxPassthroughTarget) -> [UInt8] {
        eraseThroughTmux(rects.map { CellBox(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }, target: target)
    }
}
