import BrowserCore
import CNCurses

/// Text and picture primitives over stdscr. Everything is drawn into curses' buffer; `doupdate` sends only
/// the differences, so the browser repaints its whole model each frame without clearing the terminal.
struct ScreenPainter {
    let window: UnsafeMutablePointer<WINDOW>
    let colors: CursesColors
    let size: TerminalSize

    /// Writes `text` at (x, y), cut and padded to `width` columns, clipped to the screen.
    func text(_ text: String, x: Int, y: Int, width: Int, attributes: attr_t = 0, color: UIColor? = nil,
              pad: Bool = true) {
        guard y >= 0, y < size.rows, x >= 0, x < size.columns else { return }
        let width = min(width, size.columns - x)
        guard width > 0 else { return }
        let shown = pad ? DisplayWidth.pad(text, width: width) : DisplayWidth.fit(text, width: width)
        lg_set_attr(window, attributes, color.map { Int32($0.rawValue) } ?? 0)
        // The bottom-right cell makes waddstr report ERR after writing it (the cursor cannot advance); harmless.
        _ = mvwaddstr(window, Int32(y), Int32(x), shown)
        lg_set_attr(window, 0, 0)
    }

    /// Fills a rectangle with one character.
    func fill(_ rect: CellRect, character: Character = " ", attributes: attr_t = 0, color: UIColor? = nil) {
        let row = String(repeating: character, count: max(0, rect.width))
        for y in rect.y..<(rect.y + rect.height) {
            text(row, x: rect.x, y: y, width: rect.width, attributes: attributes, color: color)
        }
    }

    /// Draws a cell picture into `rect`, centred when smaller, clipped when larger.
    func picture(_ picture: CellPicture, in rect: CellRect) {
        let offsetX = max(0, (rect.width - picture.width) / 2)
        let offsetY = max(0, (rect.height - picture.height) / 2)
        for row in 0..<min(picture.height, rect.height) {
            let y = rect.y + offsetY + row
            guard y < size.rows else { break }
            for column in 0..<min(picture.width, rect.width) {
                let x = rect.x + offsetX + column
                guard x < size.columns, let cell = picture.cell(x: column, y: row) else { continue }
                let pair = colors.pair(foreground: cell.foreground, background: cell.background)
                let scalar = cell.character.unicodeScalars.first ?? " "
                // Only single-column symbols keep the grid aligned; anything else becomes a space.
                let character = DisplayWidth.of(scalar) == 1 ? scalar : " "
                lg_put_cell(window, Int32(y), Int32(x), wchar_t(bitPattern: character.value), 0, pair)
            }
        }
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
