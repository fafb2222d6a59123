import BrowserCore
import BrowserRuntime
import LivePairing
import TerminalGraphics
import TerminalProtocol
import XCTest
@testable import TerminalUI

/// Each `PictureOutput` against a recording screen (RecordingScreen: curses' two screens and the bytes sent):
/// a first screen whose pictures arrive one by one between placeholders and changing labels sends each
/// picture once (issue 28.2: sixel sent 112 images for 28 pictures, iTerm2 78), and no picture whose cells
/// curses writes is left wiped.
final class PictureOutputTests: XCTestCase {
    let size = TerminalSize(columns: 80, rows: 24)
    let pictureCount = 6

    private func box(_ index: Int) -> CellRect {
        CellRect(x: 1 + (index % 3) * 26, y: 2 + (index / 3) * 10, width: 24, height: 8)
    }

    private func key(_ index: Int, movieFrame: Int? = nil) -> ThumbnailKey {
        ThumbnailKey(itemID: ItemID("item\(index)"), width: 24, height: 8, variant: movieFrame.map { .movieFrame($0) } ?? .picture)
    }

    /// A picture of 20x8 cells whose payload names it (`#item3#`), in the protocol's framing.
    private func image(_ index: Int, mode: GraphicsMode, tag: String? = nil) -> RenderedImage {
        TaggedPicture.make(tag ?? "item\(index)", mode: mode)
    }

    private func introducer(_ mode: GraphicsMode) -> String {
        switch mode {
        case .sixels: return "\u{1B}P0;1;0q"
        case .kitty: return "a=T"
        case .iterm: return "\u{1B}]1337;File="
        case .symbols: return "?"
        }
    }

    private func makeOutput(_ mode: GraphicsMode, screen: RecordingScreen) -> any PictureOutput {
        switch mode {
        case .sixels: return SixelOutput(tmux: nil, cellHeight: 20, screen: screen, terminal: screen.terminal)
        case .kitty: return KittyOutput(tmux: nil, terminal: screen.terminal)
        case .iterm: return ITermOutput(tmux: nil, screen: screen, terminal: screen.terminal)
        case .symbols: return SymbolCellsOutput(direct: nil, window: nil)
        }
    }

    /// One frame as the browser draws it: placeholders (corner marks and a label) for the pictures not yet
    /// there, captions under every cell, a status line that changes every frame. Returns the bytes sent.
    @discardableResult
    private func paint(_ output: any PictureOutput, screen: RecordingScreen, arrived: Int, mode: GraphicsMode,
                       overlay: CellRect? = nil, pictures: (Int) -> (RenderedImage, ThumbnailKey)? = { _ in nil },
                       file: StaticString = #filePath, line: UInt = #line) -> [UInt8] {
        let painter = ScreenPainter(surface: screen)
        screen.clear()
        var placed: [ThumbnailKey: CellRect] = [:]
        for index in 0..<pictureCount {
            let rect = box(index)
            let arrivedPicture = index < arrived ? (image(index, mode: mode), key(index)) : nil
            if case let (picture, pictureKey)? = pictures(index) ?? arrivedPicture {
                placed[pictureKey] = output.show(picture, key: pictureKey, in: rect, painter: painter)
            } else {
                painter.text("┌", x: rect.x, y: rect.y, width: 1, color: .placeholder)
                painter.text("┐", x: rect.x + rect.width - 1, y: rect.y, width: 1, color: .placeholder)
                painter.text(" jpg ", x: rect.x + 9, y: rect.y + 4, width: 5, color: .placeholder)
            }
            painter.text("IMG_\(index).jpg \(index < arrived ? "✓" : "…")", x: rect.x, y: rect.y + rect.height,
                         width: rect.width, color: .dimText)
        }
        painter.text(" \(arrived) of \(pictureCount) pictures", x: 0, y: size.rows - 1, width: size.columns, color: .status)
        if let overlay { painter.box(overlay, color: .panel) }
        output.beforeUpdate(overlays: overlay.map { [$0] } ?? [], screen: size)
        screen.update()
        output.afterUpdate()
        let bytes = screen.takeBytes()
        // Whatever curses wrote over a picture that stays must have been drawn again after it.
        for (key, rect) in placed where overlay.map({ !$0.intersects(rect) }) ?? true {
            let wiped = screen.written.contains { rect.x <= $0.x && $0.x < rect.x + rect.width && rect.y <= $0.y && $0.y < rect.y + rect.height }
            if wiped, mode != .kitty {
                XCTAssertGreaterThan(RecordingScreen.count("#\(key.itemID)", in: bytes), 0,
                                     "curses wrote over \(key.itemID) and it was not drawn again", file: file, line: line)
            }
        }
        return bytes
    }

    private func firstScreen(_ mode: GraphicsMode) -> (output: any PictureOutput, screen: RecordingScreen, images: Int) {
        let screen = RecordingScreen(size: size)
        let output = makeOutput(mode, screen: screen)
        var images = 0
        for arrived in 0...pictureCount {
            images += RecordingScreen.count(introducer(mode), in: paint(output, screen: screen, arrived: arrived, mode: mode))
        }
        // Idle frames send nothing.
        images += RecordingScreen.count(introducer(mode), in: paint(output, screen: screen, arrived: pictureCount, mode: mode))
        return (output, screen, images)
    }

    func testAFirstScreenSendsEachPictureOnce_sixel() {
        XCTAssertEqual(firstScreen(.sixels).images, pictureCount)
    }

    func testAFirstScreenSendsEachPictureOnce_iTerm2() {
        XCTAssertEqual(firstScreen(.iterm).images, pictureCount)
    }

    func testAFirstScreenSendsEachPictureOnce_kitty() {
        XCTAssertEqual(firstScreen(.kitty).images, pictureCount)
    }

    /// A new picture's cells are not written by curses where it believed them blank (the picture covers them);
    /// the placeholder's text is replaced by markers, which look blank.
    func testANewPicturesBlankCellsAreNotWrittenAsText_sixel() {
        let screen = RecordingScreen(size: size)
        let output = makeOutput(.sixels, screen: screen)
        paint(output, screen: screen, arrived: 0, mode: .sixels)
        paint(output, screen: screen, arrived: 1, mode: .sixels)
        let picture = CellRect(x: box(0).x + 2, y: box(0).y, width: 20, height: 8)
        let inPicture = screen.written.filter {
            picture.x <= $0.x && $0.x < picture.x + picture.width && picture.y <= $0.y && $0.y < picture.y + picture.height
        }
        XCTAssertEqual(inPicture.count, 5, "only the placeholder's label ' jpg ', replaced by markers")
    }

    func testAScrollDrawsMovedPicturesAgain_kittyPlacesThemByID() {
        for mode in [GraphicsMode.sixels, .iterm, .kitty] {
            let (output, screen, _) = firstScreen(mode)
            // The grid moved one row of cells up: item3..5 now on top, 6..8 new below.
            let bytes = paint(output, screen: screen, arrived: pictureCount, mode: mode, pictures: { index in
                let shifted = index + 3
                return (self.image(shifted, mode: mode), self.key(shifted))
            })
            let sent = RecordingScreen.count(introducer(mode), in: bytes)
            if mode == .kitty {
                XCTAssertEqual(sent, 3, "kitty transmits only item6..8; 3..5 are placed by id")
                XCTAssertEqual(RecordingScreen.count("a=p", in: bytes), 3)
            } else {
                XCTAssertEqual(sent, pictureCount, "\(mode): every moved picture is drawn at its new cells")
            }
        }
    }

    func testAnOverlayErasesOnlyThePicturesUnderIt_andTheyComeBack() {
        for mode in [GraphicsMode.sixels, .iterm] {
            let (output, screen, _) = firstScreen(mode)
            let panel = CellRect(x: 50, y: 1, width: 30, height: 22)
            let open = paint(output, screen: screen, arrived: pictureCount, mode: mode, overlay: panel)
            XCTAssertEqual(RecordingScreen.count(introducer(mode), in: open), 0, "\(mode): no picture beside the panel is re-sent")
            let under = box(2)
            XCTAssertTrue(screen.written.contains { $0.x == under.x + 3 && $0.y == under.y + 1 },
                          "\(mode): curses writes the covered picture's cells (that erases its pixels)")
            let closed = paint(output, screen: screen, arrived: pictureCount, mode: mode)
            XCTAssertEqual(RecordingScreen.count(introducer(mode), in: closed), 2, "\(mode): the two pictures under the panel")
        }
    }

    /// A movie playing in one cell: each frame replaces the last in place; its neighbours stay untouched.
    func testMovieFramesReplaceEachOtherAndLeaveNeighboursAlone() {
        for mode in [GraphicsMode.sixels, .iterm, .kitty] {
            let (output, screen, _) = firstScreen(mode)
            for serial in 1...3 {
                let bytes = paint(output, screen: screen, arrived: pictureCount, mode: mode, pictures: { index in
                    index == 1 ? (self.image(1, mode: mode, tag: "frame\(serial)"), self.key(1, movieFrame: serial)) : nil
                })
                XCTAssertEqual(RecordingScreen.count(introducer(mode), in: bytes), 1, "\(mode) frame \(serial)")
                XCTAssertEqual(RecordingScreen.count("#frame\(serial)#", in: bytes), 1)
            }
        }
    }

    func testAClearDrawsEverythingAgain_kittyDeletesAllFirst() {
        for mode in [GraphicsMode.sixels, .iterm, .kitty] {
            let (output, screen, _) = firstScreen(mode)
            output.redrawAfterClear(size: size)
            let bytes = paint(output, screen: screen, arrived: pictureCount, mode: mode)
            if mode == .kitty {
                XCTAssertEqual(RecordingScreen.count("a=d,d=a", in: bytes), 1, "placements go, the images stay")
                XCTAssertEqual(RecordingScreen.count("a=p", in: bytes), pictureCount)
            } else {
                XCTAssertEqual(RecordingScreen.count("#item", in: bytes), pictureCount, "\(mode)")
            }
        }
    }

    func testSymbolCellsAreDrawnIntoTheCellsAndSendNoEscapes() {
        let surface = MemorySurface(size: size)
        let output = SymbolCellsOutput(direct: nil, window: nil)
        let cell = TerminalCell(character: "▚", foreground: .white, background: .black)
        let picture = RenderedImage(columns: 20, rows: 8, mode: .symbols, colorDepth: .truecolor,
                                    cells: Array(repeating: cell, count: 160))
        let placed = output.show(picture, key: key(0), in: box(0), painter: ScreenPainter(surface: surface))
        XCTAssertEqual(placed, CellRect(x: 3, y: 2, width: 20, height: 8))
        XCTAssertEqual(surface.text(x: 3, y: 5, width: 20), String(repeating: "▚", count: 20))
        XCTAssertEqual(surface.text(x: 1, y: 5, width: 2), "  ")
        XCTAssertTrue(output.showsTextOverPictures)
    }
}
