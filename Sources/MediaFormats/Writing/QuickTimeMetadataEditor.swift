/// The `mdta` metadata of a QuickTime `moov/meta`: keys and their values, edited and written back.
///
/// Values of keys this writer does not touch are kept as their raw `data` boxes, so nothing is lost.
struct QuickTimeMetadataEditor {
    /// Keys in order (1-based indexes in ilst refer to them), each with its namespace.
    var keys: [(namespace: [UInt8], name: [UInt8])] = []
    /// ilst items: key index and the item's raw children (data boxes...).
    var items: [(keyIndex: UInt32, body: [UInt8])] = []
    /// Boxes in meta other than hdlr/keys/ilst, kept in place.
    var otherBoxes: [EditableBox] = []
    var fullBoxPrefix: [UInt8] = []

    init(_ meta: EditableBox?) throws(MediaError) {
        guard let meta else { return }
        if let hdlr = meta.child("hdlr")?.payload, hdlr.count >= 12,
           String(decoding: hdlr[8..<12], as: UTF8.self) != "mdta" {
            throw MediaError.unsupported("moov/meta has a '\(String(decoding: hdlr[8..<12], as: UTF8.self))' handler, not mdta; refusing to replace it")
        }
        fullBoxPrefix = meta.payload
        otherBoxes = meta.children?.filter { !["hdlr", "keys", "ilst"].contains($0.type) } ?? []
        if let keysPayload = meta.child("keys")?.payload {
            var reader = ByteReader(keysPayload)
            try reader.skip(4)
            let count = try reader.readU32()
            guard count <= 4096 else { throw MediaError.limitExceeded("moov/meta/keys: \(count) keys") }
            for _ in 0..<count {
                let size = Int(try reader.readU32())
                guard size >= 8 else { throw MediaError.invalid("moov/meta/keys: key of size \(size)") }
                let namespace = try reader.readBytes(4)
                keys.append((namespace, try reader.readBytes(size - 8)))
            }
        }
        if let ilst = meta.child("ilst")?.payload {
            var reader = ByteReader(ilst)
            while reader.remaining >= 8 {
                let size = Int(try reader.readU32())
                let index = try reader.readU32()
                guard size >= 8 else { throw MediaError.invalid("moov/meta/ilst: item of size \(size)") }
                items.append((index, try reader.readBytes(size - 8)))
            }
        }
    }

    /// Sets `key` (namespace mdta) to a UTF-8 string value (data type 1).
    mutating func set(_ key: String, utf8 value: String) {
        let name = Array(key.utf8)
        let data = BigEndian.u32(UInt32(16 + value.utf8.count)) + Array("data".utf8) + BigEndian.u32(1) + BigEndian.u32(0) + Array(value.utf8)
        if let existing = keys.firstIndex(where: { $0.name == name }) {
            let index = UInt32(existing + 1)
            items.removeAll { $0.keyIndex == index }
            items.append((index, data))
        } else {
            keys.append((Array("mdta".utf8), name))
            items.append((UInt32(keys.count), data))
        }
    }

    /// Removes every key starting with `prefix` and its values (later keys renumbered); true when any was.
    mutating func removeKeys(withPrefix prefix: String) -> Bool {
        let wanted = Array(prefix.utf8)
        let removed = Set(keys.indices.filter { keys[$0].name.starts(with: wanted) }.map { UInt32($0 + 1) })
        guard !removed.isEmpty else { return false }
        var newIndex: [UInt32: UInt32] = [:]
        var kept: [(namespace: [UInt8], name: [UInt8])] = []
        for (offset, key) in keys.enumerated() where !removed.contains(UInt32(offset + 1)) {
            kept.append(key)
            newIndex[UInt32(offset + 1)] = UInt32(kept.count)
        }
        keys = kept
        items = items.compactMap { item in newIndex[item.keyIndex].map { ($0, item.body) } }
        return true
    }

    /// The first UTF-8 `data` value of `key`, if any.
    func stringValue(of key: String) -> String? {
        let name = Array(key.utf8)
        guard let position = keys.firstIndex(where: { $0.name == name }),
              let item = items.first(where: { $0.keyIndex == UInt32(position + 1) }), item.body.count >= 16,
              Array(item.body[4..<8]) == Array("data".utf8),
              let size = BigEndian.read(item.body, at: 0, width: 4).map(Int.init), size >= 16, size <= item.body.count
        else { return nil }
        return String(decoding: item.body[16..<size], as: UTF8.self)
    }

    func box() -> EditableBox {
        var keysPayload = BigEndian.u32(0) + BigEndian.u32(UInt32(keys.count))
        for key in keys { keysPayload += BigEndian.u32(UInt32(8 + key.name.count)) + key.namespace + key.name }
        var ilst: [UInt8] = []
        for item in items { ilst += BigEndian.u32(UInt32(8 + item.body.count)) + BigEndian.u32(item.keyIndex) + item.body }
        // The camera's hdlr: QuickTime style, handler type mdta, empty name.
        let hdlr = BigEndian.u32(0) + BigEndian.u32(0) + Array("mdta".utf8) + [UInt8](repeating: 0, count: 12) + [0, 0]
        return EditableBox("meta", payload: fullBoxPrefix, children: [
            EditableBox("hdlr", payload: hdlr), EditableBox("keys", payload: keysPayload), EditableBox("ilst", payload: ilst),
        ] + otherBoxes)
    }
}
