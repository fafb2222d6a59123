import Foundation
import XCTest
import TestSupport
@testable import MediaFormats

/// Truncated and bit-flipped ISO BMFF files through `MediaProbe.probe`: never a crash, a hang or an absurd
/// allocation, only problems.
final class ISOBMFFRobustnessTests: XCTestCase {
    /// A source with some bytes replaced, without copying the file.
    /// What the parsers asked of one damaged file: reads and bytes. The work bound below is counted, not
    /// timed, so a slow or loaded machine cannot fail it and a runaway loop cannot pass it.
    final class ReadTally: @unchecked Sendable {   // one test thread writes and reads it
        var reads = 0
        var bytes = 0
    }

    struct FlippedByteSource: ByteSource {
        let base: any ByteSource
        let flips: [UInt64: UInt8]
        var tally = ReadTally()
        var size: UInt64 { base.size }
        func read(at offset: UInt64, count: Int) throws(MediaError) -> [UInt8] {
            var bytes = try base.read(at: offset, count: count)
            tally.reads += 1
            tally.bytes += bytes.count
            for (position, value) in flips where position >= offset && position < offset + UInt64(bytes.count) {
                bytes[Int(position - offset)] = value
            }
            return bytes
        }
    }

    /// The bytes worth flipping: every top-level header and the whole moov/meta box.
    private func interestingRanges(_ source: any ByteSource) -> [ByteRange] {
        ISOBMFFTopLevel.scan(source, limits: .default).boxes.map { box in
            ["moov", "meta", "ftyp"].contains(box.type) ? box.range
                : ByteRange(offset: box.range.offset, length: min(box.range.length, 16))
        }
    }

    /// `LIVEGRID_FUZZ_VARIANTS=20000 LIVEGRID_FUZZ_SEED=7 swift test --filter ISOBMFFRobustnessTests` runs a
    /// longer campaign.
    static let defaultVariants = ProcessInfo.processInfo.environment["LIVEGRID_FUZZ_VARIANTS"].flatMap { Int($0) } ?? 300
    static let defaultSeed = ProcessInfo.processInfo.environment["LIVEGRID_FUZZ_SEED"].flatMap { UInt64($0) } ?? 42

    private func exercise(_ source: any ByteSource, name: String, flipVariants: Int = defaultVariants, seed: UInt64 = defaultSeed,
                          cutsMustShow: Bool = true) {
        // Truncations: every offset in the first 256 bytes, then 150 evenly spaced ones.
        var cuts = Array(0..<min(256, source.size))
        let step = max(source.size / 150, 1)
        cuts += stride(from: UInt64(256), to: source.size, by: Int(step)).map { $0 }
        let boundaries = Set(ISOBMFFTopLevel.scan(source, limits: .default).boxes.map(\.range.offset))
        for cut in cuts {
            let info = MediaProbe.probe(SliceByteSource(base: source, range: ByteRange(offset: 0, length: cut)))
            Self.describePrimaryImage(SliceByteSource(base: source, range: ByteRange(offset: 0, length: cut)))
            // A cut inside a top-level box always leaves a trace (a cut between boxes may leave a valid file).
            if cutsMustShow && !boundaries.contains(cut) {
                XCTAssertFalse(info.problems.isEmpty, "\(name) cut at \(cut) reported no problem")
            }
        }
        // Seeded byte flips inside the structures the readers interpret.
        let ranges = interestingRanges(source).filter { $0.length > 0 }
        XCTAssertFalse(ranges.isEmpty, name)
        var rng = SplitMix64(seed: seed)
        var variantsWithProblems = 0
        for _ in 0..<flipVariants {
            var flips: [UInt64: UInt8] = [:]
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                guard let range = ranges.randomElement(using: &rng) else { continue }
                let offset = range.offset + UInt64.random(in: 0..<range.length, using: &rng)
                // Half the time a random byte, half the time an extreme one (0x00 / 0xFF make huge counts).
                flips[offset] = Bool.random(using: &rng) ? UInt8.random(in: 0...255, using: &rng) : (Bool.random(using: &rng) ? 0xFF : 0x00)
            }
            let flipped = FlippedByteSource(base: source, flips: flips)
            if !MediaProbe.probe(flipped).problems.isEmpty { variantsWithProblems += 1 }
            Self.describePrimaryImage(flipped)
            // A forged count or size must not make the readers loop: a probe and a description read each
            // byte a few times at most (16x the file and 100,000 reads are far above what an intact file takes).
            let byteBound = 16 * Int(source.size) + (1 << 20)
            if flipped.tally.bytes > byteBound || flipped.tally.reads > 100_000 {
                XCTFail("\(name): flips \(flips) made the readers read \(flipped.tally.bytes) bytes in \(flipped.tally.reads) reads")
            }
        }
        // Sanity: the flips do reach the parsers (most variants break something).
        XCTAssertGreaterThan(variantsWithProblems, flipVariants / 10, name)
    }

    /// What the HEVC decoder path reads of a HEIF (meta, grid descriptor, tiles): an error or a description
    /// whose tiles all lie inside the file, never a crash.
    static func describePrimaryImage(_ source: any ByteSource) {
        guard let meta = try? HEIFMeta.load(from: source, limits: .default), let primary = meta.primaryItemID,
              let image = try? meta.codedImage(primary, source: source, limits: .default) else { return }
        XCTAssertEqual(image.tiles.count, image.rows * image.columns)
        XCTAssertTrue(image.tiles.allSatisfy { $0.extents.allSatisfy { $0.fits(in: source.size) } })
    }

    func testCommittedTrainMov() throws {
        let source = try FileByteSource(path: Fixtures.committed("train.mov"))
        exercise(source, name: "train.mov")
    }

    func testPairedVideo() throws {
        exercise(try FileByteSource(path: try Fixtures.shared("limitpoint/pairedVideo.mov")), name: "pairedVideo.mov")
    }

    func testIMG2927() throws {
        exercise(try FileByteSource(path: try Fixtures.shared("IMG_2927.HEIC")), name: "IMG_2927.HEIC")
    }

    func testIPhoneSEStill() throws {
        exercise(try FileByteSource(path: try Fixtures.shared("iphone-se-still.heic")), name: "iphone-se-still.heic")
    }

    func testMotionPhotoHEICAndItsMovie() throws {
        let source = try FileByteSource(path: try Fixtures.shared("motion-photo.heic"))
        exercise(source, name: "motion-photo.heic")
        let movie = try XCTUnwrap(MediaProbe.probe(source).embeddedMovie)
        exercise(SliceByteSource(base: source, range: movie.range), name: "motion-photo.heic mpvd")
    }

    func testGeneratedFiles() {
        exercise(MemoryByteSource(ISOBoxBuilder.movie()), name: "generated movie", flipVariants: 2 * Self.defaultVariants)
        exercise(MemoryByteSource(ISOBoxBuilder.movie(largeMoov: true, openEndedLast: true)), name: "generated large movie",
                 cutsMustShow: false) // a size-0 box cut between its children is still a valid file
    }
}
