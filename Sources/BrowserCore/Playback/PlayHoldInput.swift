import TerminalProtocol
/// What tells the browser that a hold ended, shown in the status bar while playing.
public enum HoldSource: String, Sendable {
    /// The kitty keyboard protocol reports Space's release.
    case kittyKeys = "kitty keys"
    /// A mouse button's press and release.
    case mouse
    /// No release event: the hold lasts while the keyboard auto-repeats (HoldDetector's learned timeouts).
    case keyRepeat = "key repeat"
}

/// Turns play-key events and mouse presses into `.playPressed` / `.playReleased` through BrowserCore's
/// `HoldDetector`: explicit releases when the terminal reports them (kitty keyboard protocol, mouse),
/// auto-repeat inference otherwise. A mouse click (a quick press and release) still selects and opens as
/// before; a press held on a live cell plays it.
public struct PlayHoldInput: Sendable {
    /// Presses shorter than this are clicks (select / open), not holds.
    public static let clickSeconds = 0.3

    public private(set) var keys: HoldDetector
    private var mouse = HoldDetector(mode: .explicitRelease)
    public let keySource: HoldSource
    /// The source of the hold in progress, for the status bar.
    public private(set) var activeSource: HoldSource?
    private var mousePress: (x: Int, y: Int, time: Double, wasSelected: Bool, plays: Bool)?

    public init(kittyKeys: Bool) {
        keySource = kittyKeys ? .kittyKeys : .keyRepeat
        keys = HoldDetector(mode: kittyKeys ? .explicitRelease : .autoRepeat)
    }

    /// The play key went down, repeated or came up.
    public mutating func playKey(_ type: KeyEventType, now: Double) -> [BrowserAction] {
        guard activeSource != .mouse else { return [] }
        return translate(keys.handle(type, at: now), source: keySource)
    }

    /// Button 1 went down at (x, y) over grid item `index` (nil: not over an item; the viewer passes the
    /// selection). A live item starts playing at once (selected first); anything else clicks as before.
    public mutating func mouseDown(x: Int, y: Int, index: Int?, state: BrowserState, now: Double) -> [BrowserAction] {
        guard let index, state.items.indices.contains(index), state.items[index].kind.isLive || state.items[index].kind == .video,
              activeSource == nil else {
            mousePress = nil
            return state.mode == .grid ? [.click(x: x, y: y)] : []
        }
        mousePress = (x, y, now, index == state.selection, true)
        var actions: [BrowserAction] = index == state.selection ? [] : [.select(index: index)]
        actions += translate(mouse.handle(.press, at: now), source: .mouse)
        return actions
    }

    /// Button 1 came up: ends a hold; a quick press on the already selected item still opens it.
    public mutating func mouseUp(now: Double, mode: BrowserMode) -> [BrowserAction] {
        guard let press = mousePress else { return [] }
        mousePress = nil
        var actions = translate(mouse.handle(.release, at: now), source: .mouse)
        if now - press.time < Self.clickSeconds, press.wasSelected, mode == .grid {
            actions.append(.click(x: press.x, y: press.y))
        }
        return actions
    }

    /// Ends an auto-repeat hold whose repeats stopped.
    public mutating func tick(now: Double) -> [BrowserAction] {
        guard activeSource == keySource else { return [] }
        return translate(keys.tick(now: now), source: keySource)
    }

    /// When `tick` could next change something (the loop's wake-up), or nil.
    public var nextDeadline: Double? { activeSource == keySource ? keys.nextDeadline : nil }

    /// Forgets a hold without a release (the item went away, the terminal was suspended).
    public mutating func cancel() {
        _ = keys.cancel()
        _ = mouse.cancel()
        mousePress = nil
        activeSource = nil
    }

    private mutating func translate(_ outputs: [HoldDetector.Output], source: HoldSource) -> [BrowserAction] {
        outputs.map { output in
            switch output {
            case .holdStarted:
                activeSource = source
                return .playPressed
            case .holdEnded:
                activeSource = nil
                return .playReleased
            }
        }
    }
}
