/// The probe's walk of a HEIF `meta` box: what `HEIFProbe` asks of a `HEIFMeta`, read straight from the box's
/// bytes, without the box tree and without the items, extents and associations the probe never looks at
/// (an iPhone grid image has ~50 tiles, each with an item, a location and associations: building them all
/// was a third of a scan's CPU, issue 17).
///
/// Exactness: the result answers every question `HEIFProbe` asks (handler, primary item, its size,
/// transforms and thumbnail, the Exif and XMP items and their locations, idat) exactly as
/// `HEIFMeta.parse` would. The walk returns nil — and the caller runs the full parser, which reports the
/// problem in its own words — wherever the full parser would report any problem, so a broken file never
/// takes the shortcut. `HEIFProbeFastPathTests` compares both on fixtures and on damaged copies of them.
extension HEIFMeta {
    private enum Code {
        static let hdlr = fourCCCode("hdlr"), pitm = fourCCCode("pitm"), iinf = fourCCCode("iinf")
        static let iloc = fourCCCode("iloc"), iref = fourCCCode("iref"), iprp = fourCCCode("iprp")
        static let idat = fourCCCode("idat"), ipco = fourCCCode("ipco"), ipma = fourCCCode("ipma")
        static let infe = fourCCCode("infe"), mime = fourCCCode("mime"), exif = fourCCCode("Exif")
        static let thmb = fourCCCode("thmb"), cdsc = fourCCCode("cdsc")
        static let ispe = fourCCCode("ispe"), irot = fourCCCode("irot"), imir = fourCCCode("imir")
        static let hvcC = fourCCCode("hvcC"), clap = fourCCCode("clap"), colr = fourCCCode("colr")
        static let auxC = fourCCCode("auxC"), nclx = fourCCCode("nclx")
    }

    static let xmpContentType = "application/rdf+xml"

    /// The first direct child of each type `HEIFMeta.parse` reads (it takes the first of each).
    private struct Children {
        var hdlr, pitm, iinf, iloc, iref, iprp: ByteReader?
        var idat: ByteRange?
    }

    /// `meta`: the whole box (header included), as `ISOBMFFTopLevel.load` reads it. nil: use the full parser.
    static func parseForProbe(_ meta: ByteReader, limits: ParseLimits) -> HEIFMeta? {
        // The tree `ISOStructure.parse` would build must parse cleanly (then the walks below cannot fail on
        // structure, only on what is inside a box).
        var check = meta
        guard ISOTreeCheck.box(&check, depth: 0, limits: limits) else { return nil }
        var root = meta
        guard let (header, payload) = ISOTreeCheck.nextBox(&root), header.typeCode == ISOTreeCheck.meta else { return nil }
        var body = payload
        // try?: the probe declines (nil) and the full parser reports why.
        guard (try? body.skip(min(ISOTreeCheck.childrenOffset(typeCode: header.typeCode, payload: payload),
                                  body.remaining))) != nil else { return nil }
        var children = Children()
        while body.remaining >= 8 {
            guard let (child, childPayload) = ISOTreeCheck.nextBox(&body) else { return nil }
            switch child.typeCode {
            case Code.hdlr where children.hdlr == nil: children.hdlr = childPayload
            case Code.pitm where children.pitm == nil: children.pitm = childPayload
            case Code.iinf where children.iinf == nil: children.iinf = childPayload
            case Code.iloc where children.iloc == nil: children.iloc = childPayload
            case Code.iref where children.iref == nil: children.iref = childPayload
            case Code.iprp where children.iprp == nil: children.iprp = childPayload
            case Code.idat where children.idat == nil:
                children.idat = ByteRange(offset: childPayload.baseOffset, length: UInt64(childPayload.count))
            default: break
            }
        }
        do throws(MediaError) {
            var result = HEIFMeta()
            if var r = children.hdlr {
                try r.skip(4 + 4)   // version and flags, pre_defined
                result.handlerType = try r.readFourCC()
            }
            if var r = children.pitm {
                let version = try r.readU8()
                try r.skip(3)
                result.primaryItemID = version == 0 ? UInt32(try r.readU16()) : try r.readU32()
            }
            if let iinf = children.iinf {
                guard let items = try probeItems(iinf, primary: result.primaryItemID, limits: limits) else { return nil }
                result.items = items
            }
            if let iref = children.iref {
                guard let references = try probeReferences(iref, limits: limits) else { return nil }
                result.references = references
            }
            if let iloc = children.iloc {
                var wanted = result.items.map(\.id)
                if let primary = result.primaryItemID { wanted.append(primary) }
                var header = iloc
                let version = try header.readU8()
                try header.skip(3)
                result.locations = try readItemLocations(header, version: version, keeping: wanted, limits: limits)
            }
            if let iprp = children.iprp {
                var wanted: [UInt32] = []
                if let primary = result.primaryItemID {
                    wanted.append(primary)
                    if let thumbnail = result.items(referring: "thmb", to: primary).first { wanted.append(thumbnail) }
                }
                guard try probeProperties(iprp, wanted: wanted, limits: limits, into: &result) else { return nil }
            }
            result.itemDataRange = children.idat
            return result
        } catch {
            return nil
        }
    }

    /// The items the probe asks about: the first with the primary's id (for a grid's size), the Exif items
    /// and the XMP (`mime` `application/rdf+xml`) items, in file order. nil where the full parser would
    /// report a problem.
    private static func probeItems(_ payload: ByteReader, primary: UInt32?, limits: ParseLimits) throws(MediaError) -> [Item]? {
        var r = payload
        let version = try r.readU8()
        try r.skip(3)
        let count = version == 0 ? UInt64(try r.readU16()) : UInt64(try r.readU32())
        try r.requireEntries(count, of: 14, limit: limits.maxEntries, what: "iinf")
        var check = r
        guard ISOTreeCheck.sequence(&check, depth: 2, limits: limits) else { return nil }
        var items: [Item] = []
        var primaryKept = false
        while r.remaining >= 8 {
            guard let (header, entry) = ISOTreeCheck.nextBox(&r) else { return nil }
            guard header.typeCode == Code.infe else { continue }
            var e = entry
            // Every infe is read to its end, as the full parser does, so that a broken one is noticed (try?: a short
            // one makes the probe decline, nil, and the full parser reports why).
            guard let word = try? e.readU32() else { return nil }
            let entryVersion = word >> 24
            guard entryVersion >= 2 else { continue }
            // try?: as above.
            guard let id = try? (entryVersion == 2 ? UInt32(e.readU16()) : e.readU32()),
                  (try? e.skip(2)) != nil, let type = try? e.readU32() else { return nil }
            skipCString(&e)   // the name, which the probe does not keep
            let isPrimary = !primaryKept && id == primary
            guard type == Code.exif || type == Code.mime || isPrimary else { continue }
            var contentType: String?
            if type == Code.mime { contentType = try e.readCString() }
            items.append(Item(id: id, type: fourCC(type), name: "", contentType: contentType, hidden: word & 1 != 0))
            if isPrimary { primaryKept = true }
        }
        return items
    }

    /// Moves past a NUL-terminated string as `ByteReader.readCString` does, without making it a String.
    private static func skipCString(_ r: inout ByteReader) {
        let limit = min(r.remaining, 4096)
        var length = 0
        while length < limit, r.peekU8(at: length) != 0 { length += 1 }
        try? r.seek(to: min(r.position + length + 1, r.count))   // try?: clamped to the end, so it cannot fail
    }

    /// `thmb` and `cdsc` references (the others are checked, not kept). nil where the full parser would
    /// report a problem.
    private static func probeReferences(_ payload: ByteReader, limits: ParseLimits) throws(MediaError) -> [Reference]? {
        var r = payload
        let version = try r.readU8()
        try r.skip(3)
        let idSize = version == 0 ? 2 : 4
        var check = r
        guard ISOTreeCheck.sequence(&check, depth: 2, limits: limits) else { return nil }
        var references: [Reference] = []
        while r.remaining >= 8 {
            guard let (header, body) = ISOTreeCheck.nextBox(&r) else { return nil }
            var c = body
            let from = UInt32(try c.readUInt(size: idSize))
            let count = UInt64(try c.readU16())
            try c.requireEntries(count, of: idSize, limit: limits.maxEntries, what: "iref")
            guard header.typeCode == Code.thmb || header.typeCode == Code.cdsc else { continue }
            var to: [UInt32] = []
            to.reserveCapacity(Int(count))
            for _ in 0..<count { to.append(UInt32(try c.readUInt(size: idSize))) }
            references.append(Reference(type: fourCC(header.typeCode), from: from, to: to))
        }
        return references
    }

    /// Properties (only ispe, irot and imir keep their values; the others become `.other`, after the same
    /// checks as the full parser's) and the associations of the `wanted` items. false where the full parser
    /// would report a problem.
    private static func probeProperties(_ iprp: ByteReader, wanted: [UInt32], limits: ParseLimits,
                                        into result: inout HEIFMeta) throws(MediaError) -> Bool {
        var ipco: ByteReader?
        var walk = iprp
        while walk.remaining >= 8 {
            guard let (header, payload) = ISOTreeCheck.nextBox(&walk) else { return false }
            if header.typeCode == Code.ipco { ipco = payload; break }
        }
        guard var properties = ipco else { return false }
        var list: [Property] = []
        while properties.remaining >= 8 {
            guard let (header, payload) = ISOTreeCheck.nextBox(&properties),
                  let property = probeProperty(header.typeCode, payload) else { return false }
            list.append(property)
        }
        result.properties = list
        var boxes = iprp
        while boxes.remaining >= 8 {
            guard let (header, payload) = ISOTreeCheck.nextBox(&boxes) else { return false }
            guard header.typeCode == Code.ipma else { continue }
            var r = payload
            let word = try r.readU32()
            let version = word >> 24, wideIndex = word & 1 != 0
            let count = UInt64(try r.readU32())
            try r.requireEntries(count, of: version < 1 ? 3 : 5, limit: limits.maxEntries, what: "ipma")
            for _ in 0..<count {
                let id = version < 1 ? UInt32(try r.readU16()) : try r.readU32()
                let associationCount = Int(try r.readU8())
                guard wanted.contains(id) else {
                    try r.skip(associationCount * (wideIndex ? 2 : 1))
                    continue
                }
                var associations: [Association] = []
                associations.reserveCapacity(associationCount)
                for _ in 0..<associationCount {
                    if wideIndex {
                        let v = try r.readU16()
                        associations.append(Association(propertyIndex: Int(v & 0x7FFF), essential: v & 0x8000 != 0))
                    } else {
                        let v = try r.readU8()
                        associations.append(Association(propertyIndex: Int(v & 0x7F), essential: v & 0x80 != 0))
                    }
                }
                result.associations[id, default: []] += associations
            }
        }
        return true
    }

    /// One ipco property, or nil where `parseProperty` would throw.
    private static func probeProperty(_ type: UInt32, _ payload: ByteReader) -> Property? {
        var r = payload
        do throws(MediaError) {
            switch type {
            case Code.ispe:
                try r.skip(4)
                let width = try r.readU32(), height = try r.readU32()
                return .spatialExtent(width: Int(width), height: Int(height))
            case Code.irot:
                return .rotation(counterClockwiseQuarterTurns: Int(try r.readU8() & 3))
            case Code.imir:
                return .mirror(axis: Int(try r.readU8() & 1))
            case Code.hvcC:
                guard r.count >= 23 else { return nil }
            case Code.clap:
                _ = try HEIFCleanAperture(reading: &r)
            case Code.colr:
                if try r.readU32() == Code.nclx { _ = try HEIFColourInformation(readingNCLX: &r) }
            case Code.auxC:
                try r.skip(4)
            default:
                break
            }
            // The probe never reads these values: a placeholder keeps the association indices right.
            return .other(type: "")
        } catch {
            return nil
        }
    }
}
