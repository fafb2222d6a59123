/// An HEVC-coded image item ready for a video decoder: one `hvc1` item, or a `grid` of `hvc1` tiles, with
/// where each tile's bytes are, its decoder configuration, and the transforms the displayed image needs.
/// Built and checked from `HEIFMeta` only (no image data is read apart from the grid descriptor).
public struct HEIFCodedImage: Sendable, Hashable {
    public struct Tile: Sendable, Hashable {
        public var itemID: UInt32
        /// The `hvcC` record (libavcodec extradata); its NAL units' length prefixes size is in it.
        public var configuration: [UInt8]
        /// The tile's coded data in file offsets (length-prefixed NAL units, as stored), checked inside the file.
        public var extents: [ByteRange]
    }

    public var itemID: UInt32
    /// Size of the image before transforms: the grid's output size, or the single item's `ispe`.
    public var width: Int
    public var height: Int
    /// 1x1 for a single coded item.
    public var columns: Int
    public var rows: Int
    /// Every tile's coded size (`ispe`); tiles fill the canvas row by row and may overhang its right and bottom.
    public var tileWidth: Int
    public var tileHeight: Int
    /// Row-major, `rows * columns` of them.
    public var tiles: [Tile]
    /// `clap`, `irot` and `imir` of the item in association order (the order they apply in).
    public var transforms: [HEIFMeta.Property]
    /// The `nclx` colour of the item (or of its first tile), when stated.
    public var colour: HEIFColourInformation?

    /// Width and height after the transforms (the upright image), or nil when a `clap` leaves nothing.
    public var displaySize: (width: Int, height: Int)? {
        var size = (width: width, height: height)
        for transform in transforms {
            switch transform {
            case .cleanAperture(let clap):
                guard let crop = clap.cropRectangle(width: size.width, height: size.height) else { return nil }
                size = (crop.width, crop.height)
            case .rotation(let quarterTurns) where quarterTurns % 2 == 1:
                size = (size.height, size.width)
            default:
                break
            }
        }
        return size
    }
}

extension HEIFMeta {
    /// Property types a decoder may meet on an HEVC image and still show it right; an *essential* property
    /// outside this set (a layer selector, an operating point...) means "let a complete HEIF reader do it".
    static let understoodImageProperties: Set<String> = ["hvcC", "ispe", "colr", "pixi", "irot", "imir", "clap", "pasp", "rloc"]

    /// Describes `itemID` (an `hvc1` item or a `grid` of them) for decoding. Throws `.unsupported` for other
    /// codings (av01, jpeg...), images with alpha, unknown essential properties, and `.invalid` for
    /// inconsistent layouts (tile count or size not matching the grid).
    ///
    /// `allowingMissingTiles`: tiles may lie past the end of the file (a file cut short); reading such a tile
    /// then fails as truncated, and a decoder draws the others (issue 15.6). Off, every tile is in the file.
    public func codedImage(_ itemID: UInt32, source: any ByteSource, limits: ParseLimits,
                           allowingMissingTiles: Bool = false) throws(MediaError) -> HEIFCodedImage {
        guard let item = item(itemID) else { throw MediaError.invalid("no item \(itemID)") }
        let checkedSize = allowingMissingTiles ? UInt64.max : source.size
        if items(referring: "auxl", to: itemID).contains(where: isAlpha) {
            throw MediaError.unsupported("item \(itemID) has an alpha plane")
        }
        try requireUnderstoodProperties(of: itemID)
        let transforms = properties(of: itemID).filter {
            switch $0 {
            case .cleanAperture, .rotation, .mirror: return true
            default: return false
            }
        }
        switch item.type {
        case "hvc1":
            let tile = try codedTile(itemID, fileSize: checkedSize)
            guard let size = spatialExtent(of: itemID), size.width > 0, size.height > 0 else {
                throw MediaError.invalid("hvc1 item \(itemID) has no size (ispe)")
            }
            return HEIFCodedImage(itemID: itemID, width: size.width, height: size.height, columns: 1, rows: 1,
                                  tileWidth: size.width, tileHeight: size.height, tiles: [tile],
                                  transforms: transforms, colour: colourInformation(of: itemID))
        case "grid":
            let grid = try HEIFImageGrid(parsing: data(of: itemID, from: source, limits: limits).bytes)
            let tileIDs = references(of: "dimg", from: itemID)
            guard tileIDs.count == grid.rows * grid.columns else {
                throw MediaError.invalid("grid \(itemID) is \(grid.columns)x\(grid.rows) but has \(tileIDs.count) tile(s)")
            }
            guard tileIDs.count <= limits.maxEntries else { throw MediaError.limitExceeded("grid of \(tileIDs.count) tiles") }
            var tiles: [HEIFCodedImage.Tile] = []
            var tileSize: (width: Int, height: Int)?
            for id in tileIDs {
                guard let type = self.item(id)?.type else { throw MediaError.invalid("grid \(itemID) refers to missing item \(id)") }
                guard type == "hvc1" else { throw MediaError.unsupported("\(type) tiles in grid \(itemID)") }
                try requireUnderstoodProperties(of: id)
                guard let size = spatialExtent(of: id), size.width > 0, size.height > 0 else {
                    throw MediaError.invalid("tile \(id) has no size (ispe)")
                }
                if let first = tileSize, first != size {
                    throw MediaError.invalid("tile \(id) is \(size.width)x\(size.height), not \(first.width)x\(first.height) like the first")
                }
                tileSize = size
                tiles.append(try codedTile(id, fileSize: checkedSize))
            }
            guard let tileSize else { throw MediaError.invalid("grid \(itemID) has no tiles") }
            // The tiles must cover the output, and no whole column or row may lie outside it.
            let canvasWidth = tileSize.width * grid.columns, canvasHeight = tileSize.height * grid.rows
            guard canvasWidth >= grid.outputWidth, canvasHeight >= grid.outputHeight,
                  canvasWidth - tileSize.width < grid.outputWidth, canvasHeight - tileSize.height < grid.outputHeight else {
                throw MediaError.invalid("grid \(itemID): \(grid.columns)x\(grid.rows) tiles of \(tileSize.width)x\(tileSize.height) do not fit its \(grid.outputWidth)x\(grid.outputHeight) output")
            }
            return HEIFCodedImage(itemID: itemID, width: grid.outputWidth, height: grid.outputHeight,
                                  columns: grid.columns, rows: grid.rows, tileWidth: tileSize.width, tileHeight: tileSize.height,
                                  tiles: tiles, transforms: transforms,
                                  colour: colourInformation(of: itemID) ?? tileIDs.first.flatMap { colourInformation(of: $0) })
        default:
            throw MediaError.unsupported("\(item.type) image item \(itemID)")
        }
    }

    /// An auxiliary item holding transparency (depth maps and HDR gain maps are ignored when displaying).
    func isAlpha(_ id: UInt32) -> Bool {
        properties(of: id).contains {
            if case .auxiliaryType(let type) = $0 { return type.hasSuffix("auxid:1") || type.hasSuffix(":auxiliary:alpha") }
            return false
        }
    }

    private func codedTile(_ id: UInt32, fileSize: UInt64) throws(MediaError) -> HEIFCodedImage.Tile {
        guard let configuration = hevcConfiguration(of: id) else { throw MediaError.invalid("hvc1 item \(id) has no hvcC") }
        let extents = try fileExtents(of: id, fileSize: fileSize)
        guard !extents.isEmpty else { throw MediaError.invalid("item \(id) has no data") }
        return HEIFCodedImage.Tile(itemID: id, configuration: configuration, extents: extents)
    }

    private func requireUnderstoodProperties(of id: UInt32) throws(MediaError) {
        for association in associations[id] ?? [] where association.essential {
            guard association.propertyIndex >= 1, association.propertyIndex <= properties.count else {
                throw MediaError.invalid("item \(id) has essential property \(association.propertyIndex) of \(properties.count)")
            }
            let type: String
            switch properties[association.propertyIndex - 1] {
            case .other(let other): type = other
            default: continue
            }
            guard Self.understoodImageProperties.contains(type) else {
                throw MediaError.unsupported("essential property '\(ISOBoxHeader.printable(type))' on item \(id)")
            }
        }
    }
}

extension HEIFCodedImage.Tile {
    /// The tile's coded bytes (bounded by `maxStructureBytes`).
    public func data(from source: any ByteSource, limits: ParseLimits) throws(MediaError) -> [UInt8] {
        try HEIFMeta.read(extents, from: source, limits: limits, what: "tile \(itemID)")
    }
}

extension HEIFMeta {
    /// Reads and parses the `meta` box of an HEIF file (a few KB), for decoders that were not handed one.
    public static func load(from source: any ByteSource, limits: ParseLimits) throws(MediaError) -> HEIFMeta {
        let topLevel = ISOBMFFTopLevel.scan(source, limits: limits)
        guard let box = topLevel.first("meta") else { throw MediaError.invalid("no top-level meta box") }
        var problems: [ParseProblem] = []
        let meta = HEIFMeta.parse(try ISOBMFFTopLevel.load(box, from: source, limits: limits, problems: &problems), limits: limits)
        return meta
    }
}
