import BrowserCore
import BrowserRuntime
import CNCurses
import Foundation
import TerminalGraphics
import TerminalProtocol
import VideoPlayback

/// The terminal as the browser holds it: curses, the picture provider made for its colours and protocol, the
/// `PictureOutput` of that protocol, the one tty reader, the tmux redraw watch and the link meter. Opened by
/// `BrowserApp.run`, closed (the terminal given back) when it returns; the effects reach it as `ScreenControl`.
final class BrowserTerminal: ScreenControl {
    let session: CursesSession
    /// The picture provider for this terminal (not yet wrapped for a remote library).
    let provider: ThumbnailProvider
    /// What the terminal takes (bytes against time blocked in write): slows hints and movie frames down.
    let throughput = TerminalThroughput(clock: { MonotonicClock.now() })
    let output: any PictureOutput
    let input: TerminalInputReader
    /// Writes symbol pictures directly, curses keeping the text (nil in pixel modes, or without colours, or
    /// with LIVEGRID_CURSES_PICTURES=1 to compare with curses drawing them).
    private let directCells: DirectCellOutput?
    /// Inside tmux, pictures go through passthrough and tmux's redraws wipe them: watched for those.
    private let tmuxWatch: TmuxRedrawWatch?

    init(options: BrowserOptions, inbox: EventInbox) throws {
        let environment = options.environment
        session = try CursesSession(mouse: options.config.mouse,
                                    colorDecision: TerminalColorChoice.decide(override: options.colorOverride,
                                                                             environment: environment.variables,
                                                                             askTerminal: true),
                                    term: environment.term)
        let wake = inbox.wake
        wake.installForSignals()
        let provider = options.makeProvider(session.colorDecision) { inbox.post(.showMessage($0)) }
        self.provider = provider
        // Once, first: why the screen is in ASCII, and how to have block symbols.
        if let notice = TerminalTextEncoding.current.notice { inbox.post(.showMessage(notice)) }
        provider.setReadyHandler { wake.wake() }
        tmuxWatch = provider.pixelOutput?.tmux.map {
            TmuxRedrawWatch(depth: $0.depth, notifications: { TmuxQuery.controlClients(environment: environment.variables) }) {
                TmuxQuery.chain(environment: environment.variables, ignoringClients: $0)
            }
        }
        tmuxWatch?.setWake { wake.wake() }
        if provider.pixelOutput == nil, let depth = session.colorDecision?.depth, !environment.picturesThroughCurses {
            directCells = DirectCellOutput(colorDepth: depth, size: session.size, meter: throughput)
        } else {
            directCells = nil
        }
        output = PictureOutputs.make(mode: provider.pixelOutput?.mode ?? .symbols, tmux: provider.pixelOutput?.tmux,
                                     cellHeight: provider.pixelOutput?.cellPixelSize?.height, window: session.window,
                                     direct: directCells,
                                     terminal: .fileDescriptor(meter: throughput,
                                                               pacing: environment.pacesPictures ? .tty(meter: throughput) : nil))
        // Pixel pictures and directly written cells: curses must never scroll or shift the screen (it would
        // move them behind its back).
        idlok(session.window, output.letsCursesMoveText)
        idcok(session.window, output.letsCursesMoveText)
        // After the provider's terminal probe: the reader continues its decoder, and the kitty keyboard check
        // reads its answer from it.
        input = TerminalInputReader(window: session.window, mouse: options.config.mouse, meter: throughput)
    }

    /// Gives the terminal back: the reader stops, pictures go, the tmux watch ends, curses restores the tty.
    func close() {
        input.shutdown()
        output.removeAll()
        tmuxWatch?.stop()
        CursesSession.restore()
    }

    /// Draws `state`, then asks for the pictures it wants (those on screen first). `holdsPrefetch`: only the
    /// pictures on screen are made.
    func render(_ state: BrowserState, renderer: BrowserRenderer, provider: ThumbnailProvider, holdsPrefetch: Bool) {
        let painter = ScreenPainter(surface: CursesSurface(window: session.window, colors: session.colors, size: session.size,
                                                           direct: directCells))
        session.colors.beginFrame()
        renderer.draw(state, provider: provider, painter: painter)
        output.beforeUpdate(overlays: renderer.overlays, screen: session.size)
        doupdate()
        output.afterUpdate()
        let wanted = holdsPrefetch ? renderer.wantedPictures.filter { $0.priority != .prefetch } : renderer.wantedPictures
        provider.cancelAll(except: Set(wanted.map(\.key)))
        for request in wanted.sorted(by: { $0.priority > $1.priority }) {
            provider.request(request.key, item: request.item, priority: request.priority)
        }
    }

    /// `.redrawAll` (Ctrl-L).
    func redrawAll() {
        clearok(curscr, true)
        output.redrawAfterClear(size: TerminalSize(columns: Int(COLS), rows: Int(LINES)))
    }

    /// After a resize event: everything drawn again; a split or zoom moves the pane, so its new origin is asked
    /// for before the redraw.
    func resized() {
        clearok(session.window, true)
        output.redrawAfterClear(size: session.size)
        tmuxWatch?.poll()
    }

    /// What happened to the screen behind the loop's back since the last turn: a tmux redraw that wiped
    /// pictures, a resume after Ctrl-Z. Both are redrawn; true when either came.
    func takeOutsideChanges() -> (tmuxRedrew: Bool, resumed: Bool) {
        let tmuxRedraw = tmuxWatch?.takeRedraw()
        if let tmuxRedraw { output.tmuxRedrew(target: tmuxRedraw) }
        let resumed = CursesSession.takeResumed()
        if resumed {
            clearok(curscr, true)
            output.redrawAfterClear(size: session.size)
        }
        return (tmuxRedraw != nil, resumed)
    }
}

extension BrowserPlayback: PlaybackService {}
