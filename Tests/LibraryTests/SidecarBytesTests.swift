import Foundation
import Library
import LibraryCore
import LivePairing
import TestSupport
import XCTest

/// Issue 32.6 and 31.4: a rating changes the rating and nothing else, byte for byte, whatever the sidecar's
/// encoding; a symlinked sidecar is updated where it points and stays a link; a sidecar livegrid made only
/// for a rating goes when the rating does.
final class SidecarBytesTests: XCTestCase {
    var root = ""
    override func setUpWithError() throws { root = try TriageFixtures.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }   // try?: clean-up of a temporary folder

    func testALatin1SidecarKeepsEveryByteButTheRating() throws {
        let item = try TriageFixtures.still(in: root, name: "f.jpg")
        let path = root + "/f.jpg.xmp"
        try Data(SidecarSamples.latin1(rating: 2)).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try SidecarTriageStore.read(for: item), TriageState(rating: 2))
        try SidecarTriageStore.write(TriageState(rating: 5), for: item)
        let after = try XCTUnwrap(TriageFixtures.bytes(path))
        XCTAssertEqual(Array(after), SidecarSamples.latin1(rating: 5), "only the rating's digit changed")
        XCTAssertFalse(Array(after).starts(with: [0xEF, 0xBF, 0xBD]) || after.range(of: Data([0xEF, 0xBF, 0xBD])) != nil,
                       "no U+FFFD anywhere")
    }

    func testUTF8TextAndUnknownBytesSurviveAnAddedProperty() throws {
        let item = try TriageFixtures.still(in: root, name: "g.jpg")
        let path = root + "/g.jpg.xmp"
        // A sidecar without a Rating: livegrid adds the attribute, and the rest (UTF-8 "é", a stray 0xFF) stays.
        var bytes = Array("""
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about=""><!-- caf\u{E9} 
        """.utf8)
        bytes += [0xFF] + Array(" --></rdf:Description></rdf:RDF></x:xmpmeta>\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try SidecarTriageStore.write(TriageState(rating: 3), for: item)
        let after = Array(try XCTUnwrap(TriageFixtures.bytes(path)))
        XCTAssertTrue(after.starts(with: Array(bytes.prefix(60))), "the start is untouched")
        XCTAssertTrue(after.suffix(50).elementsEqual(bytes.suffix(50)), "the end is untouched")
        XCTAssertEqual(after.filter { $0 == 0xFF }.count, 1)
        XCTAssertEqual(try SidecarTriageStore.read(for: item), TriageState(rating: 3))
    }

    func testASymlinkedSidecarIsUpdatedWhereItPointsAndStaysALink() throws {
        let item = try TriageFixtures.still(in: root, name: "f.jpg")
        let elsewhere = root + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let target = elsewhere + "/x.xmp"
        try Data(SidecarSamples.latin1(rating: 1)).write(to: URL(fileURLWithPath: target))
        chmod(target, 0o600)
        let link = root + "/f.jpg.xmp"
        XCTAssertEqual(symlink("elsewhere/x.xmp", link), 0)
        XCTAssertEqual(try SidecarTriageStore.read(for: item), TriageState(rating: 1), "read through the link")
        try SidecarTriageStore.write(TriageState(rating: 4), for: item)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "elsewhere/x.xmp",
                       "the link is still a link, to the same place")
        XCTAssertEqual(Array(try XCTUnwrap(TriageFixtures.bytes(target))), SidecarSamples.latin1(rating: 4))
        var st = stat()
        XCTAssertEqual(stat(target, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600, "the target keeps its permissions")
        XCTAssertEqual(TriageFixtures.names(elsewhere), ["x.xmp"], "no temporary left beside the target")
    }

    func testADanglingSidecarLinkIsRefusedWithASentence() throws {
        let item = try TriageFixtures.still(in: root, name: "f.jpg")
        let link = root + "/f.jpg.xmp"
        XCTAssertEqual(symlink("../nowhere/x.xmp", link), 0)
        XCTAssertThrowsError(try SidecarTriageStore.write(TriageState(rating: 4), for: item)) { error in
            XCTAssertEqual("\(error)", "\(link) is a symbolic link to ../nowhere/x.xmp, which does not exist: the rating was not saved")
        }
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "../nowhere/x.xmp", "left as it was")
    }

    func testRatingThenUnratingLeavesNoSidecar() throws {
        let item = try TriageFixtures.still(in: root, name: "h.jpg")
        try SidecarTriageStore.write(TriageState(rating: 3), for: item)
        XCTAssertEqual(TriageFixtures.names(root), ["h.jpg", "h.jpg.xmp"])
        try SidecarTriageStore.write(.unrated, for: item)
        XCTAssertEqual(TriageFixtures.names(root), ["h.jpg"], "livegrid's own sidecar goes with the rating")

        try SidecarTriageStore.write(TriageState(rating: 0, flag: .pick), for: item)
        try SidecarTriageStore.write(.unrated, for: item)
        XCTAssertEqual(TriageFixtures.names(root), ["h.jpg"], "a pick then unpick too")

        // Someone else's sidecar stays, unrated.
        let path = root + "/h.jpg.xmp"
        try SidecarTests.darktableSidecar.write(toFile: path, atomically: false, encoding: .utf8)
        try SidecarTriageStore.write(.unrated, for: item)
        XCTAssertEqual(TriageFixtures.names(root), ["h.jpg", "h.jpg.xmp"])
        XCTAssertEqual(try SidecarTriageStore.read(for: item), .unrated)
    }

    func testAFIFONamedLikeASidecarIsRefusedAtOnce() throws {
        let item = try TriageFixtures.still(in: root, name: "p.jpg")
        XCTAssertEqual(mkfifo(root + "/p.jpg.xmp", 0o644), 0)
        // Before the fix this read blocked in open(2) until a writer came: the test would hang.
        XCTAssertThrowsError(try SidecarTriageStore.read(sidecar: root + "/p.jpg.xmp")) { error in
            XCTAssertTrue("\(error)".contains("is not a regular file (a FIFO)"), "\(error)")
        }
        XCTAssertThrowsError(try SidecarTriageStore.write(TriageState(rating: 2), for: item)) { error in
            XCTAssertTrue("\(error)".contains("is not a regular file (a FIFO)"), "\(error)")
        }
    }
}
