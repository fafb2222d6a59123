import BrowserCore
import BrowserRuntime
import CNCurses
import Foundation
import TerminalGraphics
import TerminalProtocol

/// A picture the renderer wants on screen this frame, in a pixel protocol.
struct PixelPicture {
    var key: ThumbnailKey
    /// The cells it covers (already centred in its box).
    var rect: CellRect
    var image: RenderedImage
}

/// How pictures reach the terminal, one type per protocol (modelled on timg's `TerminalCanvas`, one `Send`
/// with a subclass per protocol, and yazi's `Driver`, `image_show`/`image_erase` with one file per driver):
/// symbol cells (`SymbolCellsOutput`), sixel (`SixelOutput`), kitty (`KittyOutput`, transmit once, place
/// many) and iTerm2 (`ITermOutput`). Each owns its placement, its erasing, what a scroll does to it and the
/// redraw after a clear; nothing else in the UI asks which protocol is in use.
///
/// A frame: the renderer calls `show` for every picture it draws (text goes to curses as before), then the
/// loop calls `beforeUpdate` (before curses' `doupdate`) and `afterUpdate` (after it). A picture not shown in
/// a frame is erased by the output: erasing is the absence of `show`, so there is no separate verb to forget.
///
/// **Adding a protocol** (for example kitty's Unicode placeholders) is one new file with a type conforming
/// to this protocol, plus one line in `PictureOutputs.make` (the one table from protocol to type).
protocol PictureOutput: AnyObject {
    /// True when text drawn over a picture's cells stays visible (symbol cells): the renderer then draws
    /// marks (damaged, badges) over pictures as text; pixel protocols carry them in the pixels.
    var showsTextOverPictures: Bool { get }
    /// False when pictures are on the terminal behind curses' back: curses must then never scroll lines or
    /// shift characters (the terminal would move the pictures out of the output's knowledge).
    var letsCursesMoveText: Bool { get }
    /// Draws `picture` (made for this output's protocol) centred in `box` this frame; returns its cells.
    @discardableResult
    func show(_ picture: RenderedImage, key: ThumbnailKey, in box: CellRect, painter: ScreenPainter) -> CellRect
    /// Before curses' update: decides what to erase and draw; `overlays` are panels drawn over the grid
    /// (pictures under them are not shown).
    func beforeUpdate(overlays: [CellRect], screen: TerminalSize)
    /// After curses' update: writes the pictures (text and pictures never interleave).
    func afterUpdate()
    /// The screen was cleared or resized (curses repaints everything): every picture is drawn again.
    func redrawAfterClear(size: TerminalSize)
    /// tmux redrew or moved the pane: its pixel pictures are gone or misplaced, drawn again at `target`.
    func tmuxRedrew(target: TmuxPassthroughTarget)
    /// On exit: pictures that would outlive the text (kitty's image layer) are removed.
    func removeAll()
}

/// The one table from a protocol to its output type. The capability decision (GraphicsModeDecision, made
/// once at start-up) picks the mode; the app builds the output here and hands it to the renderer.
enum PictureOutputs {
    static func make(mode: GraphicsMode, tmux: TmuxPassthroughTarget?, cellHeight: Int?,
                     window: UnsafeMutablePointer<WINDOW>, direct: DirectCellOutput?,
                     terminal: TerminalBytes) -> any PictureOutput {
        let screen = CursesPictureScreen(window: window)
        switch mode {
        case .symbols: return SymbolCellsOutput(direct: direct, window: window)
        case .sixels: return SixelOutput(tmux: tmux, cellHeight: cellHeight, screen: screen, terminal: terminal)
        case .kitty: return KittyOutput(tmux: tmux, terminal: terminal)
        case .iterm: return ITermOutput(tmux: tmux, screen: screen, terminal: terminal)
        }
    }
}

/// Where an output's escape sequences go: the tty (written whole, retrying short writes), or a recording in
/// the tests.
struct TerminalBytes {
    let send: ([UInt8]) -> Void
    /// Holds pictures back while the link is full or a key waits (nil: every picture goes at once).
    var pacing: PicturePacing? = nil

    /// `meter`: counts the bytes against the time the writes blocked (what the link takes, issue 28.4).
    /// `pacing`: the pixel outputs' pictures wait for the link and for keys (see `PicturePacing`).
    static func fileDescriptor(_ fd: Int32 = STDOUT_FILENO, meter: TerminalThroughput? = nil,
                               pacing: PicturePacing? = nil) -> TerminalBytes {
        TerminalBytes(send: { bytes in
            guard !bytes.isEmpty else { return }
            guard let meter else { return writeAll(bytes, to: fd) }
            meter.measure(bytes: bytes.count) { writeAll(bytes, to: fd) }
        }, pacing: pacing)
    }

    /// Writes all of `bytes`, retrying short and interrupted writes; stops at a real error (the terminal went).
    static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(fd, base + offset, raw.count - offset)
                if written > 0 { offset += written } else if errno != EINTR && errno != EAGAIN { break }
            }
        }
    }
}
