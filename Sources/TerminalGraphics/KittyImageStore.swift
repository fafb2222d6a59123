/// kitty's graphics protocol, transmit once and place many: which pictures the terminal holds for us, under
/// which image id. A picture transmitted before is shown again with `a=p` (a few dozen bytes) wherever it
/// moves; the terminal's memory stays bounded because the least recently placed pictures are freed (`d=I`)
/// past a count and a byte budget; the ones on screen are never freed.
///
/// A terminal may still drop our images (kitty evicts the oldest once a screen's images pass 320 MB, which
/// another program in the same window could cause), and with `q=2` no ENOENT reply tells us: as a hedge an
/// image is transmitted again after `retransmitAfterPlacements` placements, so a picture lost that way comes
/// back within that many redraws instead of never. Pure: the tty writer asks, then writes what it is told.
public struct KittyImageStore<Key: Hashable & Sendable>: Sendable {
    public struct Decision: Equatable, Sendable {
        public var id: UInt32
        /// Send the pixels (first placement, or the hedge's turn); else place the stored image by id.
        public var transmit: Bool
        /// Images to free in the terminal before this one (over the budget).
        public var free: [UInt32]
        public init(id: UInt32, transmit: Bool, free: [UInt32]) {
            self.id = id
            self.transmit = transmit
            self.free = free
        }
    }

    private struct Entry: Sendable {
        var id: UInt32
        var bytes: Int
        var placements: Int
        var lastUse: UInt64
    }

    /// Most pictures kept in the terminal (a few screens of a grid).
    public let countLimit: Int
    /// Pixel bytes (RGBA, as the terminal stores them) kept in the terminal: well under kitty's 320 MB quota.
    public let byteBudget: Int
    /// Placements after which an image is sent again (nil: never).
    public let retransmitAfterPlacements: Int?

    private var entries: [Key: Entry] = [:]
    private var storedBytes = 0
    private var clock: UInt64 = 0
    private var nextID: UInt32

    public init(countLimit: Int = 512, byteBudget: Int = 128 << 20, retransmitAfterPlacements: Int? = 64,
                firstID: UInt32 = 1) {
        self.countLimit = max(1, countLimit)
        self.byteBudget = max(1, byteBudget)
        self.retransmitAfterPlacements = retransmitAfterPlacements.map { max(1, $0) }
        nextID = max(1, firstID)
    }

    public var count: Int { entries.count }
    public var bytes: Int { storedBytes }

    /// The id of a stored picture.
    public func existing(_ key: Key) -> UInt32? { entries[key]?.id }

    /// What to send to show `key` (whose pixels take `pixelBytes` in the terminal) now; `onScreen` are the
    /// pictures staying visible, which are never freed to make room.
    public mutating func place(_ key: Key, pixelBytes: Int, onScreen: Set<Key>) -> Decision {
        clock += 1
        if var entry = entries[key] {
            entry.placements += 1
            entry.lastUse = clock
            var transmit = false
            if let every = retransmitAfterPlacements, entry.placements > every {
                entry.placements = 1
                transmit = true
            }
            entries[key] = entry
            return Decision(id: entry.id, transmit: transmit, free: [])
        }
        var freed: [UInt32] = []
        let size = max(0, pixelBytes)
        while entries.count >= countLimit || (storedBytes + size > byteBudget && !entries.isEmpty) {
            // The least recently placed picture that is not on screen.
            guard let victim = entries.filter({ !onScreen.contains($0.key) }).min(by: { $0.value.lastUse < $1.value.lastUse })
            else { break }
            storedBytes -= victim.value.bytes
            entries[victim.key] = nil
            freed.append(victim.value.id)
        }
        let id = nextID
        nextID = nextID >= 0xFFFF_FE00 ? 1 : nextID + 1   // ids above are the tty writer's (movie frames)
        entries[key] = Entry(id: id, bytes: size, placements: 1, lastUse: clock)
        storedBytes += size
        return Decision(id: id, transmit: true, free: freed)
    }

    /// The terminal lost every image (a reset): everything is transmitted again.
    public mutating func forgetAll() {
        entries.removeAll()
        storedBytes = 0
    }

    /// RGBA bytes of a picture sent as chafa's kitty payload (base64 of 32-bit pixels, plus escape framing).
    public static func pixelBytes(ofPayload count: Int) -> Int { count / 4 * 3 }
}
