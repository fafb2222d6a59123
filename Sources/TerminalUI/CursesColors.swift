import CNCurses
import TerminalGraphics

/// The fixed colour pairs of the interface (text, not pictures).
enum UIColor: Int32, CaseIterable {
    case header = 1
    case status
    case selection
    case badgeLive
    case badgeVideo
    case placeholder
    case dimText
    case warning
    case panel

    var definition: (foreground: Int32, background: Int32) {
        switch self {
        case .header: return (Int32(COLOR_BLACK), Int32(COLOR_CYAN))
        case .status: return (Int32(COLOR_BLACK), Int32(COLOR_WHITE))
        case .selection: return (Int32(COLOR_BLACK), Int32(COLOR_YELLOW))
        case .badgeLive: return (Int32(COLOR_BLACK), Int32(COLOR_WHITE))
        case .badgeVideo: return (Int32(COLOR_WHITE), Int32(COLOR_BLUE))
        case .placeholder: return (Int32(COLOR_WHITE), -1)
        case .dimText: return (Int32(COLOR_CYAN), -1)
        case .warning: return (Int32(COLOR_RED), -1)
        case .panel: return (Int32(COLOR_WHITE), Int32(COLOR_BLACK))
        }
    }
}

/// Colour pairs for picture cells: (foreground, background) colour numbers → pair number, allocated on
/// first use. When the terminal's pairs run out the cache starts over and asks for a full repaint.
final class CursesColors {
    let depth: CursesColorDepth
    private let firstDynamicPair: Int32 = 32
    private let pairLimit: Int32
    private var nextPair: Int32
    private var pairs: [UInt64: Int32] = [:]
    /// Set when pairs were recycled: cells drawn earlier may now show wrong colours.
    private(set) var recycled = false

    init(depth: CursesColorDepth) {
        self.depth = depth
        pairLimit = Int32(min(Int(lg_color_pairs()), 65_535))
        nextPair = firstDynamicPair
        for colour in UIColor.allCases {
            init_pair(Int16(colour.rawValue), Int16(colour.definition.foreground), Int16(colour.definition.background))
        }
    }

    func takeRecycled() -> Bool {
        defer { recycled = false }
        return recycled
    }

    /// The pair for a picture cell's colours, or 0 (default colours) when colour is unavailable.
    func pair(for cell: TerminalCell) -> Int32 {
        // Palette indices chafa chose are used as they are: no second quantisation.
        let indexed = depth == .indexed256 || depth == .indexed16 || depth == .indexed8
        return pair(foreground: indexed ? cell.foregroundIndex ?? depth.colorNumber(for: cell.foreground)
                                         : depth.colorNumber(for: cell.foreground),
                    background: indexed ? cell.backgroundIndex ?? depth.colorNumber(for: cell.background)
                                         : depth.colorNumber(for: cell.background))
    }

    func pair(foreground fg: Int, background bg: Int) -> Int32 {
        guard depth != .monochrome, pairLimit > firstDynamicPair else { return 0 }
        let key = UInt64(UInt32(truncatingIfNeeded: fg)) << 32 | UInt64(UInt32(truncatingIfNeeded: bg))
        if let pair = pairs[key] { return pair }
        if nextPair >= pairLimit {
            pairs.removeAll(keepingCapacity: true)
            nextPair = firstDynamicPair
            recycled = true
        }
        let pair = nextPair
        nextPair += 1
        guard init_extended_pair(pair, Int32(fg), Int32(bg)) == OK else { return 0 }
        pairs[key] = pair
        return pair
    }
}
