extension HEIFMeta {
    /// Reads the boxes of a parsed `meta` structure; each broken box is a problem, the rest still counts.
    public static func parse(_ meta: ISOStructure, limits: ParseLimits) -> HEIFMeta {
        var result = HEIFMeta()
        result.box = meta.root
        func attempt(_ type: String, _ body: (ISOBox) throws(MediaError) -> Void) {
            guard let box = meta.root.child(type) else { return }
            do {
                try body(box)
            } catch {
                result.problems.append(ParseProblem(.warning, "heif/\(type)", error.description))
            }
        }
        attempt("hdlr") { box throws(MediaError) in
            var r = try meta.fullBoxPayload(of: box).reader
            try r.skip(4)
            result.handlerType = try r.readFourCC()
        }
        attempt("pitm") { box throws(MediaError) in
            let (version, _, reader) = try meta.fullBoxPayload(of: box)
            var r = reader
            result.primaryItemID = version == 0 ? UInt32(try r.readU16()) : try r.readU32()
        }
        attempt("iinf") { box throws(MediaError) in result.items = try parseItemInfo(box, in: meta, limits: limits, problems: &result.problems) }
        attempt("iloc") { box throws(MediaError) in result.locations = try parseItemLocations(box, in: meta, limits: limits) }
        attempt("iref") { box throws(MediaError) in result.references = try parseReferences(box, in: meta, limits: limits, problems: &result.problems) }
        attempt("iprp") { box throws(MediaError) in try parseProperties(box, in: meta, limits: limits, into: &result) }
        attempt("idat") { box throws(MediaError) in result.itemDataRange = box.payloadRange }
        return result
    }

    static func parseItemInfo(_ box: ISOBox, in meta: ISOStructure, limits: ParseLimits,
                              problems: inout [ParseProblem]) throws(MediaError) -> [Item] {
        let (version, _, reader) = try meta.fullBoxPayload(of: box)
        var r = reader
        let count = version == 0 ? UInt64(try r.readU16()) : UInt64(try r.readU32())
        // Each infe is at least a 12-byte full box header plus an id.
        try r.requireEntries(count, of: 14, limit: limits.maxEntries, what: "iinf")
        let entries = ISOBox.parseSequence(&r, depth: 2, limits: limits, context: "heif/iinf", problems: &problems)
        var items: [Item] = []
        for entry in entries where entry.type == "infe" {
            do {
                if let item = try parseItemInfoEntry(entry, in: meta) { items.append(item) }
            } catch {
                problems.append(ParseProblem(.warning, "heif/iinf/infe", error.description))
            }
        }
        return items
    }

    static func parseItemInfoEntry(_ box: ISOBox, in meta: ISOStructure) throws(MediaError) -> Item? {
        let (version, flags, reader) = try meta.fullBoxPayload(of: box)
        var r = reader
        // Versions 0 and 1 have no item type (they describe files, not images).
        guard version >= 2 else { return nil }
        let id = version == 2 ? UInt32(try r.readU16()) : try r.readU32()
        _ = try r.readU16() // protection index
        let type = try r.readFourCC()
        let name = try r.readCString()
        var contentType: String?
        if type == "mime" { contentType = try r.readCString() }
        return Item(id: id, type: type, name: name, contentType: contentType, hidden: flags & 1 != 0)
    }

    static func parseItemLocations(_ box: ISOBox, in meta: ISOStructure, limits: ParseLimits) throws(MediaError) -> [UInt32: Location] {
        let (version, _, reader) = try meta.fullBoxPayload(of: box)
        return try readItemLocations(reader, version: version, keeping: nil, limits: limits)
    }

    /// The entries of an `iloc` payload (after version and flags). With `wanted` (the probe), only those
    /// items' locations are kept, but every entry is still read and checked as for all of them.
    static func readItemLocations(_ reader: ByteReader, version: UInt8, keeping wanted: [UInt32]?,
                                  limits: ParseLimits) throws(MediaError) -> [UInt32: Location] {
        guard version <= 2 else { throw MediaError.unsupported("iloc version \(version)") }
        var r = reader
        let sizes = try r.readU16()
        let offsetSize = Int(sizes >> 12), lengthSize = Int(sizes >> 8 & 0xF)
        let baseOffsetSize = Int(sizes >> 4 & 0xF)
        let indexSize = version >= 1 ? Int(sizes & 0xF) : 0
        let count = version < 2 ? UInt64(try r.readU16()) : UInt64(try r.readU32())
        // Smallest item: id (2) + data reference index (2) + extent count (2).
        try r.requireEntries(count, of: 6, limit: limits.maxEntries, what: "iloc items")
        var locations: [UInt32: Location] = [:]
        for _ in 0..<count {
            let id = version < 2 ? UInt32(try r.readU16()) : try r.readU32()
            let method = version >= 1 ? Int(try r.readU16() & 0xF) : 0
            let dataReference = Int(try r.readU16())
            let base = try r.readUInt(size: baseOffsetSize)
            let extentCount = UInt64(try r.readU16())
            let extentSize = (version >= 1 ? indexSize : 0) + offsetSize + lengthSize
            try r.requireEntries(extentCount, of: extentSize, limit: limits.maxEntries, what: "iloc extents of item \(id)")
            let keep = wanted?.contains(id) ?? true
            var extents: [ByteRange] = []
            if keep { extents.reserveCapacity(Int(extentCount)) }
            for _ in 0..<extentCount {
                if version >= 1 { _ = try r.readUInt(size: indexSize) }
                let offset = try r.readUInt(size: offsetSize)
                let length = try r.readUInt(size: lengthSize)
                let (start, overflow) = base.addingReportingOverflow(offset)
                guard !overflow else { throw MediaError.invalid("iloc extent offset overflows for item \(id)") }
                if keep { extents.append(ByteRange(offset: start, length: length)) }
            }
            if keep {
                locations[id] = Location(itemID: id, constructionMethod: method, dataReferenceIndex: dataReference,
                                         baseOffset: base, extents: extents)
            }
        }
        return locations
    }

    static func parseReferences(_ box: ISOBox, in meta: ISOStructure, limits: ParseLimits,
                                problems: inout [ParseProblem]) throws(MediaError) -> [Reference] {
        let (version, _, reader) = try meta.fullBoxPayload(of: box)
        var r = reader
        let idSize = version == 0 ? 2 : 4
        let children = ISOBox.parseSequence(&r, depth: 2, limits: limits, context: "heif/iref", problems: &problems)
        var references: [Reference] = []
        for child in children {
            var c = try meta.payload(of: child)
            let from = UInt32(try c.readUInt(size: idSize))
            let count = UInt64(try c.readU16())
            try c.requireEntries(count, of: idSize, limit: limits.maxEntries, what: "iref \(child.type)")
            var to: [UInt32] = []
            for _ in 0..<count { to.append(UInt32(try c.readUInt(size: idSize))) }
            references.append(Reference(type: child.type, from: from, to: to))
        }
        return references
    }

    static func parseProperties(_ iprp: ISOBox, in meta: ISOStructure, limits: ParseLimits,
                                into result: inout HEIFMeta) throws(MediaError) {
        guard let ipco = iprp.child("ipco") else { throw MediaError.invalid("iprp without ipco") }
        result.properties = ipco.children.map { box in
            do throws(MediaError) {
                return try parseProperty(box, in: meta)
            } catch {
                result.problems.append(ParseProblem(.warning, "heif/ipco/\(ISOBoxHeader.printable(box.type))", error.description))
                return .other(type: box.type)
            }
        }
        for ipma in iprp.children("ipma") {
            let (version, flags, reader) = try meta.fullBoxPayload(of: ipma)
            var r = reader
            let count = UInt64(try r.readU32())
            try r.requireEntries(count, of: version < 1 ? 3 : 5, limit: limits.maxEntries, what: "ipma")
            let wideIndex = flags & 1 != 0
            for _ in 0..<count {
                let id = version < 1 ? UInt32(try r.readU16()) : try r.readU32()
                let associationCount = Int(try r.readU8())
                var list: [Association] = []
                for _ in 0..<associationCount {
                    if wideIndex {
                        let v = try r.readU16()
                        list.append(Association(propertyIndex: Int(v & 0x7FFF), essential: v & 0x8000 != 0))
                    } else {
                        let v = try r.readU8()
                        list.append(Association(propertyIndex: Int(v & 0x7F), essential: v & 0x80 != 0))
                    }
                }
                result.associations[id, default: []] += list
            }
        }
    }

    static func parseProperty(_ box: ISOBox, in meta: ISOStructure) throws(MediaError) -> Property {
        switch box.type {
        case "ispe":
            var r = try meta.fullBoxPayload(of: box).reader
            let width = try r.readU32(), height = try r.readU32()
            return .spatialExtent(width: Int(width), height: Int(height))
        case "irot":
            var r = try meta.payload(of: box)
            return .rotation(counterClockwiseQuarterTurns: Int(try r.readU8() & 3))
        case "imir":
            var r = try meta.payload(of: box)
            return .mirror(axis: Int(try r.readU8() & 1))
        case "hvcC":
            let r = try meta.payload(of: box)
            // configurationVersion, profile... up to numOfArrays: 23 bytes, then the parameter set arrays.
            guard r.count >= 23 else { throw MediaError.invalid("hvcC of \(r.count) bytes (a record has at least 23)") }
            return .hevcConfiguration(bytes: r.bytes)
        case "clap":
            var r = try meta.payload(of: box)
            return .cleanAperture(try HEIFCleanAperture(reading: &r))
        case "colr":
            var r = try meta.payload(of: box)
            guard try r.readFourCC() == "nclx" else { return .other(type: box.type) }
            return .colourInformation(try HEIFColourInformation(readingNCLX: &r))
        case "auxC":
            var r = try meta.fullBoxPayload(of: box).reader
            return .auxiliaryType(try r.readCString())
        default:
            return .other(type: box.type)
        }
    }
}
