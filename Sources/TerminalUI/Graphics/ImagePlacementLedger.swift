import BrowserCore

/// One picture on screen: which picture (its key) and the cells it covers.
public struct ImagePlacement<Key: Hashable & Sendable>: Hashable, Sendable {
    public var key: Key
    public var rect: CellRect
    public init(key: Key, rect: CellRect) {
        self.key = key
        self.rect = rect
    }
}

/// What to do this frame so the pixels on screen match what the renderer wants.
public struct ImagePlacementPlan<Key: Hashable & Sendable>: Equatable, Sendable {
    /// Pictures to take off the screen (kitty: delete by id; sixel/iTerm2: curses writes their cells).
    public var erase: [ImagePlacement<Key>] = []
    /// Pictures to write after curses' update, in this order.
    public var draw: [ImagePlacement<Key>] = []
    public var isEmpty: Bool { erase.isEmpty && draw.isEmpty }
}

/// How a protocol's pictures leave the screen.
public enum ImageErasure: Sendable {
    /// Images live on their own layer and are deleted by id (kitty).
    case deleteByID
    /// Images are pixels in the cells: text written over them erases them (sixel, iTerm2).
    case repaintCells
}

/// The tty writer's memory of what it placed where (ARCHITECTURE.md example 8), kept apart from any terminal
/// so every rule is unit-tested: a picture is erased when it scrolls away, when text (info panel, help) is
/// drawn over it, or after the screen was cleared; a picture is only drawn where it fits entirely, above
/// the last row (a sixel touching it scrolls the screen) and inside the right edge (nothing may wrap).
public struct ImagePlacementLedger<Key: Hashable & Sendable>: Sendable {
    public let erasure: ImageErasure
    /// What is on the screen now, as far as this writer knows.
    public private(set) var placed: [ImagePlacement<Key>] = []

    public init(erasure: ImageErasure) {
        self.erasure = erasure
    }

    /// Whether `rect` may hold a picture on a screen of `size` with `overlays` drawn over it.
    public static func fits(_ rect: CellRect, screen: TerminalSize, overlays: [CellRect]) -> Bool {
        rect.width > 0 && rect.height > 0 && rect.x >= 0 && rect.y >= 0
            && rect.x + rect.width <= screen.columns
            && rect.y + rect.height <= screen.rows - 1
            && !overlays.contains { $0.intersects(rect) }
    }

    /// The pictures of `wanted` that are shown: those that fit, not under an overlay, and not sharing cells
    /// with one listed before (the renderer lists on-screen order).
    public static func visible(_ wanted: [ImagePlacement<Key>], overlays: [CellRect], screen: TerminalSize)
        -> [ImagePlacement<Key>]
    {
        var visible: [ImagePlacement<Key>] = []
        for placement in wanted where fits(placement.rect, screen: screen, overlays: overlays) {
            if !visible.contains(where: { $0.rect.intersects(placement.rect) }) { visible.append(placement) }
        }
        return visible
    }

    /// Compares what the renderer wants this frame with what is on screen and records the result as placed.
    /// Unchanged pictures are left alone: an idle frame writes nothing.
    /// - Parameter overwritten: sixel/iTerm2: whether curses' update writes into a picture's cells (it is
    ///   then drawn again). A picture that goes leaves its neighbours alone: only its own cells are written.
    public mutating func plan(wanted: [ImagePlacement<Key>], overlays: [CellRect], screen: TerminalSize,
                              overwritten: (CellRect) -> Bool = { _ in false }) -> ImagePlacementPlan<Key>
    {
        let visible = Self.visible(wanted, overlays: overlays, screen: screen)
        var plan = ImagePlacementPlan<Key>()
        plan.erase = placed.filter { !visible.contains($0) }
        var kept = placed.filter { visible.contains($0) }
        if erasure == .repaintCells { kept.removeAll { overwritten($0.rect) } }
        plan.draw = visible.filter { !kept.contains($0) }
        placed = visible
        return plan
    }

    /// True when a wanted picture takes cells another picture holds now (a grid that scrolls; `isReplaceable`
    /// excludes pictures meant to replace each other in place: a movie's frames, and its key photo after it). Sixel/iTerm2: curses would
    /// then find its text lines moved and scroll the screen region with `CSI n T`/`S`, and the terminal
    /// would scroll the old pixels along, out of the writer's knowledge; the writer makes curses forget the
    /// lines first (`wredrawln`), so nothing is scrolled and every row is written afresh.
    public func replacesPictures(_ wanted: [ImagePlacement<Key>], isReplaceable: (Key) -> Bool = { _ in false }) -> Bool {
        guard erasure == .repaintCells else { return false }
        var held: [CellRect: Key] = [:]
        for placement in placed { held[placement.rect] = placement.key }
        return wanted.contains { placement in
            guard let old = held[placement.rect], old != placement.key else { return false }
            return !(isReplaceable(old) || isReplaceable(placement.key))
        }
    }

    /// Rows holding a placed picture (the only rows whose curses changes matter to the writer).
    public var occupiedRows: Set<Int> { Set(placed.flatMap { $0.rect.rowRange }) }

    /// Planned pictures that were not written after all (held back for the link, `PictureTurn`): they count as
    /// not on screen, so the next plan that still wants them draws them.
    public mutating func withdraw(_ placements: [ImagePlacement<Key>]) {
        guard !placements.isEmpty else { return }
        let withdrawn = Set(placements)
        placed.removeAll { withdrawn.contains($0) }
    }

    /// The screen was cleared (resize, Ctrl-L): nothing is placed any more, everything is drawn again.
    public mutating func screenCleared() {
        placed.removeAll()
    }
}

extension CellRect {
    func intersects(_ other: CellRect) -> Bool {
        x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }

    var rowRange: Range<Int> { y..<(y + height) }
}
