import MediaFormats

/// One file of a library with what its bytes say.
public struct MediaFile: Sendable, Hashable, Codable {
    /// The path is kept in two parts: the folder prefix up to and including the last "/" (one shared object
    /// per folder, `FolderPrefix`) and the name after it (inline in the struct when it has at most 15 bytes,
    /// as camera names do). A full path was a heap string of its own per file, ~100 bytes at 100,000 files
    /// (issue 17 item 4). `prefix + name` is exactly the path given.
    public private(set) var folder: FolderPrefix
    public private(set) var name: String
    public var size: UInt64
    /// Seconds since 1970 (for cache validation).
    public var modificationTime: Double
    public var info: MediaInfo

    public var folderPrefix: String { folder.text }

    public init(path: String, size: UInt64, modificationTime: Double, info: MediaInfo) {
        (folder, name) = Self.split(path)
        self.size = size
        self.modificationTime = modificationTime
        self.info = info.compacted()
    }

    /// A file from its parts, as a folder listing has them: `folder` ends with "/" (one object per folder)
    /// and `name` holds no "/". No full path string is made (issue 17 item 4).
    public init(folder: FolderPrefix, name: String, size: UInt64, modificationTime: Double, info: MediaInfo) {
        self.folder = folder
        self.name = name
        self.size = size
        self.modificationTime = modificationTime
        // A library holds its files' facts for as long as it is open: in the compact form (issue 17 item 4).
        self.info = info.compacted()
    }

    /// Path as given to the scanner (relative to the scanned root when scanning a directory). Made on each
    /// read (one concatenation): code that needs it for every file of a library uses `folderPrefix`/`name`.
    public var path: String {
        get {
            if folderPrefix.isEmpty { return name }
            var path = ""   // sized once: `prefix + name` grew the prefix's buffer, ~2x the bytes
            path.reserveCapacity(folderPrefix.utf8.count + name.utf8.count)
            path += folderPrefix
            path += name
            return path
        }
        set { (folder, name) = Self.split(newValue) }
    }

    private static func split(_ path: String) -> (prefix: FolderPrefix, name: String) {
        let utf8 = path.utf8
        guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")) else { return (.none, path) }
        let cut = utf8.index(after: slash)
        return (FolderPrefix.shared(String(path[..<cut])), String(path[cut...]))
    }

    /// The last path component ("" never: a path ending in "/" keeps its last non-empty component).
    public var fileName: String {
        if !name.isEmpty { return name }
        let path = self.path
        let utf8 = path.utf8
        var end = utf8.endIndex
        while end > utf8.startIndex, utf8[utf8.index(before: end)] == UInt8(ascii: "/") { end = utf8.index(before: end) }
        guard end > utf8.startIndex else { return path }
        let start = utf8[..<end].lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
        return String(path[start..<end])
    }
    /// File name without its last extension ("IMG_1234.HEIC" -> "IMG_1234").
    public var baseName: String {
        let name = fileName
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    // The JSON shape stays the one of a stored `path`.
    private enum CodingKeys: String, CodingKey { case path, size, modificationTime, info }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(path: try container.decode(String.self, forKey: .path),
                  size: try container.decode(UInt64.self, forKey: .size),
                  modificationTime: try container.decode(Double.self, forKey: .modificationTime),
                  info: try container.decode(MediaInfo.self, forKey: .info))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(size, forKey: .size)
        try container.encode(modificationTime, forKey: .modificationTime)
        try container.encode(info, forKey: .info)
    }
}

/// What a library item is, the way a user thinks of it.
public enum ItemKind: String, Sendable, Codable, CaseIterable {
    /// A still and its movie, paired (Apple Live Photo).
    case live
    /// A still with its movie embedded (Google/Samsung Motion Photo).
    case motion
    case still
    case video

    /// Live and Motion Photos both wear the LIVE badge and play on press-and-hold.
    public var isLive: Bool { self == .live || self == .motion }
}

/// How sure the pairing is.
public enum PairingEvidence: String, Sendable, Codable {
    /// Both halves carry the same content identifier.
    case contentIdentifier
    /// Same folder and base name, one side without identifier: at most probable.
    case probableByName
    /// The movie is inside the still.
    case embedded
}

/// A library item: what the grid shows as one cell. A Live Photo is one item, never two.
public struct LibraryItem: Sendable, Hashable, Codable, Identifiable {
    /// Every field in one copy-on-write box: an item is 8 bytes inline and a copy is one retain. Inline (two
    /// files, about 130 bytes) a copy retained each file's strings and facts and the notes, five to seven
    /// objects scattered over the heap: arranging 60,000 items for the timeline was mostly those retains'
    /// cache misses, and so were the browser's other copies of its item arrays (issue 17 item 3).
    private var storage: Storage

    /// Written only while uniquely referenced (`isKnownUniquelyReferenced`), so never while another thread
    /// can see it.
    private final class Storage: @unchecked Sendable {
        var still: MediaFile?
        var movie: MediaFile?
        var notes: Notes?
        var kind: ItemKind
        var pairing: PairingEvidence?
        /// `CaptureDateKey(item:).sortKey`, made with the item (its files' facts are at hand, and warm, where
        /// items are made): the timeline read each item's still and its facts box, two cache misses per item
        /// on the UI thread (issue 17 item 3). Made again when a file changes.
        var dateSortKey: UInt64
        /// Which of the item's files holds its identifier, or `.notes`.
        var identifierOwner: IdentifierOwner
        init(still: MediaFile?, movie: MediaFile?, notes: Notes?, kind: ItemKind, pairing: PairingEvidence?,
             identifierOwner: IdentifierOwner) {
            self.still = still
            self.movie = movie
            self.notes = notes
            self.kind = kind
            self.pairing = pairing
            self.identifierOwner = identifierOwner
            dateSortKey = CaptureDateKey(info: Self.captureDateInfo(still: still, movie: movie)).sortKey
        }
        func copy() -> Storage {
            Storage(still: still, movie: movie, notes: notes, kind: kind, pairing: pairing, identifierOwner: identifierOwner)
        }
        var contentIdentifier: String? {
            switch identifierOwner {
            case .notes: return notes?.contentIdentifier
            case .still: return still?.info.contentIdentifier
            case .movie: return movie?.info.contentIdentifier
            }
        }
        /// Before the file holding the identifier changes: the identifier moves into the notes.
        func keepIdentifier(beforeChanging owner: IdentifierOwner) {
            guard identifierOwner == owner, owner != .notes else { return }
            notes = Notes.make(contentIdentifier, notes?.warnings ?? [], notes?.liveOffReason)
            identifierOwner = .notes
        }
        func filesChanged() {
            dateSortKey = CaptureDateKey(info: Self.captureDateInfo(still: still, movie: movie)).sortKey
        }
        static func captureDateInfo(still: MediaFile?, movie: MediaFile?) -> MediaInfo? {
            if let info = still?.info, info.hasCaptureDate { return info }
            return movie?.info
        }
    }

    /// A Live Photo's identifier is its still's (or its movie's), as the pairer found it: the item points at
    /// that file's instead of keeping a copy. The copy was a heap string and a notes box per Live Photo,
    /// ~140 bytes of each item of a library of pairs (issue 17 item 4).
    enum IdentifierOwner: UInt8 {
        case notes, still, movie

        static func of(_ identifier: String?, still: MediaFile?, movie: MediaFile?) -> IdentifierOwner {
            guard let identifier else { return .notes }
            if still?.info.contentIdentifierIs(identifier) == true { return .still }
            if movie?.info.contentIdentifierIs(identifier) == true { return .movie }
            return .notes
        }
    }

    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// The picture: the still of a live/motion/still item; nil for a video.
    public var still: MediaFile? {
        get { storage.still }
        set { setFile(newValue, at: \.still, owner: .still) }
    }
    /// The movie beside the still (live) or the video itself (video); nil for motion and still.
    public var movie: MediaFile? {
        get { storage.movie }
        set { setFile(newValue, at: \.movie, owner: .movie) }
    }

    private mutating func setFile(_ file: MediaFile?, at slot: ReferenceWritableKeyPath<Storage, MediaFile?>,
                                  owner: IdentifierOwner) {
        let storage = unique()
        storage.keepIdentifier(beforeChanging: owner)
        storage[keyPath: slot] = file
        storage.filesChanged()
    }
    /// Identifier, warnings and live-off reason in one shared box, nil when the item has none of them (most
    /// stills): 40 bytes became 8 in every copy of every item (issue 17 items 4 and 5). Never written: a
    /// change makes a new box.
    private var notes: Notes? {
        get { storage.notes }
        set { unique().notes = newValue }
    }
    public var kind: ItemKind {
        get { storage.kind }
        set { unique().kind = newValue }
    }
    public var pairing: PairingEvidence? {
        get { storage.pairing }
        set { unique().pairing = newValue }
    }

    private final class Notes: Sendable {
        let contentIdentifier: String?
        let warnings: [String]
        let liveOffReason: String?
        init(contentIdentifier: String?, warnings: [String], liveOffReason: String?) {
            self.contentIdentifier = contentIdentifier
            self.warnings = warnings
            self.liveOffReason = liveOffReason
        }
        static func make(_ contentIdentifier: String?, _ warnings: [String], _ liveOffReason: String?) -> Notes? {
            contentIdentifier == nil && warnings.isEmpty && liveOffReason == nil
                ? nil : Notes(contentIdentifier: contentIdentifier, warnings: warnings, liveOffReason: liveOffReason)
        }
    }

    /// Items paired together often carry equal notes (copies of one still each say "Live Photo movie missing
    /// (identifier …, also in a, b, c and 19997 more)"): equal notes share one box and its strings, where each
    /// item held a box, an array and a ~190-byte string (issue 17 item 4). Bounded like `SharedStrings`: a full
    /// table starts over, so all-different notes cost at most `limit` extra references.
    struct NotesSharing {
        static let limit = 4096
        private struct Key: Hashable {
            let contentIdentifier: String?
            let warnings: [String]
            let liveOffReason: String?
        }
        private var boxes: [Key: Notes] = [:]

        mutating func share(_ item: inout LibraryItem) {
            // Notes with an identifier alone (a Live Photo's, one identifier per pair) are hardly ever equal:
            // hashing each identifier to find no equal was a tenth of pairing 100,000 distinct files (issue 17
            // item 3). The repeated notes are the ones with warnings.
            guard let notes = item.notes, !notes.warnings.isEmpty || notes.liveOffReason != nil else { return }
            let key = Key(contentIdentifier: notes.contentIdentifier, warnings: notes.warnings, liveOffReason: notes.liveOffReason)
            if let known = boxes[key] {
                item.notes = known
                return
            }
            if boxes.count >= Self.limit { boxes.removeAll(keepingCapacity: true) }
            boxes[key] = notes
        }

        /// Whether two items hold the very same notes box (for tests).
        static func sameBox(_ a: LibraryItem, _ b: LibraryItem) -> Bool { a.notes != nil && a.notes === b.notes }
    }

    public var contentIdentifier: String? {
        get { storage.contentIdentifier }
        set {
            notes = Notes.make(newValue, warnings, liveOffReason)
            unique().identifierOwner = .notes
        }
    }
    /// Human-readable warnings about this item (missing half, conflicting identifiers, parse problems).
    public var warnings: [String] {
        get { notes?.warnings ?? [] }
        set { notes = Notes.make(notes?.contentIdentifier, newValue, liveOffReason) }
    }
    /// Set when the item is a Live Photo that must be shown as a traditional still (its movie is missing,
    /// or cannot play): the UI shows the badge's still variant and says why.
    public var liveOffReason: String? {
        get { notes?.liveOffReason }
        set { notes = Notes.make(notes?.contentIdentifier, warnings, newValue) }
    }

    public init(kind: ItemKind, still: MediaFile? = nil, movie: MediaFile? = nil,
                contentIdentifier: String? = nil, pairing: PairingEvidence? = nil, warnings: [String] = [],
                liveOffReason: String? = nil) {
        let owner = IdentifierOwner.of(contentIdentifier, still: still, movie: movie)
        storage = Storage(still: still, movie: movie,
                          notes: Notes.make(owner == .notes ? contentIdentifier : nil, warnings, liveOffReason),
                          kind: kind, pairing: pairing, identifierOwner: owner)
    }

    public static func == (a: LibraryItem, b: LibraryItem) -> Bool {
        if a.storage === b.storage { return true }
        return a.kind == b.kind && a.still == b.still && a.movie == b.movie && a.pairing == b.pairing
            && ((a.notes === b.notes && a.storage.identifierOwner == b.storage.identifierOwner)
                || (a.contentIdentifier == b.contentIdentifier && a.warnings == b.warnings
                    && a.liveOffReason == b.liveOffReason))
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(still)
        hasher.combine(movie)
        hasher.combine(contentIdentifier)
        hasher.combine(pairing)
        hasher.combine(warnings)
        hasher.combine(liveOffReason)
    }

    // The JSON shape of the stored fields it had before the notes box.
    private enum CodingKeys: String, CodingKey {
        case kind, still, movie, contentIdentifier, pairing, warnings, liveOffReason
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(kind: try c.decode(ItemKind.self, forKey: .kind),
                  still: try c.decodeIfPresent(MediaFile.self, forKey: .still),
                  movie: try c.decodeIfPresent(MediaFile.self, forKey: .movie),
                  contentIdentifier: try c.decodeIfPresent(String.self, forKey: .contentIdentifier),
                  pairing: try c.decodeIfPresent(PairingEvidence.self, forKey: .pairing),
                  warnings: try c.decode([String].self, forKey: .warnings),
                  liveOffReason: try c.decodeIfPresent(String.self, forKey: .liveOffReason))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encodeIfPresent(still, forKey: .still)
        try c.encodeIfPresent(movie, forKey: .movie)
        try c.encodeIfPresent(contentIdentifier, forKey: .contentIdentifier)
        try c.encodeIfPresent(pairing, forKey: .pairing)
        try c.encode(warnings, forKey: .warnings)
        try c.encodeIfPresent(liveOffReason, forKey: .liveOffReason)
    }

    /// The file the item is known by: its still, or its movie when there is no still.
    public var primary: MediaFile {
        if let still { return still }
        if let movie { return movie }
        preconditionFailure("a LibraryItem always has a still or a movie")
    }
    public var id: ItemID { ItemID(primary.path) }

    /// The facts the item is dated by: the still's when it has a capture date, else the movie's (nil without a
    /// movie). Read in place: `item.still` copied the file (three retains, each a cache miss) for every item
    /// the timeline dated (issue 17 item 3).
    public var captureDateInfo: MediaInfo? {
        if let info = storage.still?.info, info.hasCaptureDate { return info }
        return storage.movie?.info
    }

    /// `CaptureDateKey(item: self).sortKey`, kept with the item: the timeline reads it without reaching the
    /// files' facts.
    public var captureDateSortKey: UInt64 { storage.dateSortKey }

    /// The size of all its files (`files`' sizes added), without making the array of files.
    public var totalSize: UInt64 { (storage.still?.size ?? 0) + (storage.movie?.size ?? 0) }

    /// `primary.folderPrefix`, without copying the file.
    public var primaryFolderPrefix: String { storage.still?.folderPrefix ?? storage.movie?.folderPrefix ?? "" }

    /// `id` cut where `MediaFile` cuts a path (after its last "/"), for `hasID`.
    public static func idParts(_ id: ItemID) -> (folderPrefix: String, name: String) { idParts(id.rawValue) }
    public static func idParts(_ id: String) -> (folderPrefix: String, name: String) {
        let utf8 = id.utf8
        guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")) else { return ("", id) }
        let cut = utf8.index(after: slash)
        return (String(id[..<cut]), String(id[cut...]))
    }

    /// Whether `id == parts` joined, without making this item's path: finding the selected item again among
    /// 60,000 made a path string for every item before it (issue 17 item 3). A path's prefix ends with its
    /// last "/" and its name holds none, so equal paths have equal parts.
    public func hasID(_ parts: (folderPrefix: String, name: String)) -> Bool {
        if let still = storage.still { return still.name == parts.name && still.folderPrefix == parts.folderPrefix }
        if let movie = storage.movie { return movie.name == parts.name && movie.folderPrefix == parts.folderPrefix }
        return false
    }
    public var displayName: String { primary.fileName }
    /// Every file that makes up the item (still first): what move/copy/delete/export act on together.
    public var files: [MediaFile] { [still, movie].compactMap { $0 } }

    /// Where the movie to play lives: the movie file, or the byte range inside the still.
    public var playableMovie: (path: String, range: ByteRange?)? {
        if let movie { return (movie.path, nil) }
        if let still, let embedded = still.info.embeddedMovie { return (still.path, embedded.range) }
        return nil
    }
}
