import TestSupport
import XCTest
@testable import MediaFormats

/// What a decoder needs from HEIF `meta`: hvcC, ispe, grid descriptor, dimg tiles in order, transforms,
/// nclx colour, and the refusals (tile count or size mismatch, other codings, alpha, unknown essentials).
final class HEIFCodedImageTests: XCTestCase {
    typealias B = ISOBoxBuilder

    private func codedPrimary(_ fixture: String) throws -> (HEIFCodedImage, HEIFMeta, FileByteSource) {
        let source = try FileByteSource(path: try Fixtures.shared(fixture))
        let meta = try HEIFMeta.load(from: source, limits: .default)
        let primary = try XCTUnwrap(meta.primaryItemID)
        return (try meta.codedImage(primary, source: source, limits: .default), meta, source)
    }

    func testAppleGridIsSixBySevenTilesOf512() throws {
        let (image, meta, source) = try codedPrimary("IMG_2927.HEIC")
        XCTAssertEqual(image.itemID, 49)
        XCTAssertEqual([image.width, image.height, image.columns, image.rows, image.tileWidth, image.tileHeight],
                       [3024, 4032, 6, 8, 512, 512])
        XCTAssertEqual(image.tiles.count, 48)
        XCTAssertEqual(image.tiles.map(\.itemID), meta.references(of: "dimg", from: 49), "tiles in dimg order")
        XCTAssertEqual(image.transforms, [.rotation(counterClockwiseQuarterTurns: 0)])
        XCTAssertNil(image.colour, "only an ICC profile (colr prof)")
        XCTAssertEqual(image.displaySize?.width, 3024)
        XCTAssertEqual(image.displaySize?.height, 4032)
        for tile in image.tiles {
            XCTAssertEqual(tile.configuration.first, 1, "hvcC configurationVersion")
            XCTAssertEqual(tile.configuration.count, 122 - 8)
            XCTAssertTrue(tile.extents.allSatisfy { $0.fits(in: source.size) })
        }
        // The tile data is length-prefixed NAL units: the first length fits in the tile.
        let data = try image.tiles[0].data(from: source, limits: .default)
        let firstLength = data.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        XCTAssertLessThanOrEqual(firstLength + 4, data.count)
    }

    func testIPhoneSEGridAndItsThumbnailItem() throws {
        let (image, meta, source) = try codedPrimary("iphone-se-still.heic")
        XCTAssertEqual([image.width, image.height, image.columns, image.rows, image.tileWidth], [4032, 3024, 8, 6, 512])
        let thumbnailID = try XCTUnwrap(meta.items(referring: "thmb", to: image.itemID).first)
        let thumbnail = try meta.codedImage(thumbnailID, source: source, limits: .default)
        XCTAssertEqual([thumbnail.width, thumbnail.height, thumbnail.columns, thumbnail.rows], [320, 240, 1, 1])
    }

    func testMotionPhotoIsOneCodedPicture() throws {
        let (image, _, _) = try codedPrimary("motion-photo.heic")
        XCTAssertEqual([image.width, image.height, image.columns, image.rows, image.tiles.count], [3024, 4032, 1, 1, 1])
        XCTAssertEqual(image.transforms, [])
    }

    // MARK: grid descriptor

    func testGridDescriptorWith16And32BitSizes() throws {
        let small = try HEIFImageGrid(parsing: [0, 0, 7, 5] + B.u16(3024) + B.u16(4032))
        XCTAssertEqual(small, HEIFImageGrid(rows: 8, columns: 6, outputWidth: 3024, outputHeight: 4032))
        let large = try HEIFImageGrid(parsing: [0, 1, 0, 1] + B.u32(70_000) + B.u32(300))
        XCTAssertEqual(large, HEIFImageGrid(rows: 1, columns: 2, outputWidth: 70_000, outputHeight: 300))
        XCTAssertThrowsError(try HEIFImageGrid(parsing: [1, 0, 0, 0] + B.u16(1) + B.u16(1)), "version 1")
        XCTAssertThrowsError(try HEIFImageGrid(parsing: [0, 1, 0, 0] + B.u16(1)), "truncated")
        XCTAssertThrowsError(try HEIFImageGrid(parsing: [0, 0, 0, 0] + B.u16(0) + B.u16(10)), "empty output")
    }

    // MARK: synthetic files

    static let hvcC = B.box("hvcC", [1] + [UInt8](repeating: 0, count: 21) + [0])

    /// A file with a `grid` primary (descriptor in the mdat) over `tiles` items of `tileSize`, plus `extraItems`.
    private func gridFile(columns: UInt8, rows: UInt8, output: (UInt16, UInt16), tileCount: Int,
                          tileSizes: [(UInt32, UInt32)]? = nil, tileType: String = "hvc1",
                          extraProperties: [[UInt8]] = [], primaryAssociations: [UInt8] = [],
                          extraItems: [B.HEIFItemSpec] = [], extraReferences: [(String, UInt16, [UInt16])] = [],
                          extraAssociations: [(UInt16, [UInt8])] = []) -> [UInt8] {
        let descriptor: [UInt8] = [0, 0, rows - 1, columns - 1] + B.u16(output.0) + B.u16(output.1)
        let sizes = tileSizes ?? Array(repeating: (512, 512), count: tileCount)
        func build(dataStart: UInt32) -> [UInt8] {
            var items = [B.HEIFItemSpec(id: 1, type: "grid", offset: dataStart, length: UInt32(descriptor.count))]
            var associations: [(UInt16, [UInt8])] = [(1, primaryAssociations)]
            // Properties: 1 = hvcC; 2... = one ispe per distinct tile size.
            var properties = [Self.hvcC]
            for (index, size) in sizes.enumerated() {
                properties.append(B.ispe(size.0, size.1))
                let id = UInt16(10 + index)
                items.append(B.HEIFItemSpec(id: id, type: tileType, offset: dataStart + UInt32(descriptor.count + index * 4), length: 4))
                associations.append((id, [0x81, UInt8(0x80 | (index + 2))]))
            }
            let extraBase = UInt8(properties.count)
            properties += extraProperties
            _ = extraBase
            return B.heifMeta(primary: 1, items: items + extraItems,
                              references: [("dimg", 1, (0..<sizes.count).map { UInt16(10 + $0) })] + extraReferences,
                              properties: properties, associations: associations + extraAssociations)
        }
        let metaSize = build(dataStart: 0).count
        let data = descriptor + (0..<sizes.count).flatMap { _ in [0, 0, 0, 0] as [UInt8] }
        let mdatStart = UInt32(metaSize + 8)
        return build(dataStart: mdatStart) + B.box("mdat", data)
    }

    private func primaryImage(_ file: [UInt8]) throws -> HEIFCodedImage {
        let source = MemoryByteSource(file)
        let meta = try HEIFMeta.load(from: source, limits: .default)
        return try meta.codedImage(1, source: source, limits: .default)
    }

    private func assertRefused(_ file: [UInt8], _ fragment: String, file path: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try primaryImage(file), file: path, line: line) { error in
            XCTAssertTrue("\(error)".contains(fragment), "\(error)", file: path, line: line)
        }
    }

    func testSyntheticGridIsDescribed() throws {
        let image = try primaryImage(gridFile(columns: 2, rows: 2, output: (1000, 600), tileCount: 4))
        XCTAssertEqual([image.width, image.height, image.columns, image.rows, image.tileWidth], [1000, 600, 2, 2, 512])
        XCTAssertEqual(image.tiles.map(\.itemID), [10, 11, 12, 13])
        XCTAssertEqual(image.tiles[0].configuration.count, 23)
    }

    func testTileCountMismatchIsRefused() {
        assertRefused(gridFile(columns: 2, rows: 2, output: (1000, 600), tileCount: 3), "has 3 tile(s)")
        assertRefused(gridFile(columns: 2, rows: 2, output: (1000, 600), tileCount: 5), "has 5 tile(s)")
    }

    func testTileSizeMismatchAndUncoveredOutputAreRefused() {
        assertRefused(gridFile(columns: 2, rows: 1, output: (1000, 500), tileCount: 2, tileSizes: [(512, 512), (256, 512)]),
                      "not 512x512")
        assertRefused(gridFile(columns: 2, rows: 1, output: (1100, 500), tileCount: 2), "do not fit")
        assertRefused(gridFile(columns: 3, rows: 1, output: (1000, 500), tileCount: 3), "do not fit")
    }

    func testOtherCodingsAlphaAndUnknownEssentialPropertiesAreUnsupported() {
        assertRefused(gridFile(columns: 1, rows: 1, output: (500, 500), tileCount: 1, tileType: "av01"), "av01 tiles")
        let alpha = B.fullBox("auxC", B.cString("urn:mpeg:hevc:2015:auxid:1"))
        assertRefused(gridFile(columns: 1, rows: 1, output: (500, 500), tileCount: 1, extraProperties: [alpha],
                               extraItems: [B.HEIFItemSpec(id: 20, type: "hvc1")], extraReferences: [("auxl", 20, [1])],
                               extraAssociations: [(20, [0x83])]), "alpha")
        // A depth map (or an HDR gain map) is not alpha: the image still decodes.
        let depth = B.fullBox("auxC", B.cString("urn:mpeg:hevc:2015:auxid:2"))
        XCTAssertNoThrow(try primaryImage(gridFile(columns: 1, rows: 1, output: (500, 500), tileCount: 1, extraProperties: [depth],
                                                   extraItems: [B.HEIFItemSpec(id: 20, type: "hvc1")],
                                                   extraReferences: [("auxl", 20, [1])], extraAssociations: [(20, [0x83])])))
        assertRefused(gridFile(columns: 1, rows: 1, output: (500, 500), tileCount: 1, extraProperties: [B.fullBox("lsel", B.u16(1))],
                               primaryAssociations: [0x83]), "essential property 'lsel'")
        // The same property, not essential: ignored.
        XCTAssertNoThrow(try primaryImage(gridFile(columns: 1, rows: 1, output: (500, 500), tileCount: 1,
                                                   extraProperties: [B.fullBox("lsel", B.u16(1))], primaryAssociations: [0x03])))
    }

    func testTransformsAndColourAreReadInAssociationOrder() throws {
        let clap = B.box("clap", B.u32(400) + B.u32(1) + B.u32(300) + B.u32(1) + B.i32(-10) + B.u32(1) + B.i32(0) + B.u32(1))
        let irot = B.box("irot", [1])
        let imir = B.box("imir", [1])
        let nclx = B.box("colr", B.fourCC("nclx") + B.u16(1) + B.u16(13) + B.u16(6) + [0x80])
        // Properties 3...6 after hvcC (1) and the one tile's ispe (2).
        let image = try primaryImage(gridFile(columns: 1, rows: 1, output: (500, 500), tileCount: 1,
                                              extraProperties: [clap, irot, imir, nclx], primaryAssociations: [0x83, 0x84, 0x85, 6]))
        let aperture = try XCTUnwrap(image.transforms.first.flatMap { if case .cleanAperture(let c) = $0 { c } else { nil } })
        XCTAssertEqual(image.transforms.dropFirst(), [.rotation(counterClockwiseQuarterTurns: 1), .mirror(axis: 1)])
        XCTAssertEqual(image.colour, HEIFColourInformation(colourPrimaries: 1, transferCharacteristics: 13, matrixCoefficients: 6, fullRange: true))
        let crop = try XCTUnwrap(aperture.cropRectangle(width: 500, height: 500))
        XCTAssertEqual([crop.x, crop.y, crop.width, crop.height], [40, 100, 400, 300])
        XCTAssertEqual(image.displaySize?.width, 300, "clap to 400x300, then a quarter turn")
        XCTAssertEqual(image.displaySize?.height, 400)
    }

    func testCleanApertureEdgeCases() throws {
        // Wider than the image: clamped. Zero denominators: refused when parsed, nil when asked.
        let wide = HEIFCleanAperture(widthN: 900, widthD: 1, heightN: 10, heightD: 2, horizontalOffsetN: 0, horizontalOffsetD: 1,
                                     verticalOffsetN: 0, verticalOffsetD: 1)
        let crop = try XCTUnwrap(wide.cropRectangle(width: 500, height: 20))
        XCTAssertEqual([crop.x, crop.y, crop.width, crop.height], [0, 7, 500, 5])
        let broken = HEIFCleanAperture(widthN: 1, widthD: 0, heightN: 1, heightD: 1, horizontalOffsetN: 0, horizontalOffsetD: 1,
                                       verticalOffsetN: 0, verticalOffsetD: 1)
        XCTAssertNil(broken.cropRectangle(width: 10, height: 10))
        let outside = HEIFCleanAperture(widthN: 10, widthD: 1, heightN: 10, heightD: 1, horizontalOffsetN: 1000, horizontalOffsetD: 1,
                                        verticalOffsetN: 0, verticalOffsetD: 1)
        XCTAssertNil(outside.cropRectangle(width: 10, height: 10))
    }

    func testTruncatedDataIsAnError() throws {
        let file = gridFile(columns: 2, rows: 2, output: (1000, 600), tileCount: 4)
        let source = MemoryByteSource(Array(file.prefix(file.count - 6)))
        let meta = try HEIFMeta.load(from: source, limits: .default)
        XCTAssertThrowsError(try meta.codedImage(1, source: source, limits: .default)) { error in
            XCTAssertTrue("\(error)".contains("outside the file"), "\(error)")
        }
        XCTAssertThrowsError(try HEIFMeta.load(from: MemoryByteSource([0, 0, 0, 8] + B.fourCC("ftyp")), limits: .default))
    }
}
