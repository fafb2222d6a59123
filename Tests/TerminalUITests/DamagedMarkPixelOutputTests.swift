import BrowserCore
import BrowserRuntime
import Concurrent
import Imaging
import Library
import LibraryCore
import LivePairing
import MediaFormats
import TerminalGraphics
import TerminalProtocol
import XCTest
@testable import TerminalUI

/// Issue 31.7.2 in pixel modes: a pixel picture covers the text under it, so the "! damaged" mark must sit on a
/// row the picture leaves free. A damaged portrait photo filled its grid cell's picture box, and its mark went on
/// the picture's last row: under the sixel in xterm (seen in xterm -ti vt340 under Xvfb), where symbols, `show`
/// and `scan` all said "damaged". What covers what is the terminal's business; here the renderer's side of it:
/// the mark's row is outside every picture it shows.
final class DamagedMarkPixelOutputTests: XCTestCase {
    /// Places pictures as the pixel outputs do (centred in their box) and remembers where; text over them would
    /// be covered in a real terminal.
    private final class CoveringOutput: PictureOutput {
        var shown: [(key: ThumbnailKey, rect: CellRect)] = []
        var showsTextOverPictures: Bool { false }
        var letsCursesMoveText: Bool { false }
        func show(_ picture: RenderedImage, key: ThumbnailKey, in box: CellRect, painter: ScreenPainter) -> CellRect {
            let rect = CellRect(x: box.x + (box.width - picture.columns) / 2, y: box.y + (box.height - picture.rows) / 2,
                                width: picture.columns, height: picture.rows)
            shown.append((key, rect))
            return rect
        }
        func beforeUpdate(overlays: [CellRect], screen: TerminalSize) {}
        func afterUpdate() {}
        func redrawAfterClear(size: TerminalSize) {}
        func tmuxRedrew(target: TmuxPassthroughTarget) {}
        func removeAll() {}
    }

    /// A damaged file's partial picture, as tall as `aspect` (rows per column of the box) makes it: a portrait
    /// photo fills the box's height, a landscape one leaves rows free.
    private final class DamagedPictures: ThumbnailProvider {
        let modeDescription = "sixels: test"
        let portrait: Bool
        var decoded: Set<ThumbnailKey> = []
        init(portrait: Bool) { self.portrait = portrait }
        func request(_ key: ThumbnailKey, item: LibraryItem, priority: Urgency) { decoded.insert(key) }
        func cancelAll(except keep: Set<ThumbnailKey>) {}
        func picture(for key: ThumbnailKey) -> RenderedImage? {
            guard decoded.contains(key) else { return nil }
            let rows = portrait ? key.height : max(1, key.height / 2)
            let columns = portrait ? max(1, key.width / 2) : key.width
            let cell = TerminalCell(character: "░", foreground: .white, background: .black)
            return RenderedImage(columns: columns, rows: rows, mode: .symbols, colorDepth: .truecolor,
                                 cells: Array(repeating: cell, count: columns * rows))
        }
        func hasFailed(_ key: ThumbnailKey) -> Bool { false }
        func takeReadyKeys() -> [ThumbnailKey] { [] }
        func pictureNote(for itemID: ItemID) -> PictureNote? {
            PictureNote(error: ImagingError(.damaged(format: nil, .endsEarly)), shownInPart: true)
        }
    }

    private func state() -> BrowserState {
        let file = MediaFile(path: "/photos/cut.jpg", size: 1000, modificationTime: 0, info: MediaInfo(format: .jpeg))
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 80, rows: 24))
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: [LibraryItem(kind: .still, still: file)], warnings: [])))
        return state
    }

    /// Draws frames as the loop does: what the renderer asks for is decoded before the next frame.
    private func drawUntilSettled(_ state: BrowserState, provider: DamagedPictures) -> (MemorySurface, CoveringOutput) {
        func frame() -> (MemorySurface, CoveringOutput) {
            let surface = MemorySurface(size: state.layout.terminal)
            let output = CoveringOutput()
            let renderer = BrowserRenderer(badge: BadgePainter(corner: .topRight, style: .solid), keymap: Keymap())
            renderer.output = output
            renderer.draw(state, provider: provider, painter: ScreenPainter(surface: surface))
            for wanted in renderer.wantedPictures { provider.request(wanted.key, item: wanted.item, priority: wanted.priority) }
            return (surface, output)
        }
        _ = frame()   // the placeholder: the picture is asked for
        _ = frame()   // the picture: a shorter one may be asked for
        return frame()
    }

    private func assertMarkOutsideThePicture(portrait: Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        let state = state()
        let box = try XCTUnwrap(state.layout.pictureRect(index: 0, scrollRow: 0))
        let (surface, output) = drawUntilSettled(state, provider: DamagedPictures(portrait: portrait))
        let mark = try XCTUnwrap(surface.find("! damaged"), "the mark is drawn", file: file, line: line)
        let picture = try XCTUnwrap(output.shown.last, file: file, line: line)
        XCTAssertFalse(picture.rect.y..<(picture.rect.y + picture.rect.height) ~= mark.y,
                       "the mark (row \(mark.y)) is not under the picture (rows \(picture.rect.y)-\(picture.rect.y + picture.rect.height - 1))",
                       file: file, line: line)
        XCTAssertTrue(box.y..<(box.y + box.height) ~= mark.y, "the mark stays in the picture's box \(box)", file: file, line: line)
        if portrait {
            XCTAssertEqual(picture.rect.height, box.height - 1, "the picture gives up one row, no more", file: file, line: line)
        }
    }

    func testTheMarkOfADamagedPortraitPictureIsOnARowThePictureLeavesFree() throws {
        try assertMarkOutsideThePicture(portrait: true)
    }

    func testTheMarkOfADamagedLandscapePictureIsUnderIt() throws {
        try assertMarkOutsideThePicture(portrait: false)
    }
}
