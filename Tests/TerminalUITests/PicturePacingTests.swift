import BrowserCore
import BrowserRuntime
import LivePairing
import TerminalGraphics
import TerminalProtocol
import XCTest
@testable import TerminalUI

/// Issue 28.4: the pixel outputs write a screen's pictures in screen order while the link's budget lasts and
/// stop between two pictures when a key waits; what they held back is drawn by a later frame that still shows
/// it, and never once the screen moved on.
final class PicturePacingTests: XCTestCase {
    let size = TerminalSize(columns: 80, rows: 24)

    private func box(_ index: Int) -> CellRect {
        CellRect(x: 1 + (index % 3) * 26, y: 2 + (index / 3) * 10, width: 24, height: 8)
    }

    /// A picture whose payload names it (`#item3#`), 100-140 bytes with the protocol's framing.
    private func image(_ name: String, mode: GraphicsMode) -> RenderedImage {
        TaggedPicture.make(name, mode: mode, paddedTo: 82)
    }

    /// A pacing whose budget and typed keys the test sets; records what each turn held back.
    private final class Pacing {
        var budget: PictureBudget?
        var keyWaiting = false
        var held: [Int?] = []
        var pacing: PicturePacing {
            PicturePacing(budget: { [unowned self] in budget }, inputPending: { [unowned self] in keyWaiting },
                          held: { [unowned self] in held.append($0) })
        }
    }

    private func makeOutput(_ mode: GraphicsMode, screen: RecordingScreen, pacing: Pacing) -> any PictureOutput {
        var terminal = screen.terminal
        terminal.pacing = pacing.pacing
        switch mode {
        case .sixels: return SixelOutput(tmux: nil, cellHeight: 20, screen: screen, terminal: terminal)
        case .kitty: return KittyOutput(tmux: nil, terminal: terminal)
        case .iterm: return ITermOutput(tmux: nil, screen: screen, terminal: terminal)
        case .symbols: return SymbolCellsOutput(direct: nil, window: nil)
        }
    }

    /// One frame showing the pictures `names` (in screen order); returns the names whose pictures were sent.
    private func paint(_ names: [String], output: any PictureOutput, screen: RecordingScreen, mode: GraphicsMode) -> [String] {
        let painter = ScreenPainter(surface: screen)
        screen.clear()
        for (index, name) in names.enumerated() {
            output.show(image(name, mode: mode), key: ThumbnailKey(itemID: ItemID(name), width: 24, height: 8), in: box(index),
                        painter: painter)
        }
        output.beforeUpdate(overlays: [], screen: size)
        screen.update()
        output.afterUpdate()
        let text = String(decoding: screen.takeBytes(), as: UTF8.self)
        return text.components(separatedBy: "#").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    }

    private func screenOrderWithinTheBudget(_ mode: GraphicsMode) {
        let screen = RecordingScreen(size: size), pacing = Pacing()
        let output = makeOutput(mode, screen: screen, pacing: pacing)
        let first = (0..<6).map { "item\($0)" }
        // Room for two pictures (100-140 bytes each with their framing): the third waits, and the ones after it.
        pacing.budget = PictureBudget(backlog: 0, limit: 300)
        XCTAssertEqual(paint(first, output: output, screen: screen, mode: mode), ["item0", "item1"])
        XCTAssertNotNil(pacing.held.last ?? nil, "the turn says it held pictures back")
        // The link is still full: nothing goes, and nothing is lost.
        pacing.budget = PictureBudget(backlog: 200, limit: 300)
        XCTAssertEqual(paint(first, output: output, screen: screen, mode: mode), [])
        pacing.budget = PictureBudget(backlog: 0, limit: 300)
        XCTAssertEqual(paint(first, output: output, screen: screen, mode: mode), ["item2", "item3"])
        pacing.budget = PictureBudget(backlog: 0, limit: 10_000)
        XCTAssertEqual(paint(first, output: output, screen: screen, mode: mode), ["item4", "item5"])
        XCTAssertEqual(pacing.held.last, .some(nil), "everything went")
        XCTAssertEqual(paint(first, output: output, screen: screen, mode: mode), [], "each picture sent once")
    }

    func testPicturesGoInScreenOrderWithinTheBudget_sixel() { screenOrderWithinTheBudget(.sixels) }
    func testPicturesGoInScreenOrderWithinTheBudget_iTerm2() { screenOrderWithinTheBudget(.iterm) }
    func testPicturesGoInScreenOrderWithinTheBudget_kitty() { screenOrderWithinTheBudget(.kitty) }

    private func screenLeft(_ mode: GraphicsMode) {
        let screen = RecordingScreen(size: size), pacing = Pacing()
        let output = makeOutput(mode, screen: screen, pacing: pacing)
        pacing.budget = PictureBudget(backlog: 0, limit: 150)
        XCTAssertEqual(paint((0..<6).map { "item\($0)" }, output: output, screen: screen, mode: mode), ["item0"])
        // Page Down: the next screen's pictures, none of the first screen's held ones.
        pacing.budget = PictureBudget(backlog: 0, limit: 10_000)
        XCTAssertEqual(paint((6..<12).map { "item\($0)" }, output: output, screen: screen, mode: mode),
                       (6..<12).map { "item\($0)" })
    }

    func testHeldPicturesOfAScreenLeftAreNeverSent_sixel() { screenLeft(.sixels) }
    func testHeldPicturesOfAScreenLeftAreNeverSent_kitty() { screenLeft(.kitty) }

    private func keyStopsThePaint(_ mode: GraphicsMode) {
        let screen = RecordingScreen(size: size), pacing = Pacing()
        let output = makeOutput(mode, screen: screen, pacing: pacing)
        let names = (0..<6).map { "item\($0)" }
        // No budget (a terminal that never answered), but a key waits: one picture, then the key is read.
        pacing.keyWaiting = true
        XCTAssertEqual(paint(names, output: output, screen: screen, mode: mode), ["item0"])
        XCTAssertNotNil(pacing.held.last ?? nil)
        pacing.keyWaiting = false
        XCTAssertEqual(paint(names, output: output, screen: screen, mode: mode), Array(names.dropFirst()))
    }

    func testAKeyStopsThePaintBetweenPictures_sixel() { keyStopsThePaint(.sixels) }
    func testAKeyStopsThePaintBetweenPictures_kitty() { keyStopsThePaint(.kitty) }
}
