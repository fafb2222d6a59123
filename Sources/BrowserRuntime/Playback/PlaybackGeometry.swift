import Foundation
import GraphicsSettings
import Imaging
import TerminalGraphics
import TerminalProtocol

/// Sizes and bytes shared by the browser's playback and `livegrid play`.
public enum PlaybackGeometry {
    /// chafa work factor for movie frames (chafa's default is 0.5). Measured on a 1080p30 movie at 200x60
    /// symbols: 0.5 drops 5 % of frames at 55 ms CPU per frame, 0.2 drops none at 42 ms, and the picture of a
    /// frame seen for 33 ms looks the same. `LIVEGRID_PLAY_WORK` overrides it.
    public static var chafaWorkFactor: Float {
        RuntimeEnvironment.launch.playWorkFactor ?? 0.2
    }

    /// True when movie frames in symbol mode go through chafa rather than `QuadrantRenderer`
    /// (`LIVEGRID_PLAY_RENDERER=chafa`, to compare cost and look).
    public static var symbolFramesUseChafa: Bool {
        RuntimeEnvironment.launch.playFramesThroughChafa
    }

    /// The renderer for movie frames: quadrant blocks in symbol mode (DECISIONS.md: chafa's symbol search
    /// costs more than the frame's decode), chafa with the pixel protocol otherwise.
    public static func frameRenderer(mode: GraphicsMode, colorDepth: ColorDepth,
                                     cellPixelSize: PixelSizeInCells?,
                                     maxSixelSize: PixelSizeInCells? = nil) -> any CellImageRenderer {
        if mode == .symbols && !symbolFramesUseChafa {
            return QuadrantRenderer(colorDepth: colorDepth, cellPixelSize: cellPixelSize)
        }
        return ChafaRenderer(mode: mode, colorDepth: colorDepth, cellPixelSize: cellPixelSize, maxSixelSize: maxSixelSize,
                             workFactor: mode == .symbols ? chafaWorkFactor : nil)
    }

    /// Pixels to decode for a picture of `columns` x `rows` cells: in symbol mode what the renderer samples
    /// (2x2 samples per cell for quadrants, libswscale's area average doing the sampling; 8x16 px for
    /// chafa), every extra pixel being scaling work for nothing; in pixel modes what the cells cover.
    public static func pixelBox(columns: Int, rows: Int, mode: GraphicsMode, cell: PixelSizeInCells?) -> PixelSize {
        guard mode == .symbols else { return CellGeometry.pixelBox(columns: columns, rows: rows, cell: cell) }
        return symbolFramesUseChafa ? CellGeometry.symbolPixelBox(columns: columns, rows: rows)
            : QuadrantRenderer.pixelBox(columns: columns, rows: rows, cell: cell)
    }

    /// One frame drawn in place from the top-left corner: each row positioned explicitly (no newline can
    /// scroll), nothing cleared, so the terminal only repaints what it is sent.
    public static func inPlaceBytes(_ image: RenderedImage, insideTmux: Bool) -> [UInt8] {
        if image.mode != .symbols {
            return TerminalSequences.cursorHome + (insideTmux ? image.bytesWrappedForTmux : image.bytes)
        }
        var text = ""
        text.reserveCapacity(image.columns * image.rows * 24)
        for (row, line) in image.ansiLines().enumerated() {
            text += String(decoding: PixelSequences.moveCursor(row: row, column: 0), as: UTF8.self)
            text += line
        }
        return Array(text.utf8)
    }
}
