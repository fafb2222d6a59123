import Imaging
import XCTest

final class MD5Tests: XCTestCase {
    func testRFC1321Vectors() {
        XCTAssertEqual(MD5.hexDigest(""), "d41d8cd98f00b204e9800998ecf8427e")
        XCTAssertEqual(MD5.hexDigest("abc"), "900150983cd24fb0d6963f7d28e17f72")
        XCTAssertEqual(MD5.hexDigest("message digest"), "f96b697d7cb7938d525a2f31aaf161d0")
        XCTAssertEqual(MD5.hexDigest(String(repeating: "1234567890", count: 8)), "57edf4a22be3c955ac49da2e2107b67a")
    }

    func testThumbnailSpecExample() {
        // From the freedesktop Thumbnail Managing Standard.
        XCTAssertEqual(MD5.hexDigest("file:///home/jens/photos/me.png"), "c6ee772d9e49320e97ec29a7eb5b1697")
    }
}
