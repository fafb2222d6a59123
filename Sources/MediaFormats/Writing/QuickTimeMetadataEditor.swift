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
