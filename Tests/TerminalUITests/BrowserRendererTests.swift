import BrowserCore
import BrowserRuntime
import Concurrent
import GraphicsSettings
import Library
import LibraryCore
import LivePairing
import MediaFormats
import TerminalGraphics
import XCTest
@testable import TerminalUI

/// The renderer's layout drawn into a `MemorySurface` (no curses, no terminal): the status bar, badges in
/// the same corner with and without a picture, the header rows of grouped views and the selection highlight.
final class BrowserRendererTests: XCTestCase {
    /// Pictures on demand: symbol pictures for the items in `pictured`, filling the cells asked for.
    private final class FakeProvider: ThumbnailProvider {
        let modeDescription = "symbols: test"
        var pictured: Set<ItemID> = []
        func request(_ key: ThumbnailKey, item: LibraryItem, priority: Urgency) {}
        func cancelAll(except keep: Set<ThumbnailKey>) {}
        func picture(for key: ThumbnailKey) -> RenderedImage? {
            guard pictured.contains(key.itemID) else { return nil }
            let cell = TerminalCell(character: "░", foreground: .white, background: .black)
            return RenderedImage(columns: key.width, rows: key.height, mode: .symbols, colorDepth: .truecolor,
                                 cells: Array(repeating: cell, count: key.width * key.height))
        }
        func hasFailed(_ key: ThumbnailKey) -> Bool { false }
        func takeReadyKeys() -> [ThumbnailKey] { [] }
    }

    private static func file(_ path: String, format: ContainerFormat = .jpeg) -> MediaFile {
        MediaFile(path: path, size: 1000, modificationTime: 0, info: MediaInfo(format: format))
    }

    private static func still(_ path: String) -> LibraryItem { LibraryItem(kind: .still, still: file(path)) }

    private static func live(_ stem: String) -> LibraryItem {
        LibraryItem(kind: .live, still: file(stem + ".HEIC", format: .heif), movie: file(stem + ".MOV", format: .quickTime),
                    contentIdentifier: "ID-" + stem, pairing: .contentIdentifier)
    }

    private let size = TerminalSize(columns: 80, rows: 24)
    private let provider = FakeProvider()

    private func scanned(_ items: [LibraryItem], terminal: TerminalSize? = nil) -> BrowserState {
        var state = BrowserState(rootPath: "/photos", terminal: terminal ?? size)
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: items, warnings: [])))
        return state
    }

    private func draw(_ state: BrowserState, corner: BadgeCorner = .topRight) -> (MemorySurface, BrowserRenderer) {
        let surface = MemorySurface(size: state.layout.terminal)
        let renderer = BrowserRenderer(badge: BadgePainter(corner: corner, style: .solid), keymap: Keymap())
        renderer.draw(state, provider: provider, painter: ScreenPainter(surface: surface))
        return (surface, renderer)
    }

    func testTheStatusBarNamesTheSelectionOnTheLeftAndTheModeOnTheRight() {
        let state = scanned([Self.still("/photos/IMG_0001.JPG"), Self.live("/photos/IMG_0002"), Self.still("/photos/IMG_0003.JPG")])
        let (surface, _) = draw(state)
        let status = surface.line(size.rows - 1)
        XCTAssertTrue(status.hasPrefix(" 1/3 IMG_0001.JPG · "), status)
        XCTAssertTrue(status.hasSuffix("grid · symbols: test · ? help "), status)
        XCTAssertEqual(surface.cells[size.rows - 1][0].color, .status)
        XCTAssertEqual(surface.commits, 1, "one frame, one commit")

        let header = surface.line(0)
        XCTAssertTrue(header.hasPrefix(" livegrid  /photos"), header)
        XCTAssertTrue(header.hasSuffix("3 items · 1 live "), header)
    }

    func testAMessageKeepsItsWidthAndAFailedScanIsWordedAtTheEdge() {
        var state = BrowserState(rootPath: "/photos", terminal: size)
        state.reduce(.scanStarted)
        state.reduce(.scanFailed(.folderUnreadable(path: "/photos", reason: "Permission denied")))
        let (surface, _) = draw(state)
        XCTAssertTrue(surface.line(size.rows - 1).hasPrefix(" scan failed: cannot read the folder /photos: Permission denied"),
                      surface.line(size.rows - 1))
        XCTAssertNotNil(surface.find("Scan failed: cannot read the folder /photos: Permission denied"),
                        "the empty grid says why instead of \"No photos\"")
    }

    func testTheBadgeSitsInTheSameCornerWithAndWithoutAPicture() throws {
        for corner in BadgeCorner.allCases {
            let state = scanned([Self.live("/photos/IMG_0002")])
            let rect = try XCTUnwrap(state.layout.pictureRect(index: 0, scrollRow: 0))

            let (placeholder, _) = draw(state, corner: corner)
            provider.pictured = [state.items[0].id]
            defer { provider.pictured = [] }
            let (pictured, _) = draw(state, corner: corner)

            // The badge's cells: those that are not the picture's (or the placeholder's blank) in the corner row.
            let row = corner == .topLeft || corner == .topRight ? rect.y : rect.y + rect.height - 1
            let placeholderRow = placeholder.text(x: rect.x, y: row, width: rect.width)
            let picturedRow = pictured.text(x: rect.x, y: row, width: rect.width)
            let placeholderBadge = try XCTUnwrap(placeholderRow.range(of: "LIVE"), "\(corner): \(placeholderRow)")
            let picturedBadge = try XCTUnwrap(picturedRow.range(of: "LIVE"), "\(corner): \(picturedRow)")
            XCTAssertEqual(placeholderRow.distance(from: placeholderRow.startIndex, to: placeholderBadge.lowerBound),
                           picturedRow.distance(from: picturedRow.startIndex, to: picturedBadge.lowerBound),
                           "\(corner): same column with and without a picture")
            // Flush with the corner's side: the whole label at the start (left corners) or the end (right corners).
            let label = try XCTUnwrap(BadgePainter(corner: corner, style: .solid).label(for: .live, fitting: rect.width))
            let left = corner == .topLeft || corner == .bottomLeft
            for row in [placeholderRow, picturedRow] {
                XCTAssertTrue(left ? row.hasPrefix(label) : row.hasSuffix(label), "\(corner): [\(row)] [\(label)]")
            }
            XCTAssertEqual(pictured.pictures.count, 1)
        }
    }

    func testGroupedViewsDrawAHeaderRowAboveEachFolder() throws {
        var state = scanned([Self.still("/photos/2023 Ferien/IMG_1.JPG"), Self.still("/photos/2023 Ferien/IMG_2.JPG"),
                             Self.still("/photos/Zürich/IMG_3.JPG")])
        state.reduce(.view(.setGrouping(.folder)))
        let (surface, _) = draw(state)
        let first = try XCTUnwrap(surface.find("── "), (0..<size.rows).map(surface.line).joined(separator: "\n"))
        let second = try XCTUnwrap((first.y + 1..<size.rows).first { surface.line($0).hasPrefix("── ") })
        XCTAssertTrue(surface.line(first.y).contains("Ferien · 2 items"), surface.line(first.y))
        XCTAssertTrue(surface.line(second).contains("Zürich · 1 item"), surface.line(second))
        XCTAssertEqual(surface.cells[first.y][0].color, .dimText)
        // The rows between the headers hold the first folder's cells: its captions sit above the second header.
        let captions = (first.y + 1..<second).map(surface.line)
        XCTAssertTrue(captions.contains { $0.contains("IMG_1.JPG") && $0.contains("IMG_2.JPG") }, captions.joined(separator: "\n"))
        XCTAssertFalse(captions.contains { $0.contains("IMG_3.JPG") })
        XCTAssertTrue(surface.line(0).contains("folders · by name"), surface.line(0))
    }

    func testTheSelectedCaptionIsBoldWithAPointerAndTheSelectionColour() throws {
        var state = scanned([Self.still("/photos/IMG_0001.JPG"), Self.still("/photos/IMG_0002.JPG")])
        state.reduce(.move(.right))
        let (surface, renderer) = draw(state)
        let selected = try XCTUnwrap(surface.find("▸IMG_0002.JPG"))
        let other = try XCTUnwrap(surface.find("IMG_0001.JPG"))
        XCTAssertTrue(surface.isBold(x: selected.x + 1, y: selected.y))
        XCTAssertEqual(surface.cells[selected.y][selected.x + 1].color, .selection)
        XCTAssertFalse(surface.isBold(x: other.x, y: other.y))
        XCTAssertNil(surface.cells[other.y][other.x].color)
        XCTAssertEqual(surface.text(x: other.x - 1, y: other.y, width: 1), " ", "no pointer on the other caption")
        // The selected picture is the one wanted first.
        XCTAssertEqual(renderer.wantedPictures.first { $0.priority == .selected }?.item.id, state.items[1].id)
    }

    func testTheInfoPanelIsAnOverlayAlongTheRightEdge() throws {
        var state = scanned([Self.live("/photos/IMG_0002"), Self.still("/photos/IMG_0003.JPG")])
        state.reduce(.toggleInfo)
        let (surface, renderer) = draw(state)
        let panel = try XCTUnwrap(renderer.overlays.first, "the panel is reported, so pixel pictures under it are left out")
        XCTAssertEqual(renderer.overlays.count, 1)
        XCTAssertEqual(panel.x + panel.width, state.layout.content.width)
        XCTAssertEqual(panel.y, state.layout.content.y)
        XCTAssertEqual(surface.text(x: panel.x, y: panel.y, width: 8), "┌─ Info ")
        XCTAssertEqual(surface.text(x: panel.x + panel.width - 1, y: panel.y + 1, width: 1), "│")
        XCTAssertEqual(surface.cells[panel.y + 1][panel.x].color, .panel)
    }

    func testAListOnASmallTerminalKeepsBadgesInOneColumn() throws {
        let small = TerminalSize(columns: 22, rows: 8)
        var state = scanned([Self.still("/photos/IMG_0001.JPG"), Self.live("/photos/IMG_0002"),
                             LibraryItem(kind: .video, movie: Self.file("/photos/MVI_3.MOV", format: .quickTime))],
                            terminal: small)
        XCTAssertTrue(state.layout.isList)
        state.reduce(.move(.down))
        let (surface, _) = draw(state)
        let still = try XCTUnwrap(surface.find("IMG_0001.JPG")), live = try XCTUnwrap(surface.find("IMG_0002"))
        let video = try XCTUnwrap(surface.find("MVI_3.MOV"))
        XCTAssertEqual(Set([still.x, live.x, video.x]).count, 1, "names line up after the badge column")
        let label = try XCTUnwrap(BadgePainter(corner: .topRight, style: .solid).label(for: .live, fitting: 8))
        XCTAssertEqual(surface.text(x: 1, y: live.y, width: DisplayWidth.of(label)), label)
        XCTAssertEqual(surface.text(x: 0, y: live.y, width: 1), "▸", "the selected row is pointed at")
        XCTAssertTrue(surface.isBold(x: live.x, y: live.y))
        XCTAssertEqual(surface.text(x: 0, y: still.y, width: 1), " ")
    }

    /// badge34: a remote Live Photo's badge over its symbol picture is text, drawn with the cell's download line
    /// (composited into the picture's cells, it reached the terminal after the line, a write later: "✓ playable"
    /// showed under the outlined "not playable yet" badge). Outlined while the movie downloads, the normal badge
    /// with "✓ playable", in the same corner cells as a local item's.
    func testARemoteItemsBadgeIsTextChangingWithItsDownloadLine() throws {
        let base = try XCTUnwrap(URL(string: "http://127.0.0.1:8080/photos/"))
        func remoteLive(movie: DownloadState) -> RemoteItem {
            RemoteItem(item: LibraryItem(kind: .live, still: Self.file("IMG_1.JPG"), movie: Self.file("IMG_1.MOV", format: .quickTime)),
                       isPlaceholder: false, stillURL: base.appendingPathComponent("IMG_1.JPG"),
                       movieURL: base.appendingPathComponent("IMG_1.MOV"), stillState: .downloaded(path: "/cache/IMG_1.JPG"),
                       movieState: movie)
        }
        for corner in BadgeCorner.allCases {
            var state = BrowserState(rootPath: "", terminal: size)
            state.beginRemote(libraryURL: base)
            state.reduce(.scanStarted)
            let downloading = remoteLive(movie: .downloading(bytes: 1000, total: 3000, bytesPerSecond: 500))
            state.reduce(.remote(.event(directory: base, .paired([downloading]))))
            provider.pictured = [downloading.id]
            defer { provider.pictured = [] }
            let rect = try XCTUnwrap(state.layout.pictureRect(index: 0, scrollRow: 0))
            let label = try XCTUnwrap(BadgePainter(corner: corner, style: .solid).label(for: .live, fitting: rect.width))
            let width = DisplayWidth.of(label)
            let top = corner == .topLeft || corner == .topRight
            let x = corner == .topLeft || corner == .bottomLeft ? rect.x : rect.x + rect.width - width
            let badgeRow = top ? rect.y : rect.y + rect.height - 1, lineRow = top ? rect.y + rect.height - 1 : rect.y

            let (pending, _) = draw(state, corner: corner)
            XCTAssertEqual(pending.text(x: x, y: badgeRow, width: width), " ◌ LIVE ", "\(corner)")
            XCTAssertTrue(pending.text(x: rect.x, y: lineRow, width: rect.width).contains("66%"), "\(corner)")

            state.reduce(.remote(.event(directory: base, .itemChanged(remoteLive(movie: .downloaded(path: "/cache/IMG_1.MOV"))))))
            let (playable, _) = draw(state, corner: corner)
            XCTAssertEqual(playable.text(x: x, y: badgeRow, width: width), label, "\(corner): the normal badge, same cells")
            XCTAssertTrue(playable.text(x: rect.x, y: lineRow, width: rect.width).contains("✓ playable"), "\(corner)")
            for surface in [pending, playable] {
                XCTAssertFalse((x..<(x + width)).contains { surface.cells[badgeRow][$0].isPicture },
                               "\(corner): the badge is text like the line, not cells of the picture")
                let picture = try XCTUnwrap(surface.pictures.first?.image)
                XCTAssertFalse(picture.cells.contains { $0.character == "◎" }, "\(corner): the picture is drawn without its badge")
            }
            XCTAssertEqual(playable.cells[badgeRow][x + 1].color, .badgeLive, "\(corner): the placeholder's solid colours")
        }
    }
}
