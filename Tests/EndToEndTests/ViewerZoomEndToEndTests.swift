import Foundation
import XCTest

/// The viewer's 1:1 zoom and pan in a real terminal (tmux, symbols mode; issue 31.3).
final class ViewerZoomEndToEndTests: XCTestCase {
    private var fixture: BrowserFixture!

    override func setUpWithError() throws {
        fixture = try BrowserFixture.make()
    }

    override func tearDown() {
        fixture?.remove()
    }

    /// "100 % · x,y w×h of W×H" off the status bar.
    private func crop(_ screen: [String]) -> (x: Int, y: Int, width: Int, height: Int, imageWidth: Int, imageHeight: Int)? {
        guard let line = screen.last(where: { $0.contains("· 100 % · ") }),
              let range = line.range(of: #"100 % · (\d+),(\d+) (\d+)×(\d+) of (\d+)×(\d+)"#, options: .regularExpression)
        else { return nil }
        let numbers = line[range].dropFirst(7).split { !$0.isNumber }.compactMap { Int($0) }
        guard numbers.count == 6 else { return nil }
        return (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
    }

    /// The picture rows of the viewer (everything between the header and the caption line).
    private func pictureRows(_ screen: [String]) -> [String] { Array(screen.dropFirst().dropLast(2)) }

    /// True once the picture area shows a picture (symbols), not the placeholder's corners.
    private func showsPicture(_ screen: [String]) -> Bool {
        pictureRows(screen).contains { row in row.unicodeScalars.contains { (0x2580...0x259F).contains($0.value) } }
    }

    func testZoomPanToTheEdgesAndFitAgain() throws {
        let session = try TmuxSession(command: fixture.command(), columns: 160, rows: 40)
        let count = fixture.names.count
        try session.waitFor("the grid") { $0.first?.contains("\(count) items") == true }
        try session.send("/", "t", "r", "a", "i", "n", "Enter")
        try session.waitFor("the filtered grid") { $0.first?.contains("1 item") == true }
        try session.send("Enter")
        try session.waitFor("the viewer") { $0.contains { $0.contains("viewer ·") } && $0.contains { $0.contains("z 100 %") } }
        let fitted = try session.waitFor("the fitted picture") { self.showsPicture($0) }

        try session.send("z")
        let zoomed = try session.waitFor("100 % in the status bar") { self.crop($0) != nil }
        let centre = try XCTUnwrap(crop(zoomed))
        XCTAssertEqual(centre.width, 2 * 160, "symbols: 2 image pixels per cell across the whole width")
        XCTAssertEqual(centre.x, (centre.imageWidth - centre.width) / 2, "zoomed around the centre")
        // The crop replaces the fitted picture once the full-size decode is done.
        let centreScreen = try session.waitFor("the crop drawn", timeout: 60) { screen in
            self.crop(screen) != nil && self.showsPicture(screen) && self.pictureRows(screen) != self.pictureRows(fitted)
        }

        for _ in 0..<40 { try session.send("l") }
        for _ in 0..<40 { try session.send("j") }
        let corner = try session.waitFor("the bottom-right corner") { screen in
            guard let crop = self.crop(screen) else { return false }
            return crop.x + crop.width == crop.imageWidth && crop.y + crop.height == crop.imageHeight
        }
        XCTAssertTrue(corner.contains { $0.contains(" 1/1 · 100 % · ") }, "panning never leaves the photo")
        try session.waitFor("the corner's crop drawn", timeout: 60) { screen in
            self.showsPicture(screen) && self.pictureRows(screen) != self.pictureRows(centreScreen)
        }

        // A step is a quarter of the crop (80 image pixels across here): 3,712 pixels back take 47 steps.
        try session.send("Left")
        for _ in 0..<60 { try session.send("h") }
        try session.send("Up")
        for _ in 0..<80 { try session.send("k") }
        try session.waitFor("the top-left corner") { screen in
            guard let crop = self.crop(screen) else { return false }
            return crop.x == 0 && crop.y == 0
        }

        try session.send("z")
        try session.waitFor("fitted again") { screen in
            !screen.contains { $0.contains("· 100 % · ") } && screen.contains { $0.contains("viewer ·") }
        }
        try session.send("Escape")
        try session.waitFor("back in the grid") { $0.contains { $0.contains("grid ·") } }
    }

    /// Mouse drag pans the zoomed picture (issue 31.3): button 1 down on the picture, motion, release, as
    /// SGR reports (what the browser asks for). The picture moves with the pointer. Motion is reported only
    /// while zoomed (tmux says which mouse modes the pane asked for).
    func testDraggingPansTheZoomedPictureWithThePointer() throws {
        let session = try TmuxSession(command: fixture.command(), columns: 160, rows: 40)
        let count = fixture.names.count
        try session.waitFor("the grid") { $0.first?.contains("\(count) items") == true }
        XCTAssertEqual(try session.display("#{mouse_button_flag}"), "0", "no motion reports in the grid")
        XCTAssertEqual(try session.display("#{mouse_standard_flag}#{mouse_sgr_flag}"), "11", "press and release, SGR form")
        try session.send("/", "t", "r", "a", "i", "n", "Enter")
        try session.waitFor("the filtered grid") { $0.first?.contains("1 item") == true }
        try session.send("Enter")
        try session.waitFor("the fitted picture") { self.showsPicture($0) && $0.contains { $0.contains("viewer ·") } }
        XCTAssertEqual(try session.display("#{mouse_button_flag}"), "0", "no motion reports in the fitted viewer")

        try session.send("z")
        let start = try XCTUnwrap(crop(try session.waitFor("100 % in the status bar") { self.crop($0) != nil }))
        try session.waitFor("motion reports while zoomed") { _ in (try? session.display("#{mouse_button_flag}")) == "1" }

        // Press in the middle of the picture, drag 10 cells right and 3 up, release.
        try session.sgrMouse(button: 0, x: 80, y: 20, release: false)
        for step in 1...10 { try session.sgrMouse(button: 32, x: 80 + step, y: 20 - (step * 3) / 10, release: false) }
        try session.sgrMouse(button: 0, x: 90, y: 17, release: true)
        // Dragged right: the crop moves left, 2 image pixels per cell; dragged up: it moves down, 4 per cell.
        let dragged = try session.waitFor("the crop moved with the pointer, 20 pixels left and 12 down") { screen in
            guard let crop = self.crop(screen) else { return false }
            return crop.x == start.x - 10 * 2 && crop.y == start.y + 3 * 4
        }
        let moved = try XCTUnwrap(crop(dragged))
        XCTAssertTrue(dragged.contains { $0.contains(" 1/1 · 100 % · ") }, "still the one photo, still zoomed")

        // After the release, motion (button held or not) moves nothing: the next key pan starts from there.
        try session.sgrMouse(button: 32, x: 40, y: 10, release: false)
        try session.sgrMouse(button: 35, x: 30, y: 10, release: false)
        try session.send("l")
        try session.waitFor("one key pan from where the drag left it") { screen in
            guard let crop = self.crop(screen) else { return false }
            return crop.x == moved.x + moved.width / 4 && crop.y == moved.y
        }

        try session.send("z")
        try session.waitFor("fitted again") { !$0.contains { $0.contains("· 100 % · ") } }
        try session.waitFor("no motion reports once fitted") { _ in
            (try? session.display("#{mouse_button_flag}#{mouse_standard_flag}#{mouse_sgr_flag}")) == "011"
        }
    }
}

private extension TmuxSession {
    /// A mouse report in SGR form (`CSI < b ; x ; y M`, `m` for a release) at a zero-based cell, written into
    /// the pane as the terminal would send it. `button`: 0 = button 1, +32 = motion, 35 = motion, no button.
    func sgrMouse(button: Int, x: Int, y: Int, release: Bool) throws {
        try run(["send-keys", "-t", name, "-l", "\u{1B}[<\(button);\(x + 1);\(y + 1)\(release ? "m" : "M")"], capture: false)
    }
}
