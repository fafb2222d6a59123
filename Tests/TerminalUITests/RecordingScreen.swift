import BrowserCore
import CNCurses
import TerminalGraphics
@testable import TerminalUI

/// A terminal in memory for the picture outputs' tests: the renderer draws its text into `frame` (as into
/// curses' window), the outputs reserve and mark cells as on curses' screens, `update()` does what curses'
/// `doupdate` does (writes the cells where the frame differs from what is shown, and records them), and the
/// bytes the outputs send are recorded in `bytes`.
final class RecordingScreen: DrawingSurface, PictureScreen {
    enum Cell: Equatable {
        case blank
        case text(Character)
        case marker(row: Int)
        /// A line curses forgot (wredrawln): differs from everything.
        case forgotten
    }

    let size: TerminalSize
    private(set) var frame: [[Cell]]
    private(set) var shown: [[Cell]]
    /// Cells written by the last `update()`, as (x, y).
    private(set) var written: [(x: Int, y: Int)] = []
    private(set) var bytes: [UInt8] = []
    var terminal: TerminalBytes { TerminalBytes { [weak self] in self?.bytes += $0 } }

    init(size: TerminalSize) {
        self.size = size
        frame = Array(repeating: Array(repeating: .blank, count: size.columns), count: size.rows)
        shown = frame
    }

    // MARK: DrawingSurface (the renderer's text)

    func clear() { frame = Array(repeating: Array(repeating: .blank, count: size.columns), count: size.rows) }
    func commit() {}
    func write(_ text: String, x: Int, y: Int, attributes: attr_t, color: UIColor?) {
        guard frame.indices.contains(y) else { return }
        for (offset, character) in text.enumerated() where x + offset < size.columns {
            frame[y][x + offset] = character == " " && color == nil && attributes == 0 ? .blank : .text(character)
        }
    }
    func picture(_ picture: RenderedImage, placed: CellRect) {
        for y in placed.y..<(placed.y + placed.height) {
            for x in placed.x..<(placed.x + placed.width) { frame[y][x] = .text("▀") }
        }
    }

    // MARK: PictureScreen

    func reserve(_ rect: CellRect) {
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) { frame[y][x] = .marker(row: y) }
        }
    }

    func shown(x: Int, y: Int) -> ShownCell {
        switch shown[y][x] {
        case .marker: return .marker
        case .blank: return .blank
        case .text, .forgotten: return .text
        }
    }

    func markShown(x: Int, y: Int) { shown[y][x] = frame[y][x] }

    func changedColumns(rows: Set<Int>) -> [Int: [Int]] {
        var changed: [Int: [Int]] = [:]
        for y in rows where y >= 0 && y < size.rows {
            let columns = (0..<size.columns).filter { frame[y][$0] != shown[y][$0] }
            if !columns.isEmpty { changed[y] = columns }
        }
        return changed
    }

    func forgetAllLines() { shown = Array(repeating: Array(repeating: .forgotten, count: size.columns), count: size.rows) }

    // MARK: curses' update

    func update() {
        written = []
        for y in 0..<size.rows {
            for x in 0..<size.columns where frame[y][x] != shown[y][x] {
                shown[y][x] = frame[y][x]
                written.append((x, y))
            }
        }
    }

    func takeBytes() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }

    /// How many pictures a byte stream carries, by each protocol's introducer.
    static func count(_ needle: String, in bytes: [UInt8]) -> Int {
        let pattern = Array(needle.utf8)
        guard bytes.count >= pattern.count else { return 0 }
        var found = 0
        var i = 0
        while i <= bytes.count - pattern.count {
            if bytes[i] == pattern[0], Array(bytes[i..<(i + pattern.count)]) == pattern { found += 1; i += pattern.count } else { i += 1 }
        }
        return found
    }
}
