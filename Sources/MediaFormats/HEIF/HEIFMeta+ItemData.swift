extension HEIFMeta {
    /// Where an item's bytes are in the file: its extents resolved to file ranges and checked against the file.
    public func fileExtents(of itemID: UInt32, fileSize: UInt64) throws(MediaError) -> [ByteRange] {
        guard let location = locations[itemID] else { throw MediaError.invalid("item \(itemID) has no iloc entry") }
        guard location.dataReferenceIndex == 0 else {
            throw MediaError.unsupported("item \(itemID) lives in another file (data reference \(location.dataReferenceIndex))")
        }
        let container: ByteRange
        switch location.constructionMethod {
        case 0: container = ByteRange(offset: 0, length: fileSize)
        case 1:
            guard let idat = itemDataRange else { throw MediaError.invalid("item \(itemID) is in idat but there is none") }
            container = idat
        default:
            throw MediaError.unsupported("iloc construction method \(location.constructionMethod) for item \(itemID)")
        }
        return try location.extents.map { extent throws(MediaError) in
            // Length 0 means "the rest of the data" (a single extent covering everything after the offset).
            let length = extent.length == 0 && extent.offset <= container.length ? container.length - extent.offset : extent.length
            let resolved = ByteRange(offset: container.offset &+ extent.offset, length: length)
            guard extent.offset <= container.length, length <= container.length - extent.offset,
                  resolved.fits(in: fileSize) else {
                throw MediaError.invalid("item \(itemID) extent \(extent) lies outside the file (\(fileSize) bytes)")
            }
            return resolved
        }
    }

    /// Reads an item's bytes (extents concatenated), bounded by `maxStructureBytes`.
    /// Returns the bytes and the file offset of the first one.
    public func data(of itemID: UInt32, from source: any ByteSource, limits: ParseLimits) throws(MediaError) -> (bytes: [UInt8], fileOffset: UInt64) {
        let extents = try fileExtents(of: itemID, fileSize: source.size)
        guard let first = extents.first else { throw MediaError.invalid("item \(itemID) has no extents") }
        return (try Self.read(extents, from: source, limits: limits, what: "item \(itemID)"), first.offset)
    }

    /// Reads extents one after another into one buffer, bounded by `maxStructureBytes`.
    public static func read(_ extents: [ByteRange], from source: any ByteSource, limits: ParseLimits,
                            what: String) throws(MediaError) -> [UInt8] {
        var total: UInt64 = 0
        var overflow = false
        for extent in extents where !overflow { (total, overflow) = total.addingReportingOverflow(extent.length) }
        guard !overflow, total <= UInt64(limits.maxStructureBytes) else {
            throw MediaError.limitExceeded("\(what) is \(total) bytes (limit \(limits.maxStructureBytes))")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(total))
        for extent in extents {
            bytes += try source.readExactly(at: extent.offset, count: Int(extent.length))
        }
        return bytes
    }
}
