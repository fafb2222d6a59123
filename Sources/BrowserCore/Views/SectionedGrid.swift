/// The grid with header rows between sections (folder or month): rows are either a one-line header or a row
/// of items, and `scrollRow` counts these rows. Headers hold no item, so the selection (an item index) can
/// never land on one. A pure function of the layout and the sections, like `GridLayout`.
public struct SectionedGrid: Sendable {
    public enum Row: Sendable, Hashable {
        case header(section: Int)
        case items(Range<Int>)
    }

    /// What one screen shows: rows with their top line.
    public struct VisibleRow: Sendable, Hashable {
        public var row: Row
        public var y: Int
    }

    public let layout: GridLayout
    public let sections: [ViewSection]
    /// The first row of each section (its header).
    private let firstRows: [Int]
    public let rowCount: Int

    public init(layout: GridLayout, sections: [ViewSection]) {
        self.layout = layout
        self.sections = sections
        var firstRows: [Int] = []
        firstRows.reserveCapacity(sections.count)
        var row = 0
        for section in sections {
            firstRows.append(row)
            row += 1 + Self.itemRows(section.range.count, columns: layout.columns)
        }
        self.firstRows = firstRows
        rowCount = row
    }

    private static func itemRows(_ count: Int, columns: Int) -> Int { (count + columns - 1) / max(1, columns) }

    private var columns: Int { max(1, layout.columns) }

    /// Lines a row takes on screen (an item row without its trailing gap fits in the last lines).
    func height(of row: Row) -> Int {
        if case .header = row { return 1 }
        return layout.isList ? 1 : layout.rowPitch
    }

    private func fitHeight(of row: Row) -> Int {
        if case .header = row { return 1 }
        return layout.isList ? 1 : layout.pictureHeight + 1
    }

    /// The section holding `index` (binary search over the ranges, which are in order).
    func section(ofItem index: Int) -> Int? {
        var low = 0, high = sections.count - 1, found: Int?
        while low <= high {
            let middle = (low + high) / 2
            if sections[middle].range.lowerBound <= index, !sections[middle].range.isEmpty {
                found = middle
                low = middle + 1
            } else if sections[middle].range.lowerBound <= index {
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        guard let found, sections[found].range.contains(index) else { return nil }
        return found
    }

    public func row(at rowIndex: Int) -> Row? {
        guard rowIndex >= 0, rowIndex < rowCount else { return nil }
        var low = 0, high = firstRows.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if firstRows[middle] <= rowIndex { low = middle } else { high = middle - 1 }
        }
        let local = rowIndex - firstRows[low]
        if local == 0 { return .header(section: low) }
        let range = sections[low].range
        let start = range.lowerBound + (local - 1) * columns
        return .items(start..<min(range.upperBound, start + columns))
    }

    /// The row of an item.
    public func row(ofItem index: Int) -> Int? {
        guard let section = section(ofItem: index) else { return nil }
        return firstRows[section] + 1 + (index - sections[section].range.lowerBound) / columns
    }

    public func column(ofItem index: Int) -> Int {
        guard let section = section(ofItem: index) else { return 0 }
        return (index - sections[section].range.lowerBound) % columns
    }

    /// The rows on screen from `scrollRow`, with their top line, as long as they fit entirely.
    public func visibleRows(scrollRow: Int) -> [VisibleRow] {
        var result: [VisibleRow] = []
        var y = layout.content.y
        let bottom = layout.content.y + layout.content.height
        var index = max(0, scrollRow)
        while let row = row(at: index), y + fitHeight(of: row) <= bottom {
            result.append(VisibleRow(row: row, y: y))
            y += height(of: row)
            index += 1
        }
        return result
    }

    /// The items on screen (first to last), for prefetching what follows.
    public func visibleItems(scrollRow: Int) -> Range<Int> {
        let ranges = visibleRows(scrollRow: scrollRow).compactMap { visible -> Range<Int>? in
            if case .items(let range) = visible.row { return range }
            return nil
        }
        guard let first = ranges.first, let last = ranges.last else { return 0..<0 }
        return first.lowerBound..<last.upperBound
    }

    /// The whole cell of an item on screen; nil when off-screen.
    public func cellRect(index: Int, scrollRow: Int) -> CellRect? {
        guard let rowIndex = row(ofItem: index), rowIndex >= scrollRow else { return nil }
        for visible in visibleRows(scrollRow: scrollRow) {
            guard case .items(let range) = visible.row, range.contains(index) else { continue }
            let x = (index - range.lowerBound) * (layout.cellWidth + GridLayout.gap)
            return CellRect(x: x, y: visible.y, width: layout.cellWidth, height: layout.isList ? 1 : layout.pictureHeight + 1)
        }
        return nil
    }

    public func pictureRect(index: Int, scrollRow: Int) -> CellRect? {
        guard !layout.isList, let cell = cellRect(index: index, scrollRow: scrollRow) else { return nil }
        return CellRect(x: cell.x, y: cell.y, width: cell.width, height: layout.pictureHeight)
    }

    /// The item under a screen position; a header row answers nil.
    public func index(atX x: Int, y: Int, scrollRow: Int) -> Int? {
        guard layout.content.contains(x: x, y: y) else { return nil }
        for visible in visibleRows(scrollRow: scrollRow) {
            guard case .items(let range) = visible.row, y >= visible.y, y < visible.y + fitHeight(of: visible.row) else {
                continue
            }
            let column = x / (layout.cellWidth + GridLayout.gap)
            let index = range.lowerBound + column
            guard column < columns, range.contains(index),
                  x < column * (layout.cellWidth + GridLayout.gap) + layout.cellWidth else { return nil }
            return index
        }
        return nil
    }

    /// The item `rows` item rows above (negative) or below, in the same column or the last of a shorter row;
    /// headers are stepped over. nil when there is no such row.
    public func item(from index: Int, itemRows delta: Int) -> Int? {
        guard var rowIndex = row(ofItem: index) else { return nil }
        let column = column(ofItem: index)
        var remaining = abs(delta)
        var target: Range<Int>?
        while remaining > 0 {
            rowIndex += delta < 0 ? -1 : 1
            guard let row = row(at: rowIndex) else { break }
            if case .items(let range) = row {
                target = range
                remaining -= 1
            }
        }
        guard let target else { return nil }
        return min(target.lowerBound + column, target.upperBound - 1)
    }

    /// The largest scroll row that still fills the screen (the last rows fit).
    public func maxScrollRow() -> Int {
        var used = 0
        var index = rowCount - 1
        while index >= 0, let row = row(at: index) {
            let needed = used + fitHeight(of: row)
            if needed > layout.content.height { break }
            used += height(of: row)
            index -= 1
        }
        return max(0, index + 1)
    }

    /// The scroll row that keeps `index` on screen, moving as little as possible from `current`; an item in
    /// the first row of its section brings its header along.
    public func scrollRow(keeping index: Int, current: Int) -> Int {
        let maxScroll = maxScrollRow()
        var scroll = min(max(0, current), maxScroll)
        guard let itemRow = row(ofItem: index) else { return scroll }
        // The headers right above the item's row (a year and a month) come along when scrolling up to it.
        var top = itemRow
        while case .header? = row(at: top - 1) { top -= 1 }
        if itemRow < scroll || (top < scroll && scroll == itemRow) {
            scroll = top
        } else {
            // The smallest scroll row from which the item's row still fits: walk up from it, adding heights.
            guard let itemRowValue = row(at: itemRow) else { return scroll }
            var used = fitHeight(of: itemRowValue)
            var first = itemRow
            while first > 0, let above = row(at: first - 1), used + height(of: above) <= layout.content.height {
                used += height(of: above)
                first -= 1
            }
            scroll = max(scroll, first)
        }
        return min(max(0, scroll), maxScroll)
    }
}
