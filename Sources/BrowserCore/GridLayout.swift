import TerminalProtocol

/// A size in terminal character cells.
public struct TerminalSize: Sendable, Hashable {
    public var columns: Int
    public var rows: Int
    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
    }
}

/// A rectangle in terminal cells (origin top-left, zero-based): TerminalProtocol's `CellBox`, so the layout's
/// rects go to the escape-sequence writers as they are.
public typealias CellRect = CellBox

extension CellBox {
    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }
}

/// Where every part of the screen goes for one terminal size and zoom level: a pure function, so reflow on
/// resize is just computing a new layout.
public struct GridLayout: Sendable, Hashable {
    /// Cell widths per zoom level; the picture height follows from a 4:3 picture on ~1:2 character cells.
    public static let zoomWidths = [12, 16, 20, 26, 34, 44, 60]
    public static let defaultZoom = 2
    /// Below this the grid degrades to a one-line-per-item list.
    public static let minimumGridSize = TerminalSize(columns: 24, rows: 9)
    /// Rows taken by the header (top) and the status bar (bottom).
    public static let headerRows = 1
    public static let statusRows = 1
    static let gap = 1

    public var terminal: TerminalSize
    public var zoom: Int
    /// True when the terminal is too small for pictures: one item per line.
    public var isList: Bool
    /// The area between header and status bar.
    public var content: CellRect
    public var columns: Int
    public var cellWidth: Int
    /// Picture rows of one cell (the caption is one more row).
    public var pictureHeight: Int
    /// Vertical distance between two grid rows (picture + caption + gap).
    public var rowPitch: Int
    /// Grid rows that fit entirely in the content area (at least 1).
    public var visibleRows: Int

    public init(terminal: TerminalSize, zoom: Int) {
        self.terminal = terminal
        let zoom = min(max(zoom, 0), Self.zoomWidths.count - 1)
        self.zoom = zoom
        let contentHeight = max(0, terminal.rows - Self.headerRows - Self.statusRows)
        content = CellRect(x: 0, y: Self.headerRows, width: terminal.columns, height: contentHeight)
        isList = terminal.columns < Self.minimumGridSize.columns || terminal.rows < Self.minimumGridSize.rows
        if isList {
            columns = 1
            cellWidth = terminal.columns
            pictureHeight = 0
            rowPitch = 1
            visibleRows = max(1, contentHeight)
            return
        }
        let wanted = min(Self.zoomWidths[zoom], terminal.columns)
        let columns = max(1, (terminal.columns + Self.gap) / (wanted + Self.gap))
        self.columns = columns
        // Spread the leftover width over the cells so the grid fills the terminal at every size.
        let width = (terminal.columns - Self.gap * (columns - 1)) / columns
        cellWidth = max(1, width)
        // 4:3 picture, character cells about twice as tall as wide; keep room for caption + gap.
        let ideal = max(2, (width * 3 + 4) / 8)
        pictureHeight = max(1, min(ideal, contentHeight - 2))
        rowPitch = pictureHeight + 1 + Self.gap
        visibleRows = max(1, (contentHeight + Self.gap) / rowPitch)
    }

    /// Items that fit on one screen.
    public var itemsPerPage: Int { columns * visibleRows }

    public func row(of index: Int) -> Int { index / max(1, columns) }
    public func column(of index: Int) -> Int { index % max(1, columns) }

    /// The whole cell (picture + caption) of `index` when the first shown grid row is `scrollRow`;
    /// nil when it is off-screen.
    public func cellRect(index: Int, scrollRow: Int) -> CellRect? {
        let visualRow = row(of: index) - scrollRow
        guard index >= 0, visualRow >= 0, visualRow < visibleRows else { return nil }
        let x = column(of: index) * (cellWidth + Self.gap)
        let y = content.y + visualRow * rowPitch
        return CellRect(x: x, y: y, width: cellWidth, height: isList ? 1 : pictureHeight + 1)
    }

    /// The picture area of a cell (the cell minus its caption line).
    public func pictureRect(index: Int, scrollRow: Int) -> CellRect? {
        guard !isList, let cell = cellRect(index: index, scrollRow: scrollRow) else { return nil }
        return CellRect(x: cell.x, y: cell.y, width: cell.width, height: pictureHeight)
    }

    /// The item under a screen position (mouse click), if any.
    public func index(atX x: Int, y: Int, scrollRow: Int, itemCount: Int) -> Int? {
        guard content.contains(x: x, y: y) else { return nil }
        let visualRow = (y - content.y) / rowPitch
        let column = x / (cellWidth + Self.gap)
        guard visualRow < visibleRows, column < columns else { return nil }
        let index = (scrollRow + visualRow) * columns + column
        guard let cell = cellRect(index: index, scrollRow: scrollRow), cell.contains(x: x, y: y),
              index < itemCount else { return nil }
        return index
    }

    /// Indices visible at `scrollRow`, in reading order.
    public func visibleIndices(scrollRow: Int, itemCount: Int) -> Range<Int> {
        let first = min(itemCount, max(0, scrollRow) * columns)
        let last = min(itemCount, first + itemsPerPage)
        return first..<last
    }

    /// The scroll row that keeps `index` visible, moving as little as possible from `current`.
    public func scrollRow(keeping index: Int, current: Int, itemCount: Int) -> Int {
        let totalRows = (itemCount + columns - 1) / max(1, columns)
        let maxScroll = max(0, totalRows - visibleRows)
        var scroll = min(max(0, current), maxScroll)
        let row = row(of: max(0, index))
        if row < scroll { scroll = row }
        if row >= scroll + visibleRows { scroll = row - visibleRows + 1 }
        return min(max(0, scroll), maxScroll)
    }

    public func maxScrollRow(itemCount: Int) -> Int {
        let totalRows = (itemCount + columns - 1) / max(1, columns)
        return max(0, totalRows - visibleRows)
    }
}
