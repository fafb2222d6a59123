import Foundation
import Library
import LibraryCore
import LivePairing
import TestSupport
import XCTest

final class SidecarTests: XCTestCase {
    var root = ""
    override func setUpWithError() throws { root = try TriageFixtures.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    /// A darktable-style sidecar with content livegrid does not know.
    static let darktableSidecar = """
    <?xml version="1.0" encoding="UTF-8"?>
    <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
     <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about=""
        xmlns:xmp="http://ns.adobe.com/xap/1.0/"
        xmlns:darktable="http://darktable.sf.net/"
        xmp:Rating="2"
        darktable:xmp_version="5"
        darktable:history_end="1">
       <!-- keep me -->
       <darktable:history>
        <rdf:Seq>
         <rdf:li darktable:operation="exposure" darktable:params="0000c03f"/>
        </rdf:Seq>
       </darktable:history>
       <dc:subject xmlns:dc="http://purl.org/dc/elements/1.1/"><rdf:Bag><rdf:li>café &amp; train</rdf:li></rdf:Bag></dc:subject>
      </rdf:Description>
     </rdf:RDF>
    </x:xmpmeta>

    """

    func testNewSidecarIsNamedAfterTheStillAndRoundTrips() throws {
        let item = try TriageFixtures.livePair(in: root)
        let still = TriageFixtures.bytes(root + "/IMG_0001.JPG")
        let path = try TriageState(rating: 4, flag: .pick).write(for: item)
        XCTAssertEqual(path, root + "/IMG_0001.JPG.xmp", "the sidecar belongs to the still")
        XCTAssertEqual(try SidecarTriageStore.read(for: item), TriageState(rating: 4, flag: .pick))
        try TriageState(rating: 0, flag: .reject).write(for: item)
        XCTAssertEqual(try SidecarTriageStore.read(for: item), TriageState(rating: 0, flag: .reject))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.contains("xmp:Rating=\"-1\""), text)
        XCTAssertTrue(text.contains("digiKam:PickLabel=\"1\""), text)
        try TriageState(rating: 5).write(for: item)
        XCTAssertEqual(try SidecarTriageStore.read(for: item), TriageState(rating: 5))
        XCTAssertEqual(TriageFixtures.bytes(root + "/IMG_0001.JPG"), still, "the photo is never rewritten")
        XCTAssertEqual(TriageFixtures.names(root), ["IMG_0001.JPG", "IMG_0001.JPG.xmp", "IMG_0001.MOV"])
    }

    func testUpdatingKeepsEverythingElseByteForByte() throws {
        let item = try TriageFixtures.still(in: root, name: "a.jpg")
        let path = root + "/a.jpg.xmp"
        try Self.darktableSidecar.write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o640)
        XCTAssertEqual(try SidecarTriageStore.read(for: item), TriageState(rating: 2))
        try TriageState(rating: 5).write(for: item)
        let updated = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(updated, Self.darktableSidecar.replacingOccurrences(of: "xmp:Rating=\"2\"", with: "xmp:Rating=\"5\""))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o640, "permissions kept")

        // A pick adds the digiKam namespace and attribute to the Description, leaving the rest alone.
        try TriageState(rating: 5, flag: .pick).write(for: item)
        let picked = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(try SidecarTriageStore.read(for: item), TriageState(rating: 5, flag: .pick))
        XCTAssertTrue(picked.contains("xmlns:digiKam=\"http://www.digikam.org/ns/1.0/\""))
        for kept in ["<!-- keep me -->", "darktable:params=\"0000c03f\"", "café &amp; train", "darktable:history_end=\"1\"", "</darktable:history>"] {
            XCTAssertTrue(picked.contains(kept), kept)
        }
        XCTAssertEqual(TriageFixtures.names(root), ["a.jpg", "a.jpg.xmp"], "no temporary file left")
    }

    func testReadsBaseNameSidecarsAndElementFormAndPrefersFullName() throws {
        let item = try TriageFixtures.still(in: root, name: "b.JPG")
        try """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:a="http://ns.adobe.com/xap/1.0/"><a:Rating>3</a:Rating></rdf:Description>
        </rdf:RDF></x:xmpmeta>
        """.write(toFile: root + "/b.xmp", atomically: false, encoding: .utf8)
        XCTAssertEqual(try SidecarTriageStore.read(for: item), TriageState(rating: 3))
        try TriageState(rating: 1).write(for: item)
        XCTAssertTrue(try String(contentsOfFile: root + "/b.xmp", encoding: .utf8).contains("<a:Rating>1</a:Rating>"),
                      "an existing base-name sidecar is updated in place, element form kept")
        try TriageState(rating: 4).write(for: LibraryItem(kind: .still, still: TriageFixtures.file(root + "/x.JPG", .jpeg)))
        try SidecarTests.darktableSidecar.write(toFile: root + "/b.JPG.xmp", atomically: false, encoding: .utf8)
        XCTAssertEqual(try SidecarTriageStore.read(for: item), TriageState(rating: 2), "name.ext.xmp wins")
        XCTAssertEqual(SidecarLocator.sidecarsTravelling(with: item), [root + "/b.JPG.xmp", root + "/b.xmp"])
    }

    func testBaseNameSidecarSharedWithAnotherPhotoDoesNotTravel() throws {
        let item = try TriageFixtures.still(in: root, name: "c.jpg")
        _ = try TriageFixtures.still(in: root, name: "c.png")
        try SidecarTests.darktableSidecar.write(toFile: root + "/c.xmp", atomically: false, encoding: .utf8)
        XCTAssertEqual(SidecarLocator.sidecarsTravelling(with: item), [])
    }

    func testAFileThatIsNotXMPIsLeftAlone() throws {
        let item = try TriageFixtures.still(in: root, name: "d.jpg")
        try "not xml at all".write(toFile: root + "/d.jpg.xmp", atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try TriageState(rating: 3).write(for: item))
        XCTAssertEqual(try String(contentsOfFile: root + "/d.jpg.xmp", encoding: .utf8), "not xml at all")
    }

    /// exiftool is how other tools see the sidecar: Rating and digiKam's PickLabel must read back.
    func testExiftoolReadsTheRatingAndPickLabel() throws {
        guard let exiftool = ["/usr/bin/exiftool", "/usr/local/bin/exiftool"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0) }) else { throw MissingRequirement.tool("exiftool not installed") }
        let item = try TriageFixtures.still(in: root, name: "e.jpg")
        let path = try TriageState(rating: 4, flag: .pick).write(for: item)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: exiftool)
        process.arguments = ["-s", "-n", "-XMP:Rating", "-XMP-digiKam:PickLabel", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(out.contains("Rating                          : 4") || out.range(of: #"Rating\s*:\s*4"#, options: .regularExpression) != nil, out)
        XCTAssertNotNil(out.range(of: #"PickLabel\s*:\s*3"#, options: .regularExpression), out)
    }
}
