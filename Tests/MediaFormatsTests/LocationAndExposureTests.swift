@testable import MediaFormats
import Foundation
import TestSupport
import XCTest

/// Issue 19.5/19.6 in the media core: the exposure facts read from Exif, the position read only on request,
/// and the writer that removes it.
final class LocationAndExposureTests: XCTestCase {
    func testExposureLensAndZoneOfTheCameraStill() throws {
        let info = try MediaProbe.probe(path: Fixtures.committed("train.jpg"))
        XCTAssertEqual(info.lensModel, "iPhone 6s back camera 4.15mm f/2.2")
        XCTAssertEqual(info.lensMake, "Apple")
        XCTAssertEqual(info.exposureTime, ExifRational(1, 801))
        XCTAssertEqual(try XCTUnwrap(info.fNumber?.value), 2.2, accuracy: 0.001)
        XCTAssertEqual(info.iso, 25)
        XCTAssertEqual(try XCTUnwrap(info.focalLength?.value), 4.15, accuracy: 0.001)
        XCTAssertEqual(info.focalLengthIn35mm, 29)
        XCTAssertEqual(info.captureTimeZone, "+01:00")
        XCTAssertTrue(info.hasGPS)
        XCTAssertEqual(ExifReader.plausibleOffset("   :  "), nil, "a blank offset is no zone")
        XCTAssertEqual(ExifReader.plausibleOffset("-05:30"), "-05:30")
    }

    func testLocationIsReadOnlyOnRequestFromStillAndMovie() throws {
        let still = try XCTUnwrap(try LocationReader.location(try FileByteSource(path: Fixtures.committed("train.jpg"))))
        XCTAssertEqual(still.latitude, 52.2097, accuracy: 0.001)
        XCTAssertEqual(still.longitude, -0.8955, accuracy: 0.001)
        let movie = try XCTUnwrap(try LocationReader.location(try FileByteSource(path: Fixtures.committed("train.mov"))))
        XCTAssertEqual(movie.latitude, 52.2097, accuracy: 0.001)
        XCTAssertEqual(movie.description, "52.20970° N, 0.89550° W, 104 m")
        XCTAssertNil(try LocationReader.location(try FileByteSource(path: Fixtures.committed("motion-photo-v1.jpeg"))))
    }

    func testISO6709Parsing() {
        XCTAssertEqual(GeoLocation(iso6709: "+52.2097-000.8955+103.640/")?.altitude ?? 0, 103.64, accuracy: 0.001)
        XCTAssertEqual(GeoLocation(iso6709: "-33.8688+151.2093/")?.longitude ?? 0, 151.2093, accuracy: 0.0001)
        XCTAssertNil(GeoLocation(iso6709: "garbage"))
        XCTAssertNil(GeoLocation(iso6709: "+95.0+10.0/"), "latitude beyond 90°")
        XCTAssertNil(GeoLocation(iso6709: ""))
    }

    func testXMPPositionIsAFlagInTheProbeAndReadOnRequest() throws {
        let exif = "http://ns.adobe.com/exif/1.0/"
        let packet = Array("""
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:exif="\(exif)" exif:GPSLatitude="52,12.582N" exif:GPSLongitude="0,53,43.8W"/>
        </rdf:RDF></x:xmpmeta>
        """.utf8)
        XCTAssertTrue(XMPReader.parse(packet).hasGPS)
        let location = try XCTUnwrap(LocationReader.xmpLocation(packet, limits: .default))
        XCTAssertEqual(location.latitude, 52.2097, accuracy: 0.0001)
        XCTAssertEqual(location.longitude, -0.8955, accuracy: 0.0001)
        XCTAssertNil(GeoLocation(xmpLatitude: "52,12.58X", xmpLongitude: "0,53.7W"))
        XCTAssertNil(GeoLocation(xmpLatitude: "95,0N", xmpLongitude: "0,53.7W"))
        XCTAssertNil(GeoLocation(xmpLatitude: "N", xmpLongitude: "W"))
    }

    func testXMPGPSPropertiesAreCutAndTheRestKept() {
        let packet = """
        <rdf:Description rdf:about="" xmp:Rating="3" exif:GPSLatitude="52,12.58N" exif:GPSLongitude='0,53.7W'>
         <exif:GPSAltitude>103/1</exif:GPSAltitude>
         <exif:GPSTimeStamp/>
         <exif:ExposureTime>1/801</exif:ExposureTime>
        </rdf:Description>
        """
        let text = String(decoding: XMPPacketEditor.removingLocation(Array(packet.utf8)), as: UTF8.self)
        XCTAssertFalse(text.contains("GPS"), text)
        XCTAssertTrue(text.contains("xmp:Rating=\"3\""), text)
        XCTAssertTrue(text.contains("<exif:ExposureTime>1/801</exif:ExposureTime>"), text)
        let plain = Array("<x>no position</x>".utf8)
        XCTAssertEqual(XMPPacketEditor.removingLocation(plain), plain)
    }

    func testStrippedFilesKeepTheirOtherMetadata() throws {
        let jpegSource = try FileByteSource(path: Fixtures.committed("train.jpg"))
        let jpeg = MemoryByteSource(try MediaWriting.withoutLocation(jpegSource).materialize(from: jpegSource))
        let jpegInfo = MediaProbe.probe(jpeg)
        XCTAssertFalse(jpegInfo.hasGPS)
        XCTAssertEqual(jpegInfo.contentIdentifier, MediaProbe.probe(jpegSource).contentIdentifier)
        XCTAssertEqual(jpegInfo.iso, 25)
        XCTAssertEqual(jpegInfo.exifThumbnail, MediaProbe.probe(jpegSource).exifThumbnail, "nothing in the Exif block moved")

        let movieSource = try FileByteSource(path: Fixtures.committed("train.mov"))
        let movie = MemoryByteSource(try MediaWriting.withoutLocation(movieSource).materialize(from: movieSource))
        let movieInfo = MediaProbe.probe(movie)
        XCTAssertFalse(movieInfo.hasGPS)
        // The keys after the removed location keys were renumbered: their values still read.
        XCTAssertEqual(movieInfo.contentIdentifier, "E905E6C6-C747-4805-942F-9904A0281F02")
        XCTAssertEqual(movieInfo.cameraModel, "iPhone 6s")
        XCTAssertEqual(movieInfo.stillImageTime, MediaProbe.probe(movieSource).stillImageTime)

        let plain = MemoryByteSource(try MediaWriting.withoutLocation(jpeg).materialize(from: jpeg))
        XCTAssertEqual(try MediaWriting.withoutLocation(jpeg).parts.count, 1, "nothing to remove: the file as is")
        XCTAssertEqual(plain.size, jpeg.size)
    }

    /// Hostile bytes: every flipped Exif byte either strips, or throws a MediaError — never traps or hangs.
    func testFlippedExifBytesNeverTrap() throws {
        let original = Array(try XCTUnwrap(FileManager.default.contents(atPath: Fixtures.committed("train.jpg"))).prefix(70_000))
        var random = SplitMix64(seed: 19_6)
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<4 {
                let index = 12 + Int(random.next() % 12_000)
                bytes[index] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            let source = MemoryByteSource(bytes)
            if let assembly = try? MediaWriting.withoutLocation(source) {
                XCTAssertNoThrow(try assembly.materialize(from: source))
            }
            _ = try? LocationReader.location(source)
        }
    }
}
