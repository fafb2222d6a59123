/// The top level of an ISO BMFF file, walked by reading headers only: a 4 GB movie costs a few reads.
public struct ISOBMFFTopLevel: Sendable {
    /// Top-level boxes without children (their payloads were not read).
    public var boxes: [ISOBox]
    public var fileType: FileTypeBox?
    public var problems: [ParseProblem]

    public func first(_ type: String) -> ISOBox? { boxes.first { $0.type == type } }

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
                var r = try source.reader(at: offset, count: 32)
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
