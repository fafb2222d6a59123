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
        guard containerTypeCodes.contains(header.typeCode) else { return box }
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
