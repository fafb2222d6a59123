import XCTest
@testable import MediaFormats

final class XMPReaderTests: XCTestCase {
    func parse(_ text: String) -> XMPSummary { XMPReader.parse(Array(text.utf8)) }

    func testAttributeFormWithAnyPrefix() {
        let s = parse(JPEGBuilder.motionPhotoXMP(length: 1234, timestamp: 42))
        XCTAssertTrue(s.motionPhoto)
        XCTAssertEqual(s.motionPhotoVersion, 1)
        XCTAssertEqual(s.presentationTimestampUs, 42)
        XCTAssertEqual(s.directory, [
            XMPContainerItem(mime: "image/jpeg", semantic: "Primary", length: 0, padding: 0),
            XMPContainerItem(mime: "video/mp4", semantic: "MotionPhoto", length: 1234, padding: 0),
        ])
    }

    func testElementFormWithUnusualPrefixes() {
        let s = parse("""
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description xmlns:cam="http://ns.google.com/photos/1.0/camera/" xmlns:c="http://ns.google.com/photos/1.0/container/"
            xmlns:i="http://ns.google.com/photos/1.0/container/item/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
          <!-- a comment with <tags> inside -->
          <cam:MotionPhoto>1</cam:MotionPhoto>
          <cam:MotionPhotoVersion> 1 </cam:MotionPhotoVersion>
          <cam:MotionPhotoPresentationTimestampUs>-1</cam:MotionPhotoPresentationTimestampUs>
          <xmp:Rating>4</xmp:Rating>
          <c:Directory><rdf:Seq>
            <rdf:li rdf:parseType="Resource"><c:Item rdf:parseType="Resource">
              <i:Mime>image/jpeg</i:Mime><i:Semantic>Primary</i:Semantic><i:Padding>8</i:Padding></c:Item></rdf:li>
            <rdf:li rdf:parseType="Resource"><c:Item rdf:parseType="Resource">
              <i:Mime>video/mp4</i:Mime><i:Semantic>MotionPhoto</i:Semantic><i:Length>99</i:Length></c:Item></rdf:li>
          </rdf:Seq></c:Directory>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """)
        XCTAssertTrue(s.motionPhoto)
        XCTAssertEqual(s.motionPhotoVersion, 1)
        XCTAssertEqual(s.presentationTimestampUs, -1)
        XCTAssertEqual(s.rating, 4)
        XCTAssertEqual(s.directory.map(\.semantic), ["Primary", "MotionPhoto"])
        XCTAssertEqual(s.directory.first?.padding, 8)
        XCTAssertEqual(s.directory.last?.length, 99)
    }

    func testLegacyMicroVideo() {
        let s = parse("""
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" rdf:about="" GCamera:MicroVideo="1"
          GCamera:MicroVideoVersion="1" GCamera:MicroVideoOffset="122562" GCamera:MicroVideoPresentationTimestampUs="10"/>
        </rdf:RDF></x:xmpmeta>
        """)
        XCTAssertTrue(s.microVideo)
        XCTAssertEqual(s.microVideoOffset, 122562)
        XCTAssertEqual(s.microVideoPresentationTimestampUs, 10)
        XCTAssertFalse(s.motionPhoto)
    }

    func testUndeclaredConventionalPrefixesAndEntities() {
        let s = parse("""
        <rdf:Description GCamera:MotionPhoto="1" tiff:Orientation='6' xmp:ContentIdentifier="abc&amp;&#x44;"/>
        """)
        XCTAssertTrue(s.motionPhoto)
        XCTAssertEqual(s.orientation, 6)
        XCTAssertEqual(s.contentIdentifier, "ABC&D")
    }

    func testPrefixBoundToAnotherNamespaceIsNotGoogle() {
        let s = parse(#"<a xmlns:Camera="http://example.com/other/" Camera:MotionPhoto="1"/>"#)
        XCTAssertFalse(s.motionPhoto)
    }

    func testGarbageAndTruncationDoNotCrash() {
        for text in ["", "<", "<a", "<a b", "<a b=", "<a b=\"", "</", "<!--", "<![CDATA[", "<?x", "&", "&#xFFFFFFFFFF;",
                     "<a><b><c></a>", String(repeating: "<a>", count: 5000), "<a b=\"1\" c='2' / >"] {
            _ = parse(text)
        }
        let deep = parse(String(repeating: "<a>", count: 5000))
        XCTAssertTrue(deep.problems.contains { $0.message.contains("deeply") })
    }
}
