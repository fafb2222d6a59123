/// Edits the items of a HEIF file (HEIC): gives items new data, adds metadata items (`Exif`, XMP `mime`),
/// and drops top-level boxes (a Motion Photo's `mpvd`), then writes the file as a `ByteAssembly`.
///
/// New and changed item data goes into one new `mdat` at the end of the file (before a Motion Photo's final
/// `mpvd` box, which must stay last). `meta` is rebuilt from its
/// children: only `iinf` (new `infe`), `iref` (new `cdsc`) and `iloc` are re-encoded; every other child
/// keeps its bytes. When meta changes size (or a box is dropped), the boxes after it move, so every iloc
/// extent that is a file offset (construction method 0) is translated to its box's new position, widening
/// iloc fields when a value no longer fits. Extents in `idat` (method 1) are relative to idat and stay.
struct HEIFMetaEditor {
    let source: any ByteSource
    let limits: ParseLimits
    /// The file's meta as parsed (for reading item data and types).
    let meta: HEIFMeta

    private let topLevel: [TopLevelBox]
    private let metaBox: TopLevelBox
    private var metaTree: EditableBox
    private let originalLocations: HEIFItemLocationTable
    private var itemInfo: HEIFItemInfoBox
    private var itemReferences: HEIFItemReferenceBox?
    /// Item data to place in the new mdat, in order.
    private var newData: [(itemID: UInt32, bytes: [UInt8])] = []
    private var droppedTypes: Set<String> = []

    init(_ source: any ByteSource, limits: ParseLimits = .default) throws(MediaError) {
        self.source = source
        self.limits = limits
        topLevel = try TopLevelBox.list(source, limits: limits)
        guard let metaBox = topLevel.first(where: { $0.type == "meta" }) else { throw MediaError.invalid("HEIF file without a meta box") }
        guard topLevel.filter({ $0.type == "meta" }).count == 1 else { throw MediaError.unsupported("HEIF file with several top-level meta boxes") }
        self.metaBox = metaBox
        guard metaBox.range.length <= UInt64(limits.maxStructureBytes) else {
            throw MediaError.limitExceeded("meta box of \(metaBox.range.length) bytes (limit \(limits.maxStructureBytes))")
        }
        let metaBytes = try source.readExactly(at: metaBox.range.offset, count: Int(metaBox.range.length))
        metaTree = try EditableBox.parse(type: "meta", body: Array(metaBytes[metaBox.headerLength...]), depth: 1, limits: limits, context: "meta")
        guard metaTree.payload.count == 4, metaTree.child("hdlr") != nil else { throw MediaError.invalid("meta does not start with hdlr") }

        var problems: [ParseProblem] = []
        let structure = try ISOStructure.parse(ByteReader(metaBytes, baseOffset: metaBox.range.offset), limits: limits,
                                               context: "meta", problems: &problems)
        meta = HEIFMeta.parse(structure, limits: limits)

        guard let iloc = metaTree.child("iloc"), let iinf = metaTree.child("iinf") else { throw MediaError.invalid("meta has no iloc or no iinf") }
        originalLocations = try HEIFItemLocationTable(payload: iloc.payload, limits: limits)
        itemInfo = try HEIFItemInfoBox(payload: iinf.payload, limits: limits)
        itemReferences = try metaTree.child("iref").map { box throws(MediaError) in try HEIFItemReferenceBox(payload: box.payload, limits: limits) }
    }

    var primaryItemID: UInt32? { meta.primaryItemID }

    /// The metadata item of `type` describing the primary image (`cdsc`), else the first of that type.
    func metadataItem(where matches: (HEIFMeta.Item) -> Bool) -> UInt32? {
        let candidates = meta.items.filter(matches).map(\.id)
        let describingPrimary = primaryItemID.map { meta.items(referring: "cdsc", to: $0) } ?? []
        return candidates.first(where: describingPrimary.contains) ?? candidates.first
    }

    var exifItemID: UInt32? { metadataItem { $0.type == "Exif" } }
    var xmpItemID: UInt32? { metadataItem { $0.type == "mime" && $0.contentType == "application/rdf+xml" } }

    /// An item's bytes, whatever its extents (several, in idat).
    func data(of itemID: UInt32) throws(MediaError) -> [UInt8] {
        try meta.data(of: itemID, from: source, limits: limits).bytes
    }

    /// Gives an existing item new bytes (stored in the new mdat; the old ones stay, unreferenced).
    mutating func replaceData(of itemID: UInt32, with bytes: [UInt8]) throws(MediaError) {
        guard originalLocations.entries.contains(where: { $0.itemID == itemID }) else {
            throw MediaError.invalid("item \(itemID) has no iloc entry")
        }
        newData.removeAll { $0.itemID == itemID }
        newData.append((itemID, bytes))
    }

    /// Adds a hidden metadata item (`Exif`, or `mime` with `contentType`) holding `bytes`, described by a
    /// `cdsc` reference to `target` (usually the primary item). Returns its new id.
    @discardableResult
    mutating func addItem(type: String, contentType: String? = nil, bytes: [UInt8], describing target: UInt32?) throws(MediaError) -> UInt32 {
        let used = Set(itemInfo.itemIDs + originalLocations.entries.map(\.itemID) + newData.map(\.itemID))
        let largest = used.max() ?? 0
        // The next id keeps 16-bit fields when it can; a gap below 65536 is the next choice; 32 bits last.
        let id: UInt32
        if largest < 0xFFFF {
            id = largest + 1
        } else if let gap = (1...UInt32(0xFFFF)).first(where: { !used.contains($0) }) {
            id = gap
        } else if largest < UInt32.max {
            id = largest + 1
        } else {
            throw MediaError.limitExceeded("no free HEIF item id")
        }
        itemInfo.append(HEIFItemInfoBox.entry(itemID: id, type: type, contentType: contentType), itemID: id)
        if let target {
            var references = itemReferences ?? HEIFItemReferenceBox()
            references.references.append(HEIFMeta.Reference(type: "cdsc", from: id, to: [target]))
            itemReferences = references
        }
        newData.append((id, bytes))
        return id
    }

    /// Leaves every top-level box of `type` out of the output (e.g. `mpvd`). ftyp and meta cannot be dropped.
    mutating func dropTopLevelBoxes(_ type: String) throws(MediaError) {
        guard type != "meta", type != "ftyp" else { throw MediaError.invalid("the \(type) box cannot be dropped") }
        droppedTypes.insert(type)
    }
}

// MARK: writing

extension HEIFMetaEditor {
    /// The edited file: the kept top-level boxes (meta rebuilt), with a new `mdat` holding the new item data
    /// after the last box that is not an `mpvd`: a Motion Photo's movie stays last, where its XMP
    /// (Container:Directory, counted from the end of the file) says it is.
    func assembly() throws(MediaError) -> ByteAssembly {
        let kept = topLevel.filter { !droppedTypes.contains($0.type) }
        let insertion = kept.lastIndex { $0.type != "mpvd" }.map { $0 + 1 } ?? kept.count
        if !newData.isEmpty, insertion > 0, try source.readExactly(at: kept[insertion - 1].range.offset, count: 4) == [0, 0, 0, 0] {
            throw MediaError.unsupported("the HEIF file's last box extends to the end of the file (size 0); appending is not supported")
        }
        let newMdatData = newData.flatMap(\.bytes)
        var newMdat: [UInt8] = []
        if !newMdatData.isEmpty {
            guard let size = UInt32(exactly: 8 + newMdatData.count) else { throw MediaError.limitExceeded("new item data of \(newMdatData.count) bytes") }
            newMdat = BigEndian.u32(size) + Array("mdat".utf8) + newMdatData
        }
        var tree = metaTree
        try tree.modify("iinf") { $0.payload = itemInfo.encodedPayload() }
        if let itemReferences {
            if tree.child("iref") == nil {
                let at = (tree.children?.firstIndex { $0.type == "iinf" }).map { $0 + 1 } ?? (tree.children?.count ?? 0)
                tree.children?.insert(EditableBox("iref"), at: at)
            }
            try tree.modify("iref") { $0.payload = itemReferences.encodedPayload() }
        }

        // iloc's size depends on its values' widths, which depend on where boxes land: iterate until the
        // widths stop growing (they only grow, so this ends within a few rounds).
        var table = originalLocations
        for _ in 0..<6 {
            try tree.modify("iloc") { $0.payload = table.encodedPayload() }
            let metaBytes = tree.serialized()
            let layout = Layout(kept: kept, meta: metaBox, newMetaLength: UInt64(metaBytes.count),
                                insertion: insertion, insertedLength: UInt64(newMdat.count))
            var next = try relocated(table, layout: layout)
            try next.widenToFit()
            let settled = next.encodedPayload().count == table.encodedPayload().count
            table = next
            if settled {
                // Same iloc size, so the same meta size and layout: the offsets just computed hold.
                try tree.modify("iloc") { $0.payload = table.encodedPayload() }
                let finalMeta = tree.serialized()
                guard finalMeta.count == metaBytes.count else { continue }
                if layout.movesAnything, kept.contains(where: { $0.type == "moov" }) {
                    throw MediaError.unsupported("this HEIF file has a moov (image sequence) whose chunk offsets would move")
                }
                var assembly = ByteAssembly()
                for (index, box) in kept.enumerated() {
                    if index == insertion { assembly.append(newMdat) }
                    if box.range.offset == metaBox.range.offset { assembly.append(finalMeta) } else { assembly.append(range: box.range) }
                }
                if insertion == kept.count { assembly.append(newMdat) }
                return assembly
            }
        }
        throw MediaError.invalid("the iloc layout did not settle")
    }

    /// The original table with every file-offset extent moved to its box's new place and the new data's
    /// entries pointing into the new mdat; field widths start from `current`'s.
    private func relocated(_ current: HEIFItemLocationTable, layout: Layout) throws(MediaError) -> HEIFItemLocationTable {
        var table = current
        table.entries = []
        let replaced = Set(newData.map(\.itemID))
        for var entry in originalLocations.entries where !replaced.contains(entry.itemID) {
            if HEIFItemLocationTable.pointsIntoFile(entry) { try relocate(&entry, layout: layout) }
            table.entries.append(entry)
        }
        var position = layout.appendedDataOffset
        for (itemID, bytes) in newData {
            table.entries.append(.init(itemID: itemID, extents: [.init(offset: position, length: UInt64(bytes.count))]))
            position += UInt64(bytes.count)
        }
        return table
    }

    /// Moves one method-0 entry: its base offset when all extents move together, else each extent.
    private func relocate(_ entry: inout HEIFItemLocationTable.Entry, layout: Layout) throws(MediaError) {
        var starts: [UInt64] = [], moved: [UInt64] = []
        for (index, extent) in entry.extents.enumerated() {
            let (start, overflow) = entry.baseOffset.addingReportingOverflow(extent.offset)
            guard !overflow, start <= source.size else { throw MediaError.invalid("item \(entry.itemID): extent \(index) starts past the end of the file") }
            // Length 0 means "to the end of the file": made explicit, since a new mdat will follow.
            if extent.length == 0 { entry.extents[index].length = source.size - start }
            guard ByteRange(offset: start, length: entry.extents[index].length).fits(in: source.size) else {
                throw MediaError.invalid("item \(entry.itemID): extent \(index) runs past the end of the file")
            }
            starts.append(start)
            moved.append(try layout.newOffset(of: ByteRange(offset: start, length: entry.extents[index].length), item: entry.itemID))
        }
        let deltas = Set(zip(starts, moved).map { Int64(bitPattern: $1 &- $0) })
        guard let delta = deltas.first, delta != 0 || deltas.count > 1 else { return }
        // Every value here is at most the file size (checked above), so the signed arithmetic cannot overflow.
        if deltas.count == 1, entry.baseOffset > 0, let base = Int64(exactly: entry.baseOffset), base + delta >= 0 {
            entry.baseOffset = UInt64(base + delta)
        } else {
            entry.baseOffset = 0
            for index in entry.extents.indices { entry.extents[index].offset = moved[index] }
        }
    }

    /// Where the kept top-level boxes land in the output.
    struct Layout {
        /// (old range, new offset) per kept box other than meta.
        var boxes: [(old: ByteRange, new: UInt64)] = []
        var metaRange: ByteRange
        /// First byte of the new mdat's payload.
        var appendedDataOffset: UInt64
        var movesAnything: Bool { boxes.contains { $0.old.offset != $0.new } }

        /// `insertedLength` bytes (the new mdat) go before `kept[insertion]` (or at the end).
        init(kept: [TopLevelBox], meta: TopLevelBox, newMetaLength: UInt64, insertion: Int, insertedLength: UInt64) {
            metaRange = meta.range
            var offset: UInt64 = 0
            appendedDataOffset = 0
            for (index, box) in kept.enumerated() {
                if index == insertion {
                    appendedDataOffset = offset + 8
                    offset += insertedLength
                }
                if box.range.offset == meta.range.offset {
                    offset += newMetaLength
                } else {
                    boxes.append((box.range, offset))
                    offset += box.range.length
                }
            }
            if insertion >= kept.count { appendedDataOffset = offset + 8 }
        }

        func newOffset(of range: ByteRange, item: UInt32) throws(MediaError) -> UInt64 {
            if range.offset >= metaRange.offset && range.offset < metaRange.end {
                throw MediaError.unsupported("item \(item)'s data lies inside the meta box (not in idat)")
            }
            func containing(_ offset: UInt64) -> (old: ByteRange, new: UInt64)? {
                boxes.first { offset >= $0.old.offset && offset < $0.old.end }
            }
            // An extent may run over several boxes (two mdats) as long as they move together.
            guard let first = containing(range.offset),
                  let last = range.length == 0 ? first : containing(range.end - 1),
                  first.new &- first.old.offset == last.new &- last.old.offset else {
                throw MediaError.unsupported("item \(item)'s data \(range) does not lie in kept boxes that move together")
            }
            return first.new + (range.offset - first.old.offset)
        }
    }
}
