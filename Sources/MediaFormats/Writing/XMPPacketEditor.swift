/// Small, text-level edits of an XMP packet: removing the Motion Photo properties and adding a Motion Photo
/// description. Everything else in the packet is kept byte for byte (no XML re-serialisation).
enum XMPPacketEditor {
    /// Properties that make a JPEG claim an embedded movie (Google Motion Photo 1.0 and legacy MicroVideo).
    static let motionProperties = ["MotionPhoto", "MotionPhotoVersion", "MotionPhotoPresentationTimestampUs",
                                   "MicroVideo", "MicroVideoVersion", "MicroVideoOffset", "MicroVideoPresentationTimestampUs"]
    /// Prefixes the Google namespaces are written with in practice.
    static let motionPrefixes = ["Camera", "GCamera", "Container"]

    /// The packet without Motion Photo attributes/elements and without `Container:Directory`.
    static func removingMotionPhoto(_ packet: [UInt8]) -> [UInt8] {
        var out = packet
        for prefix in motionPrefixes {
            for name in motionProperties + ["Directory"] {
                let qualified = Array("\(prefix):\(name)".utf8)
                while let next = removeAttribute(qualified, from: out) { out = next }
                while let next = removeElement(qualified, from: out) { out = next }
            }
        }
        return out
    }

    /// A packet that declares a Google Motion Photo whose movie (`movieMime`, `movieLength` bytes) follows the
    /// primary image. Existing Motion Photo properties are removed first; a new packet is made when `packet`
    /// is nil or has no `</rdf:RDF>`. `primaryPadding` is what lies between the primary image and the movie
    /// (a HEIC's `mpvd` box header).
    static func addingMotionPhoto(_ packet: [UInt8]?, movieMime: String, movieLength: UInt64, presentationTimestampUs: Int64,
                                  primaryMime: String = "image/jpeg", primaryPadding: UInt64 = 0) -> [UInt8] {
        let description = """
        <rdf:Description rdf:about="" xmlns:Camera="http://ns.google.com/photos/1.0/camera/" \
        xmlns:Container="http://ns.google.com/photos/1.0/container/" \
        xmlns:Item="http://ns.google.com/photos/1.0/container/item/" \
        Camera:MotionPhoto="1" Camera:MotionPhotoVersion="1" Camera:MotionPhotoPresentationTimestampUs="\(presentationTimestampUs)">
         <Container:Directory>
          <rdf:Seq>
           <rdf:li rdf:parseType="Resource">
            <Container:Item Item:Mime="\(primaryMime)" Item:Semantic="Primary" Item:Length="0" Item:Padding="\(primaryPadding)"/>
           </rdf:li>
           <rdf:li rdf:parseType="Resource">
            <Container:Item Item:Mime="\(movieMime)" Item:Semantic="MotionPhoto" Item:Length="\(movieLength)" Item:Padding="0"/>
           </rdf:li>
          </rdf:Seq>
         </Container:Directory>
        </rdf:Description>

        """
        let closing = Array("</rdf:RDF>".utf8)
        if let packet, let at = packet.firstIndex(of: closing) {
            var stripped = removingMotionPhoto(packet)
            let insertAt = stripped.firstIndex(of: closing) ?? at
            stripped.insert(contentsOf: Array(description.utf8), at: insertAt)
            return stripped
        }
        let wrapped = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
        <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        \(description)</rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """
        return Array(wrapped.utf8)
    }

    /// The packet without any `exif:GPS*` property (attribute or element): latitude, longitude, altitude,
    /// timestamps, directions. Other properties are kept byte for byte.
    static func removingLocation(_ packet: [UInt8]) -> [UInt8] {
        let needle = Array("exif:GPS".utf8)
        var out = packet
        var from = 0
        while let at = out.firstIndex(of: needle, from: from) {
            var end = at + needle.count
            while end < out.count && isNameByte(out[end]) { end += 1 }
            let name = Array(out[at..<end])
            if let next = removeAttribute(name, from: out) ?? removeElement(name, from: out) {
                out = next
                from = 0
            } else {
                from = at + 1
            }
        }
        return out
    }

    // MARK: text helpers

    static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D || b == 0x2E
    }
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// Removes one ` qualified="..."` attribute (with its leading whitespace), or nil when there is none.
    static func removeAttribute(_ qualified: [UInt8], from bytes: [UInt8]) -> [UInt8]? {
        var from = 0
        while let at = bytes.firstIndex(of: qualified, from: from) {
            from = at + 1
            guard at > 0, isSpace(bytes[at - 1]) else { continue }
            var i = at + qualified.count
            while i < bytes.count && isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { continue }
            i += 1
            while i < bytes.count && isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else { continue }
            let quote = bytes[i]
            guard let close = bytes[(i + 1)...].firstIndex(of: quote) else { return nil }
            return cutting(bytes, from: at, through: close)
        }
        return nil
    }

    /// Removes one `<qualified ...>...</qualified>` (or self-closing) element, or nil when there is none.
    static func removeElement(_ qualified: [UInt8], from bytes: [UInt8]) -> [UInt8]? {
        let open = [UInt8(ascii: "<")] + qualified
        var from = 0
        while let at = bytes.firstIndex(of: open, from: from) {
            from = at + 1
            let after = at + open.count
            guard after < bytes.count, !isNameByte(bytes[after]), bytes[after] != UInt8(ascii: ":") else { continue }
            guard let tagEnd = bytes[after...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            var end = tagEnd
            if bytes[tagEnd - 1] != UInt8(ascii: "/") {
                let close = Array("</".utf8) + qualified + [UInt8(ascii: ">")]
                guard let closeAt = bytes.firstIndex(of: close, from: tagEnd) else { return nil }
                end = closeAt + close.count - 1
            }
            return cutting(bytes, from: at, through: end)
        }
        return nil
    }

    /// `bytes` without `start...end` and the whitespace just before it.
    static func cutting(_ bytes: [UInt8], from start: Int, through end: Int) -> [UInt8] {
        var first = start
        while first > 0 && isSpace(bytes[first - 1]) { first -= 1 }
        var out = bytes
        out.removeSubrange(first...end)
        return out
    }
}
