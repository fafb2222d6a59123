@testable import MediaFormats
import TestSupport
import XCTest

/// The writers on generated inputs (no fixture or tool needed) and on damaged ones: a clear error or a
/// readable output, never a crash, a hang or a huge allocation.
final class WriterRobustnessTests: XCTestCase {
    let identifier = "5EED5EED-0000-4000-8000-00000000CAFE"

    func testGeneratedMoviesOfEveryLayoutBecomeLive() throws {
        let variants: [(String, [UInt8])] = [
            ("moov last", ISOBoxBuilder.movie()),
            ("moov first", ISOBoxBuilder.movie(moovLast: false)),
            ("64-bit moov header", ISOBoxBuilder.movie(largeMoov: true)),
            ("open-ended moov", ISOBoxBuilder.movie(openEndedLast: true)),
            ("open-ended mdat", ISOBoxBuilder.movie(moovLast: false, openEndedLast: true)),
        ]
        for (name, bytes) in variants {
            let source = MemoryByteSource(bytes)
            let output = try MediaWriting.makeLivePhotoMovie(source, identifier: identifier, stillTime: 0.25).materialize(from: source)
            let info = MediaProbe.probe(MemoryByteSource(output))
            XCTAssertEqual(info.format, .quickTime, name)
            XCTAssertEqual(info.contentIdentifier, identifier, name)
            XCTAssertEqual(try XCTUnwrap(info.stillImageTime, name), 0.25, accuracy: 0.002, name)
            XCTAssertTrue(info.problems.filter { $0.severity == .error }.isEmpty, "\(name): \(info.problems)")
            // The video samples are found at the translated chunk offset.
            let layout = try QuickTimeMovieLayout(MemoryByteSource(output))
            let video = try layout.videoTrack()
            let stco = try XCTUnwrap(video.descendant("mdia/minf/stbl/stco")?.payload, name)
            let offset = Int(try XCTUnwrap(ChunkOffsets.read(stco, width: 4).first, name))
            XCTAssertEqual(Array(output[offset..<offset + 10]), [UInt8](repeating: 0xAB, count: 10), name)
            XCTAssertEqual(Array(output[0..<12]), [0, 0, 0, 20] + Array("ftypqt  ".utf8), name)
        }
    }

    func testMakingLiveTwiceKeepsOneStillTrackAndOneKey() throws {
        let source = MemoryByteSource(ISOBoxBuilder.movie())
        let once = MemoryByteSource(try MediaWriting.makeLivePhotoMovie(source, identifier: identifier).materialize(from: source))
        let other = "5EED5EED-1111-4000-8000-00000000CAFE"
        let twice = try MediaWriting.makeLivePhotoMovie(once, identifier: other, stillTime: 1.5).materialize(from: once)
        let layout = try QuickTimeMovieLayout(MemoryByteSource(twice))
        XCTAssertEqual(layout.tracks.filter(QuickTimeLivePhotoWriter.isStillImageTimeTrack).count, 1)
        let info = MediaProbe.probe(MemoryByteSource(twice))
        XCTAssertEqual(info.contentIdentifier, other)
        XCTAssertEqual(try XCTUnwrap(info.stillImageTime), 1.5, accuracy: 0.002)
        XCTAssertEqual(twice.firstIndex(of: Array(QuickTimeLivePhotoWriter.contentIdentifierKey.utf8)).map { _ in 1 }, 1)
        let keyCount = twice.indices.filter { twice[$0...].starts(with: Array("content.identifier".utf8)) }.count
        XCTAssertEqual(keyCount, 1, "the key is replaced, not added again")
    }

    func testRotatingAGeneratedMovieIsReadBack() throws {
        let source = MemoryByteSource(ISOBoxBuilder.movie())
        let rotated = try MediaWriting.rotateMovie(source, by: .rotateCounterclockwise).materialize(from: source)
        XCTAssertEqual(rotated.count, Int(source.size))
        XCTAssertEqual(MediaProbe.probe(MemoryByteSource(rotated)).rotation, 270)
    }

    func damaged(_ bytes: [UInt8], seed: UInt64, count: Int) -> [[UInt8]] {
        var rng = SplitMix64(seed: seed)
        var out: [[UInt8]] = []
        for i in 1..<16 { out.append(Array(bytes.prefix(bytes.count * i / 16))) }
        for _ in 0..<count {
            var copy = bytes
            for _ in 0..<3 {
                let at = Int(rng.next() % UInt64(copy.count))
                copy[at] = UInt8(truncatingIfNeeded: rng.next())
            }
            out.append(copy)
        }
        return out
    }

    func testDamagedInputsGiveErrorsOrReadableOutput() {
        let movie = ISOBoxBuilder.movie(moovLast: false)
        let motionMovie = JPEGBuilder.fakeMP4
        let exif = TIFFWriter(order: .bigEndian).bytes
        let jpeg = JPEGBuilder.jpeg(segments: [JPEGBuilder.exif(exif + [0, 0]), JPEGBuilder.xmp(JPEGBuilder.motionPhotoXMP(length: motionMovie.count))]) + motionMovie
        func exercise(_ body: () throws -> ByteAssembly, _ source: any ByteSource) {
            if let assembly = try? body() { XCTAssertNoThrow(try assembly.materialize(from: source)) }
        }
        for bytes in damaged(movie, seed: 0xB0C5, count: 300) {
            let source = MemoryByteSource(bytes)
            exercise({ try MediaWriting.makeLivePhotoMovie(source, identifier: identifier) }, source)
            exercise({ try MediaWriting.rotateMovie(source, by: .rotateClockwise) }, source)
        }
        for bytes in damaged(jpeg, seed: 0x1FE6, count: 300) {
            let source = MemoryByteSource(bytes)
            exercise({ try MediaWriting.setContentIdentifier(still: source, identifier: identifier) }, source)
            exercise({ try MediaWriting.rotateJPEG(source, by: .flipHorizontal) }, source)
            exercise({ try MediaWriting.stillWithoutMotion(source) }, source)
            let movieSource = MemoryByteSource(motionMovie)
            exercise({ try MediaWriting.motionPhoto(still: bytes, movie: movieSource, presentationTimestampUs: 0) }, movieSource)
        }
    }

    func testDamagedHEICsGiveErrorsOrReadableOutput() {
        let exif = SyntheticHEIF.Item(id: 2, type: "Exif", extents: 2, bytes: HEICExifWriterTests.exifItem)
        let packet = Array(JPEGBuilder.motionPhotoXMP(length: JPEGBuilder.fakeMP4.count).utf8)
        let xmp = SyntheticHEIF.Item(id: 4, type: "mime", contentType: "application/rdf+xml", bytes: packet)
        let mpvd = ISOBoxBuilder.box("mpvd", JPEGBuilder.fakeMP4)
        let heic = SyntheticHEIF.file(items: [SyntheticHEIF.image, exif, SyntheticHEIF.idatItem, xmp], withIref: true, trailingBoxes: [mpvd])
        let movieSource = MemoryByteSource(JPEGBuilder.fakeMP4)
        let intact = MemoryByteSource(heic)
        XCTAssertEqual(MediaProbe.probe(intact).embeddedMovie?.kind, .heifMpvd)
        XCTAssertNoThrow(try MediaWriting.setContentIdentifier(still: intact, identifier: identifier))
        XCTAssertNoThrow(try MediaWriting.stillWithoutMotion(intact))
        XCTAssertNoThrow(try MediaWriting.motionPhoto(still: heic, movie: movieSource, presentationTimestampUs: 0))
        for bytes in damaged(heic, seed: 0x4E1C, count: 400) {
            let source = MemoryByteSource(bytes)
            for write in [{ try MediaWriting.setContentIdentifier(still: source, identifier: self.identifier) }, { try MediaWriting.stillWithoutMotion(source) }] {
                guard let assembly = try? write() else { continue }
                XCTAssertNoThrow(try assembly.materialize(from: source))
                if let output = try? assembly.materialize(from: source) { _ = MediaProbe.probe(MemoryByteSource(output)) }
            }
            if let assembly = try? MediaWriting.motionPhoto(still: bytes, movie: movieSource, presentationTimestampUs: 0) {
                XCTAssertNoThrow(try assembly.materialize(from: movieSource))
            }
        }
    }
}
