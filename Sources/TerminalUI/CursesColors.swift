import CNCurses
import GraphicsSettings
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

/// Colour pairs for picture cells: (foreground, background) colour numbers → pair number, through a
/// `ColorPairAllocator` so that no pair a cell of the current frame uses is ever redefined.
final class CursesColors {
    /// What curses can send (the terminfo entry it started with).
    let depth: CursesColorDepth
    /// What pictures are rendered with (the colour decision, at most what curses can send); nil = none.
    let pictureDepth: GraphicsSettings.ColorDepth?
    private var allocator: ColorPairAllocator

    init(depth: CursesColorDepth, pictureDepth: GraphicsSettings.ColorDepth?) {
        self.depth = depth
        self.pictureDepth = pictureDepth
        let pairLimit = Int32(min(Int(lg_color_pairs()), 65_535))
        let firstPicturePair = (UIColor.allCases.map(\.rawValue).max() ?? 0) + 1
        let palette: Int?
        switch pictureDepth {
        case .indexed8?: palette = 8
        case .indexed16?: palette = 16
        case .indexed256?: palette = 256
        case .truecolor?, nil: palette = nil
        }
        allocator = ColorPairAllocator(firstPair: firstPicturePair, pairLimit: pairLimit, paletteSize: palette)
        for colour in UIColor.allCases {
            init_pair(Int16(colour.rawValue), Int16(colour.definition.foreground), Int16(colour.definition.background))
        }
    }

    /// Call before drawing each frame (see `ColorPairAllocator.beginFrame`).
    func beginFrame() { allocator.beginFrame() }

    /// The pair and attributes for a picture cell's colours; pair 0 (default colours) when colour is unavailable.
    func pair(for cell: TerminalCell) -> (pair: Int32, attributes: attr_t) {
        // Palette indices chafa chose are used as they are: no second quantisation.
        let indexed = depth != .direct && depth != .monochrome
        return pair(foreground: indexed ? cell.foregroundIndex ?? depth.colorNumber(for: cell.foreground)
                                         : depth.colorNumber(for: cell.foreground),
                    background: indexed ? cell.backgroundIndex ?? depth.colorNumber(for: cell.background)
                                         : depth.colorNumber(for: cell.background))
    }

    func pair(foreground fg: Int, background bg: Int) -> (pair: Int32, attributes: attr_t) {
        guard depth != .monochrome, let grant = allocator.pair(foreground: fg, background: bg) else { return (0, 0) }
        if let colours = grant.define {
            guard init_extended_pair(grant.pair, Int32(colours.foreground), Int32(colours.background)) == OK else {
                return (0, 0)
            }
        }
        return (grant.pair, grant.reversed ? lg_a_reverse() : 0)
    }
}
