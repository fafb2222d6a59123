import Imaging
import XCTest

final class FileURITests: XCTestCase {
    func testMatchesGLibFilenameToURI() {
        // Expected value printed by g_filename_to_uri() from GLib 2.74 for the same path.
        XCTAssertEqual(FileURI.from(absolutePath: "/tmp/a b;c=d[1]@é~!$&+,()*'%#?:.jpg"),
                       "file:///tmp/a%20b%3Bc=d%5B1%5D@%C3%A9~!$&+,()*'%25%23%3F:.jpg")
        XCTAssertEqual(FileURI.from(absolutePath: "/home/jens/photos/me.png"), "file:///home/jens/photos/me.png")
    }
}
