/// Extended XMP (XMP Specification Part 3, 1.1.3.1): a packet too large for one APP1 is split into chunks
/// `http://ns.adobe.com/xmp/extension/\0`, 32-byte GUID, 4-byte full length, 4-byte offset, data.
struct JPEGExtendedXMP {
    static let signature: [UInt8] = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]
    /// Different GUIDs kept at most (a file has one; more is junk).
    static let maxPackets = 8

    struct Chunk {
        var offset: UInt32
        var data: [UInt8]
    }
    struct Packet {
        var fullLength: UInt32
        var chunks: [Chunk] = []
    }

    private(set) var packets: [(guid: String, packet: Packet)] = []
    private var storedBytes = 0

    /// Adds one chunk (the APP1 payload after the signature).
    mutating func add(_ body: [UInt8], limits: ParseLimits, problems: inout [ParseProblem]) {
        var reader = ByteReader(body)
        // try?: a short chunk header is reported below as a warning.
        guard let guidBytes = try? reader.readBytes(32), let fullLength = try? reader.readU32(),
              let offset = try? reader.readU32() else {
            problems.append(ParseProblem(.warning, "jpeg/APP1(extended XMP)", "chunk header truncated"))
            return
        }
        let guid = String(decoding: guidBytes, as: UTF8.self)
        let data = Array(body.dropFirst(40))
        guard Int(fullLength) <= limits.maxStructureBytes, UInt64(offset) + UInt64(data.count) <= UInt64(fullLength),
              storedBytes + data.count <= limits.maxStructureBytes else {
            problems.append(ParseProblem(.warning, "jpeg/APP1(extended XMP)",
                "chunk at \(offset)+\(data.count) of \(fullLength) bytes is out of bounds: ignored"))
            return
        }
        let index: Int
        if let existing = packets.firstIndex(where: { $0.guid == guid }) {
            index = existing
        } else {
            guard packets.count < Self.maxPackets else { return }
            packets.append((guid, Packet(fullLength: fullLength)))
            index = packets.count - 1
        }
        guard packets[index].packet.fullLength == fullLength else {
            problems.append(ParseProblem(.warning, "jpeg/APP1(extended XMP)", "chunks of \(guid) disagree on the full length"))
            return
        }
        storedBytes += data.count
        packets[index].packet.chunks.append(Chunk(offset: offset, data: data))
    }

    /// The reassembled packet for `guid` (or the first one seen), or nil with a problem when chunks are missing.
    func assemble(guid: String?, problems: inout [ParseProblem]) -> [UInt8]? {
        guard let entry = guid.flatMap({ g in packets.first { $0.guid == g } }) ?? packets.first else {
            if let guid {
                problems.append(ParseProblem(.warning, "jpeg/APP1(extended XMP)", "HasExtendedXMP \(guid) but no such chunks"))
            }
            return nil
        }
        let packet = entry.packet
        // Coverage check before allocating the full length, so a lying header cannot make us allocate.
        var covered: UInt64 = 0
        for chunk in packet.chunks.sorted(by: { $0.offset < $1.offset }) {
            guard UInt64(chunk.offset) <= covered else { break }
            covered = max(covered, UInt64(chunk.offset) + UInt64(chunk.data.count))
        }
        guard covered >= UInt64(packet.fullLength) else {
            problems.append(ParseProblem(.warning, "jpeg/APP1(extended XMP)",
                "extended XMP \(entry.guid) incomplete: \(covered) of \(packet.fullLength) bytes"))
            return nil
        }
        var bytes = [UInt8](repeating: 0, count: Int(packet.fullLength))
        for chunk in packet.chunks {
            bytes.replaceSubrange(Int(chunk.offset)..<Int(chunk.offset) + chunk.data.count, with: chunk.data)
        }
        return bytes
    }
}

extension XMPSummary {
    /// Fills what this packet lacks from the extended packet (the main packet wins where both speak).
    mutating func merge(extended other: XMPSummary) {
        motionPhoto = motionPhoto || other.motionPhoto
        motionPhotoVersion = motionPhotoVersion ?? other.motionPhotoVersion
        presentationTimestampUs = presentationTimestampUs ?? other.presentationTimestampUs
        if directory.isEmpty { directory = other.directory }
        microVideo = microVideo || other.microVideo
        microVideoOffset = microVideoOffset ?? other.microVideoOffset
        microVideoPresentationTimestampUs = microVideoPresentationTimestampUs ?? other.microVideoPresentationTimestampUs
        contentIdentifier = contentIdentifier ?? other.contentIdentifier
        orientation = orientation ?? other.orientation
        rating = rating ?? other.rating
        gpsLatitude = gpsLatitude ?? other.gpsLatitude
        gpsLongitude = gpsLongitude ?? other.gpsLongitude
        problems += other.problems
    }
}
