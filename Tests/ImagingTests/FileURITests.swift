import Imaging
import MediaFormats
import XCTest

final class FileURITests: XCTestCase {
    func testMatchesGLibFilenameToURI() {
        // Expected value printed by g_filename_to_uri() from GLib 2.74 for the same path.
        XCTAssertEqual(FileURI.from(absolutePath: "/tmp/a b;c=d[1]@é~!$&+,()*'%#?:.jpg"),
                       "file:///tmp/a%20b%3Bc=d%5B1%5D@%C3%A9~!$&+,()*'%25%23%3F:.jpg")
        XCTAssertEqual(FileURI.from(absolutePath: "/home/jens/photos/me.png"), "file:///home/jens/photos/me.png")
    }

    /// A name that is not UTF-8 is keyed by its own bytes, as g_filename_to_uri does (issue 15.4): the same
    /// thumbnail a file manager made for it.
    func testANonUTF8NameIsPercentEncodedByteForByte() {
        let path = PathBytes.string(from: Array("/tmp/c".utf8) + [0xFF, 0xE9] + Array(".jpg".utf8))
        XCTAssertEqual(FileURI.from(absolutePath: path), "file:///tmp/c%FF%E9.jpg")
        XCTAssertEqual(ThumbnailCache.absolutePath(path), path, "standardising keeps the raw bytes")
    }
}
