import BrowserCore
import LibraryCore
import LibraryCore
import LivePairing
import MediaFormats
import XCTest

/// The viewer's 1:1 zoom and pan (issue 31.3), on items of 4032x3024 pixels in a 120x40 terminal.
final class ViewerZoomTests: XCTestCase {
    private func viewerState(_ items: [LibraryItem] = TestItems.stills(3)) -> BrowserState {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: items, warnings: [])))
        state.reduce(.openViewer)
        return state
    }

    private func crop(_ state: BrowserState) throws -> ZoomCrop {
        let zoom = try XCTUnwrap(state.zoomedViewer)
        let rect = try XCTUnwrap(state.viewerPictureRect)
        return zoom.crop(imageWidth: 4032, imageHeight: 3024, columns: rect.width, rows: rect.height, cell: state.zoomCellPixels)
    }

    func testZZoomsTheViewerTo100PercentAndFitsAgain() throws {
        var state = viewerState()
        let keymap = Keymap()
        guard case .toggleViewerZoom? = keymap.action(for: .character("z"), in: state) else { return XCTFail("z zooms") }
        state.reduce(.toggleViewerZoom)
        let zoom = try XCTUnwrap(state.zoomedViewer)
        XCTAssertEqual(zoom.centerX, 0.5)
        XCTAssertEqual(zoom.centerY, 0.5)
        let rect = try XCTUnwrap(state.viewerPictureRect)
        let shown = try crop(state)
        XCTAssertEqual(shown.width, rect.width * 2, "symbols: 2 image pixels per cell across")
        XCTAssertEqual(shown.height, rect.height * 4, "symbols: 4 image pixels per cell down")
        XCTAssertEqual(shown.x, (4032 - shown.width) / 2)
        let status = try XCTUnwrap(state.viewerZoomStatus)
        XCTAssertTrue(status.hasPrefix("100 % · \(shown.x),\(shown.y) \(shown.width)×\(shown.height) of 4032×3024"), status)
        state.reduce(.toggleViewerZoom)
        XCTAssertNil(state.zoomedViewer, "the same key fits again")
        XCTAssertEqual(state.mode, .viewer)
        state.reduce(.back)
        XCTAssertNil(keymap.action(for: .character("z"), in: state).map { "\($0)" }, "z does nothing in the grid")
    }

    /// xterm shows nothing of a sixel above its size limit: the 1:1 crop covers the centre of the area within
    /// it, and the status bar and the pan's edges speak of that crop (one image pixel per terminal pixel).
    func testTheZoomCoversNoMoreCellsThanTheSixelLimitAllows() throws {
        var state = viewerState()
        state.zoomCellPixels = ZoomCellPixels(width: 10, height: 20, maxColumns: 80, maxRows: 24)
        state.reduce(.toggleViewerZoom)
        let area = try XCTUnwrap(state.viewerPictureRect), zoomed = try XCTUnwrap(state.viewerZoomRect)
        XCTAssertEqual(zoomed.width, 80)
        XCTAssertEqual(zoomed.height, 24)
        XCTAssertEqual(zoomed.x, area.x + (area.width - 80) / 2, "centred")
        XCTAssertEqual(zoomed.y, area.y + (area.height - 24) / 2, "centred")
        let status = try XCTUnwrap(state.viewerZoomStatus)
        XCTAssertTrue(status.contains(" 800×480 of 4032×3024"), status)
        for _ in 0..<200 { state.reduce(.move(.right)) }
        let zoom = try XCTUnwrap(state.zoomedViewer)
        let crop = zoom.crop(imageWidth: 4032, imageHeight: 3024, columns: 80, rows: 24, cell: state.zoomCellPixels)
        XCTAssertEqual(crop.x + crop.width, 4032, "the pan reaches the right edge with the smaller crop")
    }

    func testPanStopsAtTheImageEdges() throws {
        var state = viewerState()
        state.zoomCellPixels = ZoomCellPixels(width: 10, height: 20)
        state.reduce(.toggleViewerZoom)
        for _ in 0..<200 { state.reduce(.move(.right)) }
        for _ in 0..<200 { state.reduce(.move(.down)) }
        var shown = try crop(state)
        XCTAssertEqual(shown.x + shown.width, 4032, "right edge reached")
        XCTAssertEqual(shown.y + shown.height, 3024, "bottom edge reached")
        XCTAssertEqual(state.selection, 0, "panning never steps to the next photo")
        // No dead travel past the edge: one step back moves the crop at once.
        state.reduce(.move(.left))
        XCTAssertLessThan(try crop(state).x + shown.width, 4032)
        for _ in 0..<200 { state.reduce(.move(.left)) }
        for _ in 0..<200 { state.reduce(.scroll(rows: -3)) }
        shown = try crop(state)
        XCTAssertEqual(shown.x, 0)
        XCTAssertEqual(shown.y, 0)
        XCTAssertEqual(state.selection, 0)
    }

    func testEscFitsFirstAndAnotherPhotoFitsAgain() throws {
        var state = viewerState()
        state.reduce(.toggleViewerZoom)
        state.reduce(.back)
        XCTAssertNil(state.zoomedViewer)
        XCTAssertEqual(state.mode, .viewer, "Esc fits before it leaves the viewer")
        state.reduce(.toggleViewerZoom)
        state.reduce(.pageDown)
        XCTAssertNotEqual(state.selection, 0)
        XCTAssertNil(state.zoomedViewer, "another photo opens fitted")
        state.reduce(.move(.left))
        XCTAssertEqual(state.selection, 1, "fitted, left steps through the photos again")
    }

    func testZoomCentresOnTheLastClickInThePicture() throws {
        var state = viewerState()
        let rect = try XCTUnwrap(state.viewerPictureRect)
        // The right-hand side of the picture, half way down (the 4:3 picture is pillarboxed in 120 columns).
        state.reduce(.click(x: rect.x + rect.width / 2 + rect.height * 2 * 4 / 3 / 2 - 2, y: rect.y + rect.height / 2))
        state.reduce(.toggleViewerZoom)
        let zoom = try XCTUnwrap(state.zoomedViewer)
        XCTAssertGreaterThan(zoom.centerX, 0.8)
        XCTAssertEqual(zoom.centerY, 0.5, accuracy: 0.05)
    }

    func testUnknownImageSizeStillZoomsAndPansWithoutLeavingTheImage() throws {
        var info = MediaInfo(format: .jpeg)
        info.pixelWidth = nil
        let item = LibraryItem(kind: .still, still: MediaFile(path: "/photos/a.jpg", size: 1, modificationTime: 0, info: info))
        var state = viewerState([item])
        state.reduce(.toggleViewerZoom)
        for _ in 0..<100 { state.reduce(.move(.up)) }
        let zoom = try XCTUnwrap(state.zoomedViewer)
        XCTAssertEqual(zoom.centerY, 0)
        XCTAssertEqual(state.viewerZoomStatus, "100 % · at 50 %, 0 %")
    }

    func testAMovieSaysWhyItDoesNotZoom() {
        var state = viewerState([TestItems.video("clip.mov")])
        state.reduce(.toggleViewerZoom)
        XCTAssertNil(state.zoomedViewer)
        XCTAssertEqual(state.message, "1:1 zoom is for photos: a movie shows its frames fitted")
    }

    func testCropOfASmallImageIsTheWholeImage() {
        let crop = ViewerZoom(itemID: "x", centerX: 1, centerY: 0).crop(imageWidth: 50, imageHeight: 30, columns: 100,
                                                                           rows: 30, cell: .symbols)
        XCTAssertEqual(crop, ZoomCrop(x: 0, y: 0, width: 50, height: 30))
    }

    /// Mouse drag (issue 31.3): the picture follows the pointer, so the crop moves the other way by the image
    /// pixels the cells show (2x4 per symbols cell), stops at the edges and moves back at once.
    func testDraggingMovesThePictureWithThePointer() throws {
        var state = viewerState()
        state.reduce(.toggleViewerZoom)
        let rect = try XCTUnwrap(state.viewerPictureRect)
        let start = try crop(state)
        let x = rect.x + rect.width / 2, y = rect.y + rect.height / 2
        state.reduce(.viewerDrag(.pressed(x: x, y: y)))
        for step in 1...10 { state.reduce(.viewerDrag(.moved(x: x + step, y: y - step / 4))) }
        var shown = try crop(state)
        XCTAssertEqual(shown.x, start.x - 10 * 2, "dragged right: more of the left side")
        XCTAssertEqual(shown.y, start.y + 2 * 4, "dragged up: more of the bottom")
        for step in 1...1000 { state.reduce(.viewerDrag(.moved(x: x + 10 + step, y: y - 2))) }
        XCTAssertEqual(try crop(state).x, 0, "stops at the left edge")
        state.reduce(.viewerDrag(.moved(x: x + 1009, y: y - 2)))
        XCTAssertEqual(try crop(state).x, 2, "one cell back moves at once: no dead travel")
        state.reduce(.viewerDrag(.released))
        XCTAssertNil(state.viewerDrag)
        shown = try crop(state)
        state.reduce(.viewerDrag(.moved(x: x - 50, y: y)))
        XCTAssertEqual(try crop(state), shown, "motion after the release moves nothing")
        XCTAssertEqual(state.selection, 0)
    }

    func testADragStartsOnlyOnTheZoomedPicture() throws {
        var state = viewerState()
        let rect = try XCTUnwrap(state.viewerPictureRect)
        state.reduce(.viewerDrag(.pressed(x: rect.x + 5, y: rect.y + 5)))
        XCTAssertNil(state.viewerDrag, "fitted: no drag")
        state.reduce(.toggleViewerZoom)
        state.reduce(.viewerDrag(.pressed(x: rect.x + 5, y: rect.y + rect.height + 1)))
        XCTAssertNil(state.viewerDrag, "a press on the status bar is no drag")
        state.reduce(.toggleHelp)
        state.reduce(.viewerDrag(.pressed(x: rect.x + 5, y: rect.y + 5)))
        XCTAssertNil(state.viewerDrag, "not under the help screen")
        state.reduce(.toggleHelp)
        state.reduce(.viewerDrag(.pressed(x: rect.x + 5, y: rect.y + 5)))
        XCTAssertNotNil(state.viewerDrag)
        state.reduce(.toggleViewerZoom)
        XCTAssertNil(state.viewerDrag, "fitting again ends the drag")
    }

    func testHelpShowsTheKeyAndItCanBeRebound() {
        var keymap = Keymap()
        XCTAssertTrue(HelpScreen.lines(keymap: keymap).contains { $0.hasPrefix("Zoom 100 %/fit") && $0.hasSuffix("z") })
        keymap.rebind(.actualSize, to: [.character("Z")])
        XCTAssertTrue(HelpScreen.lines(keymap: keymap).contains { $0.hasPrefix("Zoom 100 %/fit") && $0.hasSuffix("Z") })
        XCTAssertEqual(KeyCommand(rawValue: "zoom-100"), .actualSize)
    }
}
