/// The HEIF `meta` box as data: items, where their bytes are, how they refer to each other, their properties.
public struct HEIFMeta: Sendable {
    public struct Item: Sendable, Hashable {
        public var id: UInt32
        /// `hvc1`, `grid`, `Exif`, `mime`, `iden`...
        public var type: String
        public var name: String
        /// For `mime` items (`application/rdf+xml` is XMP).
        public var contentType: String?
        /// infe flags bit 0: not meant to be displayed on its own.
        public var hidden: Bool
    }

    public struct Location: Sendable, Hashable {
        public var itemID: UInt32
        /// 0 = file offsets, 1 = inside `idat`, 2 = item offsets (not supported).
        public var constructionMethod: Int
        public var dataReferenceIndex: Int
        public var baseOffset: UInt64
        /// Extents relative to the file (method 0) or the idat payload (method 1), base offset included.
        /// A length of 0 means "to the end of the data".
        public var extents: [ByteRange]
    }

    public struct Reference: Sendable, Hashable {
        /// `thmb`, `cdsc`, `dimg`, `auxl`...
        public var type: String
        public var from: UInt32
        public var to: [UInt32]
    }

    public enum Property: Sendable, Hashable {
        /// `ispe`
        case spatialExtent(width: Int, height: Int)
        /// `irot`: counter-clockwise quarter turns.
        case rotation(counterClockwiseQuarterTurns: Int)
        /// `imir`: 0 = vertical axis (left-right flip), 1 = horizontal axis (top-bottom flip).
        case mirror(axis: Int)
        /// `hvcC`: the HEVCDecoderConfigurationRecord (parameter sets, NAL length size) as stored, which is
        /// what libavcodec takes as extradata.
        case hevcConfiguration(bytes: [UInt8])
        /// `clap`: the clean aperture (a centred crop).
        case cleanAperture(HEIFCleanAperture)
        /// `colr` of colour type `nclx` (ICC profiles, `prof`/`rICC`, stay `.other(type: "colr")`).
        case colourInformation(HEIFColourInformation)
        /// `auxC`: what an auxiliary image is (`urn:mpeg:hevc:2015:auxid:1` is alpha).
        case auxiliaryType(String)
        case other(type: String)
    }

    public struct Association: Sendable, Hashable {
        /// 1-based index into `properties`; 0 means "no property".
        public var propertyIndex: Int
        public var essential: Bool
    }

    public var handlerType: String?
    public var primaryItemID: UInt32?
    public var items: [Item] = []
    public var locations: [UInt32: Location] = [:]
    public var references: [Reference] = []
    public var properties: [Property] = []
    public var associations: [UInt32: [Association]] = [:]
    /// Payload of `idat` in file offsets (construction method 1 extents are relative to it).
    public var itemDataRange: ByteRange?
    /// The `meta` tree, for a future writer.
    public var box: ISOBox?
    public var problems: [ParseProblem] = []

    public init() {}

    public func item(_ id: UInt32) -> Item? { items.first { $0.id == id } }

    /// Properties associated with `itemID`, in association order (the order transforms apply in).
    public func properties(of itemID: UInt32) -> [Property] {
        (associations[itemID] ?? []).compactMap { a in
            a.propertyIndex >= 1 && a.propertyIndex <= properties.count ? properties[a.propertyIndex - 1] : nil
        }
    }

    public func spatialExtent(of itemID: UInt32) -> (width: Int, height: Int)? {
        for case let .spatialExtent(w, h) in properties(of: itemID) { return (w, h) }
        return nil
    }

    /// The `hvcC` bytes of an item, when it has one.
    public func hevcConfiguration(of itemID: UInt32) -> [UInt8]? {
        for case let .hevcConfiguration(bytes) in properties(of: itemID) { return bytes }
        return nil
    }

    /// The `nclx` colour information of an item, when it has one.
    public func colourInformation(of itemID: UInt32) -> HEIFColourInformation? {
        for case let .colourInformation(colour) in properties(of: itemID) { return colour }
        return nil
    }

    /// Items that refer to `target` with a reference of `type` (e.g. the thumbnails of the primary).
    public func items(referring type: String, to target: UInt32) -> [UInt32] {
        references.filter { $0.type == type && $0.to.contains(target) }.map(\.from)
    }

    /// Items `source` refers to with `type` (e.g. a grid's tiles via `dimg`).
    public func references(of type: String, from source: UInt32) -> [UInt32] {
        references.filter { $0.type == type && $0.from == source }.flatMap(\.to)
    }
}
