import BrowserCore
import CNCurses
import TerminalGraphics

/// A screen in memory: what the renderer drew, cell by cell, with attributes and colours, for its unit tests
/// (no curses, no terminal). Wide characters take two cells, the second left empty, as on a terminal.
final class MemorySurface: DrawingSurface {
    struct Cell: Equatable {
        var character: Character = " "
        var attributes: attr_t = 0
        var color: UIColor?
        /// True when a symbol picture drew this cell.
        var isPicture = false
    }

    let size: TerminalSize
    private(set) var cells: [[Cell]]
    /// Every symbol picture drawn, with where it went.
    private(set) var pictures: [(image: RenderedImage, placed: CellRect)] = []
    private(set) var commits = 0

    init(size: TerminalSize) {
        self.size = size
        cells = Array(repeating: Array(repeating: Cell(), count: size.columns), count: size.rows)
    }

    func clear() {
        cells = Array(repeating: Array(repeating: Cell(), count: size.columns), count: size.rows)
        pictures = []
    }

    func commit() { commits += 1 }

    func write(_ text: String, x: Int, y: Int, attributes: attr_t, color: UIColor?) {
        guard cells.indices.contains(y) else { return }
        var column = x
        for character in text {
            let width = DisplayWidth.of(String(character))
            guard column + max(width, 1) <= size.columns else { break }
            cells[y][column] = Cell(character: character, attributes: attributes, color: color)
            if width == 2 { cells[y][column + 1] = Cell(character: "\u{0}", attributes: attributes, color: color) }
            column += max(width, 1)
        }
    }

    func picture(_ picture: RenderedImage, placed: CellRect) {
        pictures.append((picture, placed))
        for row in 0..<placed.height where cells.indices.contains(placed.y + row) {
            for column in 0..<placed.width where placed.x + column < size.columns {
                guard let cell = picture.cell(column: column, row: row) else { continue }
                cells[placed.y + row][placed.x + column] = Cell(character: Character(cell.character),
                                                                attributes: cell.bold ? lg_a_bold() : 0, isPicture: true)
            }
        }
    }

    // MARK: reading it back

    /// Row `y` as text (the empty halves of wide characters left out).
    func line(_ y: Int) -> String {
        String(cells[y].map(\.character).filter { $0 != "\u{0}" })
    }

    /// `width` columns of row `y` from column `x`, as text.
    func text(x: Int, y: Int, width: Int) -> String {
        String(cells[y][x..<min(size.columns, x + width)].map(\.character).filter { $0 != "\u{0}" })
    }

    /// Where `text` starts on the screen (first match, top to bottom), in columns.
    func find(_ text: String) -> (x: Int, y: Int)? {
        for y in 0..<size.rows {
            let characters = cells[y].map(\.character)
            let line = self.line(y)
            guard let range = line.range(of: text) else { continue }
            // The column is the count of cells before the match, wide characters counting twice.
            let prefix = line[line.startIndex..<range.lowerBound]
            var column = 0, seen = 0
            while seen < prefix.count, column < characters.count {
                if characters[column] != "\u{0}" { seen += 1 }
                column += 1
            }
            while column < characters.count, characters[column] == "\u{0}" { column += 1 }
            return (column, y)
        }
        return nil
    }

    func isBold(x: Int, y: Int) -> Bool { cells[y][x].attributes & lg_a_bold() != 0 }
}
