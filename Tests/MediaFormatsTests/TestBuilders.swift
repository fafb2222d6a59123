@testable import MediaFormats

/// Builds TIFF-style structures (a TIFF header or an Apple MakerNote prefix, then IFDs) for generated tests.
/// Offsets are relative to the first byte of `bytes`, as in a TIFF or an Apple MakerNote.
struct TIFFWriter {
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        /// Value bytes (already in the writer's byte order); more than 4 go after the IFD.
        var data: [UInt8]
        /// When set, written as the 4-byte value field verbatim (to forge bad offsets).
        var rawField: UInt32?
    }

    let order: ByteOrder
    var bytes: [UInt8]

    init(order: ByteOrder, prefix: [UInt8]? = nil) {
        self.order = order
        if let prefix {
            bytes = prefix
        } else {
            bytes = order == .bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
            bytes += Self.u32(8, order)  // IFD0 offset, patched by setIFD0
        }
    }

    static func u16(_ v: UInt16, _ order: ByteOrder) -> [UInt8] {
        order == .bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
    }
    static func u32(_ v: UInt32, _ order: ByteOrder) -> [UInt8] {
        let be = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
        return order == .bigEndian ? be : be.reversed()
    }
    static func u64(_ v: UInt64, _ order: ByteOrder) -> [UInt8] {
        let be = (0..<8).map { UInt8((v >> (56 - 8 * UInt64($0))) & 0xFF) }
        return order == .bigEndian ? be : be.reversed()
    }

    func short(_ tag: UInt16, _ v: UInt16) -> Entry { Entry(tag: tag, type: 3, count: 1, data: Self.u16(v, order)) }
    func long(_ tag: UInt16, _ v: UInt32) -> Entry { Entry(tag: tag, type: 4, count: 1, data: Self.u32(v, order)) }
    func long8(_ tag: UInt16, _ v: UInt64) -> Entry { Entry(tag: tag, type: 16, count: 1, data: Self.u64(v, order)) }
    func ascii(_ tag: UInt16, _ s: String) -> Entry {
        let d = Array(s.utf8) + [0]
        return Entry(tag: tag, type: 2, count: UInt32(d.count), data: d)
    }
    func undefined(_ tag: UInt16, _ d: [UInt8]) -> Entry { Entry(tag: tag, type: 7, count: UInt32(d.count), data: d) }

    /// Appends an IFD (then its out-of-line values) and returns its offset.
    @discardableResult
    mutating func appendIFD(_ entries: [Entry], next: UInt32 = 0, declaredCount: UInt16? = nil) -> UInt32 {
        let start = bytes.count
        var dataOffset = start + 2 + 12 * entries.count + 4
        var ifd = Self.u16(declaredCount ?? UInt16(entries.count), order)
        var data: [UInt8] = []
        for e in entries {
            ifd += Self.u16(e.tag, order) + Self.u16(e.type, order) + Self.u32(e.count, order)
            if let raw = e.rawField {
                ifd += Self.u32(raw, order)
            } else if e.data.count <= 4 {
                ifd += e.data + [UInt8](repeating: 0, count: 4 - e.data.count)
            } else {
                ifd += Self.u32(UInt32(dataOffset), order)
                data += e.data
                dataOffset += e.data.count
            }
        }
        ifd += Self.u32(next, order)
        bytes += ifd + data
        return UInt32(start)
    }

    mutating func setIFD0(_ offset: UInt32) {
        bytes.replaceSubrange(4..<8, with: Self.u32(offset, order))
    }
}

enum JPEGBuilder {
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// SOI, the given segments, a baseline SOF0 of `width`x`height`, SOS, a little scan data, EOI.
    static func jpeg(segments: [[UInt8]], width: UInt16 = 64, height: UInt16 = 48) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        for s in segments { bytes += s }
        bytes += segment(0xC0, [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0])
        bytes += segment(0xDA, [1, 1, 0, 0, 0x3F, 0])
        bytes += [0x12, 0x34, 0xFF, 0x00, 0x56, 0xFF, 0xD9]
        return bytes
    }

    static func exif(_ tiff: [UInt8]) -> [UInt8] { segment(0xE1, Array("Exif".utf8) + [0, 0] + tiff) }
    static func xmp(_ packet: String) -> [UInt8] { segment(0xE1, JPEGProbe.xmpSignature + Array(packet.utf8)) }

    /// A minimal MP4 start: an `ftyp` box and a small `mdat`.
    static let fakeMP4: [UInt8] = [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isommp41".utf8)
        + [0, 0, 0, 0x10] + Array("mdat".utf8) + [1, 2, 3, 4, 5, 6, 7, 8]

    static func motionPhotoXMP(length: Int, timestamp: Int = 250000) -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
          xmlns:Container="http://ns.google.com/photos/1.0/container/"
          xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
          GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1" GCamera:MotionPhotoPresentationTimestampUs="\(timestamp)">
        <Container:Directory><rdf:Seq>
          <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="0"/></rdf:li>
          <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="\(length)" Item:Padding="0"/></rdf:li>
        </rdf:Seq></Container:Directory>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        """
    }
}
