/// The top level of an ISO BMFF file, walked by reading headers only: a 4 GB movie costs a few reads.
public struct ISOBMFFTopLevel: Sendable {
    /// Top-level boxes without children (their payloads were not read).
    public var boxes: [ISOBox]
    public var fileType: FileTypeBox?
    public var problems: [ParseProblem]
    /// The end of the file, when a header past the prefetched head lay within its last `tailBytes`: read once,
    /// it holds that header and the boxes after it (a camera movie's `moov`), which are then not read again.
    var tail: ByteReader?

    /// A header this close to the end of the file is read with everything after it (see `tail`).
    static let tailBytes: UInt64 = 64 << 10

    public func first(_ type: String) -> ISOBox? { boxes.first { $0.type == type } }

    /// Up to `count` bytes of `tail` from file offset `offset` on; nil when the tail does not hold that offset.
    static func window(of tail: ByteReader, at offset: UInt64, upTo count: Int) -> ByteReader? {
        guard offset >= tail.baseOffset, offset - tail.baseOffset < UInt64(tail.count) else { return nil }
        let start = Int(offset - tail.baseOffset)
        return tail.window(start, min(count, tail.count - start), baseOffset: offset)
    }

    /// The bytes of `box` when the tail read holds them (no read, no copy).
    func tailBytes(of box: ISOBox) -> ByteReader? {
        guard let tail, box.range.offset >= tail.baseOffset, let length = Int(exactly: box.range.length),
              let start = Int(exactly: box.range.offset - tail.baseOffset) else { return nil }
        return tail.window(start, length, baseOffset: box.range.offset)
    }

    /// Walks the top-level boxes of `source`. A box whose size is smaller than its header or runs past the
    /// end is a problem and ends the walk (the boxes before it stay usable).
    public static func scan(_ source: any ByteSource, limits: ParseLimits) -> ISOBMFFTopLevel {
        var result = ISOBMFFTopLevel(boxes: [], fileType: nil, problems: [])
        var offset: UInt64 = 0
        while offset < source.size {
            guard result.boxes.count < limits.maxEntries else {
                result.problems.append(ParseProblem(.warning, "isobmff", "more than \(limits.maxEntries) top-level boxes: the rest ignored"))
                break
            }
            let available = source.size - offset
            do {
                // 32 bytes cover the largest header: largesize plus a uuid extended type.
                var r: ByteReader
                if let tail = result.tail, let window = Self.window(of: tail, at: offset, upTo: 32) {
                    r = window
                } else if offset >= UInt64(limits.headerProbeBytes), available <= tailBytes {
                    // Past the head and near the end: one read serves this header and what follows it.
                    let tail = try source.reader(at: offset, count: Int(available))
                    result.tail = tail
                    r = tail.window(0, min(32, tail.count), baseOffset: offset) ?? tail
                } else {
                    r = try source.reader(at: offset, count: 32)
                }
                if r.count < 8 {
                    result.problems.append(ParseProblem(.warning, "isobmff", "\(available) trailing byte(s) at \(offset) are not a box"))
                    break
                }
                let header = try ISOBoxHeader.read(from: &r, available: available)
                result.boxes.append(ISOBox(header: header, offset: offset))
                offset += header.size
            } catch {
                result.problems.append(ParseProblem(.error, "isobmff", error.description))
                break
            }
        }
        if let ftyp = result.first("ftyp") {
            do {
                result.fileType = try FileTypeBox.read(ftyp, from: source)
            } catch {
                result.problems.append(ParseProblem(.warning, "isobmff/ftyp", error.description))
            }
        }
        return result
    }

    /// Loads the first top-level box of `type`; a missing or unreadable one is an error problem and nil.
    public func loadStructure(_ type: String, from source: any ByteSource, limits: ParseLimits, context: String,
                              problems: inout [ParseProblem]) -> ISOStructure? {
        guard let box = first(type) else {
            problems.append(ParseProblem(.error, context, "no top-level \(type) box"))
            return nil
        }
        do {
            return try Self.load(box, from: source, limits: limits, problems: &problems)
        } catch {
            problems.append(ParseProblem(.error, "\(context)/\(type)", error.description))
            return nil
        }
    }

    /// Reads one top-level box wholly (bounded by `maxStructureBytes`) and parses its tree.
    public static func load(_ box: ISOBox, from source: any ByteSource, limits: ParseLimits,
                            problems: inout [ParseProblem]) throws(MediaError) -> ISOStructure {
        guard box.range.length <= UInt64(limits.maxStructureBytes) else {
            throw MediaError.limitExceeded("'\(box.type)' box of \(box.range.length) bytes (limit \(limits.maxStructureBytes))")
        }
        let bytes = try source.readExactly(at: box.range.offset, count: Int(box.range.length))
        return try ISOStructure.parse(ByteReader(bytes, baseOffset: box.range.offset), limits: limits,
                                      context: ISOBoxHeader.printable(box.type), problems: &problems)
    }
}

/// `ftyp`: what the file says it is.
public struct FileTypeBox: Sendable, Hashable {
    public var majorBrand: String
    public var minorVersion: UInt32
    public var compatibleBrands: [String]

    public func has(brand: String) -> Bool { majorBrand == brand || compatibleBrands.contains(brand) }

    static func read(_ box: ISOBox, from source: any ByteSource) throws(MediaError) -> FileTypeBox {
        // Brands are few; a huge ftyp is read only up to 1 KB.
        let count = Int(min(box.payloadRange.length, 1024))
        var r = try source.reader(at: box.payloadRange.offset, count: count)
        let major = try r.readFourCC()
        let minor = try r.readU32()
        var brands: [String] = []
        while r.remaining >= 4 { brands.append(try r.readFourCC()) }
        return FileTypeBox(majorBrand: major, minorVersion: minor, compatibleBrands: brands)
    }
}
