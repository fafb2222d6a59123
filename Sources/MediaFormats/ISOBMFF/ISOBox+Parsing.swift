extension ISOBox {
    /// Types whose payload is nothing but child boxes (possibly after a full-box header).
    static let containerTypes: Set<String> = [
        "moov", "trak", "mdia", "minf", "stbl", "edts", "udta", "dinf", "mvex", "moof", "traf", "mfra",
        "tref", "iprp", "ipco", "gmhd", "meta", "tapt", "ilst", "grpl",
    ]

    /// `containerTypes` as big-endian type codes: the parser checks every box's code against these, and
    /// comparing integers costs no string hashing.
    static let containerTypeCodes: [UInt32] = containerTypes.map { type in
        type.utf8.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// `containerTypeCodes.contains(code)` as a switch over literals (the compiler makes it a few comparisons,
    /// not a walk of an array behind a lazy global): asked for every box of every probed file. A test holds it
    /// to `containerTypes`.
    @inline(__always)
    static func isContainer(_ code: UInt32) -> Bool {
        switch code {
        case 0x6D6F_6F76, 0x7472_616B, 0x6D64_6961, 0x6D69_6E66, 0x7374_626C,   // moov trak mdia minf stbl
             0x6564_7473, 0x7564_7461, 0x6469_6E66, 0x6D76_6578, 0x6D6F_6F66,   // edts udta dinf mvex moof
             0x7472_6166, 0x6D66_7261, 0x7472_6566, 0x6970_7270, 0x6970_636F,   // traf mfra tref iprp ipco
             0x676D_6864, 0x6D65_7461, 0x7461_7074, 0x696C_7374, 0x6772_706C:   // gmhd meta tapt ilst grpl
            return true
        default:
            return false
        }
    }

    /// Where the children of a container start in its payload. `meta` is a full box in ISO files but a
    /// plain atom in QuickTime ones (whose first child, `hdlr`, then sits right at the payload start).
    static func childrenOffset(type: String, payload: ByteReader) -> Int {
        guard type == "meta" else { return 0 }
        let looksLikeAtom = payload.slice(4, 4).map { $0.elementsEqual("hdlr".utf8) } ?? false
        if looksLikeAtom { return 0 }
        let zeroVersion = payload.slice(0, 4).map { $0.allSatisfy { $0 == 0 } } ?? false
        return zeroVersion ? 4 : 0
    }

    /// Parses one box at the reader's position (skipping to its end whatever its children held).
    /// `depth` is this box's nesting level (top-level boxes are 0).
    static func parse(_ r: inout ByteReader, depth: Int, limits: ParseLimits, context: String,
                      problems: inout [ParseProblem]) throws(MediaError) -> ISOBox {
        try parse(&r, depth: depth, limits: limits, context: { context }, problems: &problems)
    }

    /// Parses consecutive boxes until the reader ends; a broken box is reported and ends the sequence,
    /// keeping the boxes before it.
    static func parseSequence(_ r: inout ByteReader, depth: Int, limits: ParseLimits, context: String,
                              problems: inout [ParseProblem]) -> [ISOBox] {
        parseSequence(&r, depth: depth, limits: limits, context: { context }, problems: &problems)
    }

    // The problem path ("quicktime/moov/trak/mdia") is built only when a problem is reported: building it
    // for every container box of every probed file was a measurable share of a scan's CPU (issue 17).

    private static func parse(_ r: inout ByteReader, depth: Int, limits: ParseLimits, context: () -> String,
                              problems: inout [ParseProblem]) throws(MediaError) -> ISOBox {
        let start = r.fileOffset
        let header = try ISOBoxHeader.read(from: &r, available: UInt64(r.remaining))
        // The header checked size <= available, so the body fits in this reader.
        var body = try r.subReader(Int(header.size) - header.headerSize)
        var box = ISOBox(header: header, offset: start)
        guard isContainer(header.typeCode) else { return box }
        guard depth < limits.maxDepth else {
            problems.append(ParseProblem(.warning, context() + "/" + ISOBoxHeader.printable(header.type),
                                         "boxes nest deeper than \(limits.maxDepth): children ignored"))
            return box
        }
        box.childrenOffset = childrenOffset(type: header.type, payload: body)
        try body.skip(min(box.childrenOffset, body.remaining))
        box.children = parseSequence(&body, depth: depth + 1, limits: limits,
                                     context: { context() + "/" + ISOBoxHeader.printable(header.type) },
                                     problems: &problems)
        return box
    }

    private static func parseSequence(_ r: inout ByteReader, depth: Int, limits: ParseLimits, context: () -> String,
                                      problems: inout [ParseProblem]) -> [ISOBox] {
        var boxes: [ISOBox] = []
        // Most containers hold a handful of boxes: one allocation instead of regrowing from 1, 2, 4.
        boxes.reserveCapacity(min(r.remaining / 8, 8))
        while r.remaining >= 8 {
            guard boxes.count < limits.maxEntries else {
                problems.append(ParseProblem(.warning, context(), "more than \(limits.maxEntries) boxes: the rest ignored"))
                break
            }
            do {
                boxes.append(try parse(&r, depth: depth, limits: limits, context: context, problems: &problems))
            } catch {
                problems.append(ParseProblem(.warning, context(), error.description))
                break
            }
        }
        return boxes
    }
}
