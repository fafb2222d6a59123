import BrowserCore
import CNCurses
import TerminalGraphics
import TerminalProtocol

/// Where the browser draws: curses (`CursesSurface`) on screen, a grid of cells in memory (`MemorySurface`)
/// in the renderer's unit tests. Only the primitives are behind it; clipping, padding, boxes and the
/// centring of pictures stay in `ScreenPainter`, so the tests run that code too.
protocol DrawingSurface {
    var size: TerminalSize { get }
    /// Starts a frame on an empty screen.
    func clear()
    /// Writes `text` (already fitted to the screen) at (x, y).
    func write(_ text: String, x: Int, y: Int, attributes: attr_t, color: UIColor?)
    /// Draws a symbol picture into `placed` (its cells, already centred and clipped to its box).
    func picture(_ picture: RenderedImage, placed: CellRect)
    /// Ends the frame (curses: into the virtual screen, for the loop's `doupdate`).
    func commit()
}

/// Text and picture primitives over a `DrawingSurface`. Everything is drawn into curses' buffer; `doupdate`
/// sends only the differences, so the browser repaints its whole model each frame without clearing the terminal.
struct ScreenPainter {
    let surface: any DrawingSurface
    var size: TerminalSize { surface.size }

    init(surface: any DrawingSurface) {
        self.surface = surface
    }

    /// Writes `text` at (x, y), cut and padded to `width` columns, clipped to the screen.
    func text(_ text: String, x: Int, y: Int, width: Int, attributes: attr_t = 0, color: UIColor? = nil,
              pad: Bool = true) {
        guard y >= 0, y < size.rows, x >= 0, x < size.columns else { return }
        let width = min(width, size.columns - x)
        guard width > 0 else { return }
        let shown = pad ? DisplayWidth.pad(text, width: width) : DisplayWidth.fit(text, width: width)
        surface.write(shown, x: x, y: y, attributes: attributes, color: color)
    }

    /// Fills a rectangle with one character.
    func fill(_ rect: CellRect, character: Character = " ", attributes: attr_t = 0, color: UIColor? = nil) {
        let row = String(repeating: character, count: max(0, rect.width))
        for y in rect.y..<(rect.y + rect.height) {
            text(row, x: rect.x, y: y, width: rect.width, attributes: attributes, color: color)
        }
    }

    /// Where a picture of `picture` cells sits inside `rect`: centred, clipped when larger.
    static func placement(of picture: RenderedImage, in rect: CellRect) -> CellRect {
        CellRect(x: rect.x + max(0, (rect.width - picture.columns) / 2),
                 y: rect.y + max(0, (rect.height - picture.rows) / 2),
                 width: min(picture.columns, rect.width), height: min(picture.rows, rect.height))
    }

    /// Draws a symbol-mode picture into `rect` (centred).
    func picture(_ picture: RenderedImage, in rect: CellRect) {
        surface.picture(picture, placed: Self.placement(of: picture, in: rect))
    }

    /// A single-line box around `rect`.
    func box(_ rect: CellRect, color: UIColor) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let inner = rect.width - 2
        text("┌" + String(repeating: "─", count: inner) + "┐", x: rect.x, y: rect.y, width: rect.width, color: color)
        for y in (rect.y + 1)..<(rect.y + rect.height - 1) {
            text("│", x: rect.x, y: y, width: 1, color: color)
            text(String(repeating: " ", count: inner), x: rect.x + 1, y: y, width: inner, color: color)
            text("│", x: rect.x + rect.width - 1, y: y, width: 1, color: color)
        }
        text("└" + String(repeating: "─", count: inner) + "┘", x: rect.x, y: rect.y + rect.height - 1,
             width: rect.width, color: color)
    }
}

/// The screen: stdscr through ncurses.
struct CursesSurface: DrawingSurface {
    let window: UnsafeMutablePointer<WINDOW>
    let colors: CursesColors
    let size: TerminalSize
    /// Symbol pictures go to the terminal directly through this (curses keeps a marker), when set.
    var direct: DirectCellOutput? = nil

    func clear() { werase(window) }

    func commit() { wnoutrefresh(window) }

    func write(_ text: String, x: Int, y: Int, attributes: attr_t, color: UIColor?) {
        lg_set_attr(window, attributes, color.map { Int32($0.rawValue) } ?? 0)
        // The bottom-right cell makes waddstr report ERR after writing it (the cursor cannot advance); harmless.
        // In a locale that is not UTF-8 curses would print every other byte as `M-x` (issue 31.6).
        _ = mvwaddstr(window, Int32(y), Int32(x), TerminalTextEncoding.asciiOnly ? AsciiText.fold(text) : text)
        lg_set_attr(window, 0, 0)
    }

    func picture(_ picture: RenderedImage, placed: CellRect) {
        if let direct {
            direct.add(CellPlacement(image: picture, x: placed.x, y: placed.y, width: placed.width, height: placed.height))
            for row in 0..<placed.height where placed.y + row < size.rows {
                for column in 0..<placed.width where placed.x + column < size.columns {
                    lg_put_cell(window, Int32(placed.y + row), Int32(placed.x + column),
                                DirectCellOutput.markerCharacter(row: placed.y + row), DirectCellOutput.markerAttribute, 0)
                }
            }
            return
        }
        for row in 0..<placed.height {
            let y = placed.y + row
            guard y < size.rows else { break }
            for column in 0..<placed.width {
                let x = placed.x + column
                guard x < size.columns, let cell = picture.cell(column: column, row: row) else { continue }
                let (pair, attributes) = colors.pair(for: cell)
                // Only single-column symbols keep the grid aligned; anything else becomes a space.
                var character = DisplayWidth.of(cell.character) == 1 ? cell.character : " "
                if TerminalTextEncoding.asciiOnly, !character.isASCII {
                    character = TerminalTextEncoding.asciiStandIn(for: character)?.unicodeScalars.first ?? " "
                }
                lg_put_cell(window, Int32(y), Int32(x), wchar_t(bitPattern: character.value),
                            (cell.bold ? lg_a_bold() : 0) | attributes, pair)
            }
        }
    }
}
