import TerminalProtocol
/// What a key means, before the mode decides the action (`q` quits in the grid, goes back in the viewer).
public enum KeyCommand: String, Sendable, CaseIterable {
    case moveUp = "move-up"
    case moveDown = "move-down"
    case moveLeft = "move-left"
    case moveRight = "move-right"
    case pageUp = "page-up"
    case pageDown = "page-down"
    case first
    case last
    case filter
    case rescan
    case zoomIn = "zoom-in"
    case zoomOut = "zoom-out"
    /// The viewer's 1:1 zoom (issue 31.3).
    case actualSize = "zoom-100"
    case open
    case info
    case back
    case help
    case quit
    case play
    case redraw
    case retry
    case activity
    case parent
    // Triage (BrowserCore/Triage/TriageKeys.swift).
    case mark, markAll = "mark-all", markNone = "mark-none", markInvert = "mark-invert"
    case rate0 = "rate-0", rate1 = "rate-1", rate2 = "rate-2", rate3 = "rate-3", rate4 = "rate-4", rate5 = "rate-5"
    case pick, reject, trash, undo, copy, move, export
    case rotateLeft = "rotate-left", rotateRight = "rotate-right", triageFilter = "triage-filter"
    case onMarked = "on-marked", markRange = "mark-range", showLocation = "show-location"
    /// The viewer's key-photo mode (issue 20).
    case keyPhoto = "key-photo"
    case sound
    // Library views (BrowserCore/Views).
    case sort, group, jumpToDate = "jump-to-date"
    /// Local folders (issue 31.2): every photo below the folder, as `-r` does, or the folder's own again.
    case recursive
}

/// Key bindings: several keys per command, rebindable from the `[keys]` table of the config.
public struct Keymap: Sendable {
    public private(set) var bindings: [KeyInput: KeyCommand]

    public static let defaultBindings: [(KeyCommand, [KeyInput])] = [
        (.moveUp, [.up, .character("k")]),
        (.moveDown, [.down, .character("j")]),
        (.moveLeft, [.left, .character("h")]),
        (.moveRight, [.right, .character("l")]),
        (.pageUp, [.pageUp, .character("\u{02}")]),
        (.pageDown, [.pageDown, .character("\u{06}")]),
        (.first, [.home, .character("g")]),
        (.last, [.end, .character("G")]),
        (.filter, [.character("/")]),
        (.rescan, [.character("r")]),
        (.zoomIn, [.character("+"), .character("=")]),
        (.zoomOut, [.character("-")]),
        (.actualSize, [.character("z")]),
        (.open, [.enter]),
        (.info, [.character("i")]),
        (.back, [.escape]),
        (.help, [.character("?"), .function(1)]),
        (.quit, [.character("q")]),
        (.play, [.character(" ")]),
        (.redraw, [.character("\u{0C}")]),
        (.retry, [.character("R")]),
        (.activity, [.character("a")]),
        (.parent, [.backspace]),
        (.keyPhoto, [.character("K")]),
        (.sound, [.character("S")]),
        (.sort, [.character("s")]),
        (.group, [.character("t")]),
        (.jumpToDate, [.character("D")]),
        (.recursive, [.character("F")]),
    ] + TriageKeys.defaultBindings

    public init() {
        var bindings: [KeyInput: KeyCommand] = [:]
        for (command, keys) in Self.defaultBindings {
            for key in keys { bindings[key] = command }
        }
        self.bindings = bindings
    }

    /// Replaces every key of `command` with `keys`.
    public mutating func rebind(_ command: KeyCommand, to keys: [KeyInput]) {
        bindings = bindings.filter { $0.value != command }
        for key in keys { bindings[key] = command }
    }

    /// Keys bound to a command, for the help screen.
    public func keys(for command: KeyCommand) -> [KeyInput] {
        bindings.filter { $0.value == command }.map(\.key).sorted { $0.displayName < $1.displayName }
    }

    /// Translates a key into an action for the current state; nil = the key does nothing here.
    public func action(for key: KeyInput, in state: BrowserState) -> BrowserAction? {
        if state.isEditingFilter {
            switch key {
            case .enter: return .commitFilter
            case .escape: return .cancelFilter
            case .backspace: return .filterBackspace
            case .character(let character) where !character.isControl: return .filterInput(character)
            default: break
            }
        }
        if state.dateJumpText != nil {
            switch key {
            case .enter: return .view(.commitDateJump)
            case .escape: return .view(.cancelDateJump)
            case .backspace: return .view(.dateJumpBackspace)
            case .character(let character) where !character.isControl: return .view(.dateJumpInput(character))
            default: return nil
            }
        }
        if let triageAction = TriageKeys.modalAction(for: key, in: state) { return triageAction }
        if let studioAction = KeyPhotoKeys.action(for: key, in: state) { return studioAction }
        if state.triage.actsOnMarked {
            // After the prefix only a key that can act on the marks does; any other key drops the prefix.
            let action = bindings[key].flatMap(TriageKeys.action(for:))
            return .triage(action.flatMap { TriageKeys.actsOnMarks($0) ? $0 : nil } ?? .cancelActOnMarked)
        }
        guard let command = bindings[key] else { return nil }
        switch command {
        case .moveUp: return .move(.up)
        case .moveDown: return .move(.down)
        case .moveLeft: return .move(.left)
        case .moveRight: return .move(.right)
        case .pageUp: return .pageUp
        case .pageDown: return .pageDown
        case .first: return .first
        case .last: return .last
        case .filter: return .beginFilter
        case .rescan: return .rescan
        case .zoomIn: return .zoomIn
        case .zoomOut: return .zoomOut
        case .actualSize: return state.mode == .viewer ? .toggleViewerZoom : nil
        case .open: return state.mode == .grid ? .openViewer : nil
        case .info: return .toggleInfo
        case .back: return .back
        case .help: return .toggleHelp
        case .quit: return state.mode == .grid && !state.showsInfo ? .quit : .back
        case .play: return .playPressed
        case .redraw: return .redraw
        case .retry: return .remote(.retry)
        case .activity: return .remote(.toggleActivityPanel)
        case .parent:
            guard state.mode == .grid else { return .back }
            return state.remote != nil ? .remote(.parent) : .view(.parentFolder)
        case .recursive: return state.mode == .grid ? .view(.toggleRecursive) : nil
        case .keyPhoto: return state.mode == .viewer ? .studio(.enterKeyPhoto) : nil
        case .sound: return .toggleSound
        case .sort: return .view(.cycleSort)
        case .group: return .view(.cycleGrouping)
        case .jumpToDate: return .view(.beginDateJump)
        case .mark, .markAll, .markNone, .markInvert, .rate0, .rate1, .rate2, .rate3, .rate4, .rate5, .pick, .reject,
             .trash, .undo, .copy, .move, .export, .rotateLeft, .rotateRight, .triageFilter, .onMarked, .markRange,
             .showLocation:
            return TriageKeys.action(for: command).map { .triage($0) }
        }
    }
}

extension Character {
    var isControl: Bool { unicodeScalars.allSatisfy { $0.value < 0x20 || $0.value == 0x7F } }
}

extension KeyInput {
    /// How the help screen shows the key.
    public var displayName: String {
        switch self {
        case .character(" "): return "Space"
        case .character(let character):
            if let scalar = character.unicodeScalars.first, character.isControl, scalar.value < 0x20 {
                return "Ctrl-" + String(Character(Unicode.Scalar(scalar.value + 0x60) ?? "?"))
            }
            return String(character)
        case .up: return "Up"
        case .down: return "Down"
        case .left: return "Left"
        case .right: return "Right"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .home: return "Home"
        case .end: return "End"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .backspace: return "Backspace"
        case .tab: return "Tab"
        case .delete: return "Delete"
        case .function(let number): return "F\(number)"
        }
    }
}
