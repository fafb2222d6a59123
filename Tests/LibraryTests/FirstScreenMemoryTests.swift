import Foundation
import LibraryIndex
import TestSupport
import XCTest

/// The index remembers which pictures a view showed first (issue 17 item 2: a known library's first screen):
/// per view, in order, any path byte but NUL kept; an index made before the table existed gains it, and a
/// damaged one answers nothing rather than failing.
final class FirstScreenMemoryTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try Fixtures.makeTemporaryDirectory("livegrid-first-screen") }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func testRemembersEachViewsFirstScreenInOrder() {
        let path = dir.appendingPathComponent("index.sqlite").path
        let ids = ["/photos/IMG_0001.JPG", "/photos/a\nb.jpg", "/photos/\u{EF80}raw.jpg", "/photos/é.heic"]
        do {
            let index = LibraryIndex(path: path)
            XCTAssertEqual(index.firstScreen(view: "by-name"), [], "nothing remembered yet")
            index.storeFirstScreen(ids, view: "by-name")
            index.storeFirstScreen(["/photos/x.jpg"], view: "timeline")
            index.storeFirstScreen(["/photos/with\u{0}nul.jpg", "/photos/y.jpg"], view: "nul")
        }
        let reopened = LibraryIndex(path: path)
        XCTAssertEqual(reopened.firstScreen(view: "by-name"), ids)
        XCTAssertEqual(reopened.firstScreen(view: "timeline"), ["/photos/x.jpg"])
        XCTAssertEqual(reopened.firstScreen(view: "nul"), ["/photos/y.jpg"], "an id with a NUL is left out")
        reopened.storeFirstScreen(Array(ids.reversed()), view: "by-name")
        XCTAssertEqual(reopened.firstScreen(view: "by-name"), ids.reversed(), "the last screen replaces the one before")
        let many = (0..<2000).map { "/photos/\($0).jpg" }
        reopened.storeFirstScreen(many, view: "many")
        XCTAssertEqual(reopened.firstScreen(view: "many"), Array(many.prefix(LibraryIndex.firstScreenLimit)))
        XCTAssertEqual(reopened.integrityCheck(), "ok")
    }

    func testAnIndexWithoutTheTableGainsIt() throws {
        let path = dir.appendingPathComponent("old.sqlite").path
        do {
            let index = LibraryIndex(path: path)
            XCTAssertTrue(index.isUsable)
        }
        // As an index written before the table existed: schema 2 without `first_screens`.
        let drop = Process()
        drop.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        drop.arguments = ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('DROP TABLE first_screens'); c.commit()", path]
        try drop.run()
        drop.waitUntilExit()
        XCTAssertEqual(drop.terminationStatus, 0)
        let index = LibraryIndex(path: path)
        XCTAssertNil(index.warning, "not a damaged index: no rebuild")
        XCTAssertEqual(index.firstScreen(view: "v"), [])
        index.storeFirstScreen(["/a.jpg"], view: "v")
        XCTAssertEqual(index.firstScreen(view: "v"), ["/a.jpg"])
    }

    func testAnUnusableIndexRemembersNothing() throws {
        let blocker = dir.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let index = LibraryIndex(path: blocker.appendingPathComponent("index.sqlite").path)
        index.storeFirstScreen(["/a.jpg"], view: "v")
        XCTAssertEqual(index.firstScreen(view: "v"), [])
    }
}
