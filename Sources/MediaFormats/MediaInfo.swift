import Concurrent

/// What a file is, as far as its container says; the pure core's only output type.
public enum ContainerFormat: String, Sendable, Codable, CaseIterable {
    case jpeg, heif, quickTime, mp4, png, gif, webp, tiff, bmp, unknown

    public var isStillImage: Bool {
        switch self {
        case .jpeg, .heif, .png, .gif, .webp, .tiff, .bmp: return true
        case .quickTime, .mp4, .unknown: return false
        }
    }
    public var isMovie: Bool { self == .quickTime || self == .mp4 }
}

/// How a movie is carried inside a still (a Motion Photo).
public enum EmbeddedMovieKind: String, Sendable, Codable {
    /// Google Motion Photo 1.0: XMP `Camera:MotionPhoto` + `Container:Directory`.
    case googleMotionPhoto
    /// Legacy Google `GCamera:MicroVideo` with `MicroVideoOffset` counted from the end.
    case microVideo
    /// Samsung SEF trailer entry `MotionPhoto_Data`.
    case samsungTrailer
    /// Top-level `mpvd` box of a (Samsung/Google) HEIC.
    case heifMpvd
}

public struct EmbeddedMovie: Sendable, Hashable, Codable {
    public var kind: EmbeddedMovieKind
    /// Where the MP4 lies in the still file; already checked to start with an `ftyp` box.
    public var range: ByteRange
    /// `MotionPhotoPresentationTimestampUs` / `MicroVideoPresentationTimestampUs`, when given (-1 = none).
    public var presentationTimestampUs: Int64?
    public init(kind: EmbeddedMovieKind, range: ByteRange, presentationTimestampUs: Int64? = nil) {
        self.kind = kind
        self.range = range
        self.presentationTimestampUs = presentationTimestampUs
    }
}

/// An unsigned Exif RATIONAL (numerator / denominator), kept exact.
public struct ExifRational: Sendable, Hashable, Codable {
    public var numerator: UInt32
    public var denominator: UInt32
    public init(_ numerator: UInt32, _ denominator: UInt32) {
        self.numerator = numerator
        self.denominator = denominator
    }
    /// nil for 0/0-style values cameras write for "unknown".
    public var value: Double? { denominator == 0 ? nil : Double(numerator) / Double(denominator) }
}

/// Metadata of one file, read from its bytes; missing values are nil, never guessed.
public struct MediaInfo: Sendable, Hashable, Codable {
    /// Every field lives in one copy-on-write box: a MediaInfo is 8 bytes inline instead of about 540, so a
    /// library item (two files) copies with two retains where it moved a kilobyte (the pairer's sort and the
    /// browser's item arrays copied them all the time), and 100,000 items hold one copy of each file's facts.
    /// `Fields` is the former stored layout: its synthesized Codable keeps the JSON shape unchanged.
    struct Fields: Sendable, Hashable, Codable {
        var format: ContainerFormat
        var pixelWidth: Int? = nil
        var pixelHeight: Int? = nil
        var orientation: Int? = nil
        var rotation: Int? = nil
        var mirrored: Bool? = nil
        var contentIdentifier: String? = nil
        var contentIdentifierSource: String? = nil
        var livePhotoVideoIndex: UInt64? = nil
        var cameraMake: String? = nil
        var cameraModel: String? = nil
        var captureDate: String? = nil
        var captureTimeZone: String? = nil
        var hasGPS: Bool = false
        var lensMake: String? = nil
        var lensModel: String? = nil
        var exposureTime: ExifRational? = nil
        var fNumber: ExifRational? = nil
        var iso: Int? = nil
        var focalLength: ExifRational? = nil
        var focalLengthIn35mm: Int? = nil
        var duration: Double? = nil
        var videoCodec: String? = nil
        var audioCodec: String? = nil
        var frameCount: Int? = nil
        var frameRate: Double? = nil
        var stillImageTime: Double? = nil
        var vitalityScore: Double? = nil
        var exifThumbnail: ByteRange? = nil
        var thumbnailWidth: Int? = nil
        var thumbnailHeight: Int? = nil
        var embeddedMovie: EmbeddedMovie? = nil
        var hasXMP: Bool = false
        var problems: [ParseProblem] = []
    }

    /// The box's layout: `Fields` reordered so that nothing is padded, optional numbers in 8 bytes (a sentinel
    /// instead of a tag byte that padding rounds up to 8 more), flags last: 100,000 files hold one each (issue 17
    /// item 4). `Fields` stays the Codable form, so the JSON and the index records do not change.
    struct Packed: Sendable, Hashable {
        var pixelWidth: PackedInt
        var pixelHeight: PackedInt
        var orientation: PackedInt
        var rotation: PackedInt
        var iso: PackedInt
        var focalLengthIn35mm: PackedInt
        var frameCount: PackedInt
        var thumbnailWidth: PackedInt
        var thumbnailHeight: PackedInt
        var duration: PackedDouble
        var frameRate: PackedDouble
        var stillImageTime: PackedDouble
        var vitalityScore: PackedDouble
        var contentIdentifier: String?
        var problems: [ParseProblem]
        /// The names files repeat, in one box shared by every file with the same ones (`SharedNames`).
        var names: SharedNames
        var embeddedMovie: EmbeddedMovie?
        var livePhotoVideoIndex: UInt64?
        var exifThumbnail: ByteRange?
        var exposureTime: ExifRational?
        var fNumber: ExifRational?
        var focalLength: ExifRational?
        /// Here, beside the one-byte fields: its tag byte fills what was padding.
        var captureDate: PackedDate
        var format: ContainerFormat
        var mirrored: Bool?
        var hasGPS: Bool
        var hasXMP: Bool

        /// Names that repeat across files (camera, lens, codecs, the identifier's source, the zone) live in one
        /// shared box per distinct set: they were 128 bytes of the box and a heap string per long lens name.
        init(_ f: Fields) {
            self.init(f, names: SharedNames.shared(SharedNames.Values(
                contentIdentifierSource: f.contentIdentifierSource, cameraMake: f.cameraMake, cameraModel: f.cameraModel,
                captureTimeZone: f.captureTimeZone, lensMake: f.lensMake, lensModel: f.lensModel,
                videoCodec: f.videoCodec, audioCodec: f.audioCodec)))
        }

        /// `f` with its names already in a shared box (`f`'s own names are not read).
        init(_ f: Fields, names: SharedNames) {
            pixelWidth = PackedInt(f.pixelWidth)
            pixelHeight = PackedInt(f.pixelHeight)
            orientation = PackedInt(f.orientation)
            rotation = PackedInt(f.rotation)
            iso = PackedInt(f.iso)
            focalLengthIn35mm = PackedInt(f.focalLengthIn35mm)
            frameCount = PackedInt(f.frameCount)
            thumbnailWidth = PackedInt(f.thumbnailWidth)
            thumbnailHeight = PackedInt(f.thumbnailHeight)
            duration = PackedDouble(f.duration)
            frameRate = PackedDouble(f.frameRate)
            stillImageTime = PackedDouble(f.stillImageTime)
            vitalityScore = PackedDouble(f.vitalityScore)
            contentIdentifier = f.contentIdentifier
            captureDate = PackedDate(f.captureDate)
            problems = f.problems
            self.names = names
            embeddedMovie = f.embeddedMovie
            livePhotoVideoIndex = f.livePhotoVideoIndex
            exifThumbnail = f.exifThumbnail
            exposureTime = f.exposureTime
            fNumber = f.fNumber
            focalLength = f.focalLength
            format = f.format
            mirrored = f.mirrored
            hasGPS = f.hasGPS
            hasXMP = f.hasXMP
        }

        var fields: Fields {
            var f = Fields(format: format)
            f.pixelWidth = pixelWidth.value
            f.pixelHeight = pixelHeight.value
            f.orientation = orientation.value
            f.rotation = rotation.value
            f.iso = iso.value
            f.focalLengthIn35mm = focalLengthIn35mm.value
            f.frameCount = frameCount.value
            f.thumbnailWidth = thumbnailWidth.value
            f.thumbnailHeight = thumbnailHeight.value
            f.duration = duration.value
            f.frameRate = frameRate.value
            f.stillImageTime = stillImageTime.value
            f.vitalityScore = vitalityScore.value
            f.contentIdentifier = contentIdentifier
            f.contentIdentifierSource = names.values.contentIdentifierSource
            f.cameraMake = names.values.cameraMake
            f.cameraModel = names.values.cameraModel
            f.captureDate = captureDate.value
            f.captureTimeZone = names.values.captureTimeZone
            f.lensMake = names.values.lensMake
            f.lensModel = names.values.lensModel
            f.videoCodec = names.values.videoCodec
            f.audioCodec = names.values.audioCodec
            f.problems = problems
            f.embeddedMovie = embeddedMovie
            f.livePhotoVideoIndex = livePhotoVideoIndex
            f.exifThumbnail = exifThumbnail
            f.exposureTime = exposureTime
            f.fNumber = fNumber
            f.focalLength = focalLength
            f.mirrored = mirrored
            f.hasGPS = hasGPS
            f.hasXMP = hasXMP
            return f
        }
    }

    /// An `Int?` in 8 bytes: `Int.min` is nil (parsers read at most 32-bit fields and durations in whole units;
    /// none yields Int.min).
    struct PackedInt: Sendable, Hashable {
        private var raw: Int
        init(_ value: Int?) { raw = value ?? .min }
        var value: Int? { raw == .min ? nil : raw }
    }

    /// A `Double?` in 8 bytes: one NaN bit pattern no arithmetic produces is nil; compared by bits, so a stored
    /// NaN equals itself.
    struct PackedDouble: Sendable, Hashable {
        private static let none: UInt64 = 0x7FF8_DEAD_BEEF_0001
        private var bits: UInt64
        init(_ value: Double?) { bits = value.map(\.bitPattern) ?? Self.none }
        var value: Double? { bits == Self.none ? nil : Double(bitPattern: bits) }
    }


    /// A capture date as Exif writes it ("2023:07:14 10:22:33": 19 bytes, a 64-byte heap string per photo) kept
    /// as its 14 digits in one word, 4 bits each; any other text (QuickTime's ISO 8601, a damaged date) is kept
    /// as it is. The Exif shape fixes every other character, so the text read back is exactly the one stored.
    struct PackedDate: Sendable, Hashable {
        private enum Storage: Sendable, Hashable {
            case none
            case exifDigits(UInt64)
            case text(String)
        }
        private let storage: Storage
        /// Where the separators of "YYYY:MM:DD HH:MM:SS" are; every other position is a digit.
        /// A switch, not a dictionary: this runs for every item when a timeline opens (a dictionary look-up per
        /// character was half of arranging 100,000 items).
        @inline(__always)
        private static func separator(at position: Int) -> UInt8? {
            switch position {
            case 4, 7, 13, 16: return UInt8(ascii: ":")
            case 10: return UInt8(ascii: " ")
            default: return nil
            }
        }

        init(_ text: String?) {
            guard let text else { storage = .none; return }
            var digits: UInt64 = 0
            var position = 0
            for byte in text.utf8 {
                guard position < 19 else { storage = .text(text); return }
                if let separator = Self.separator(at: position) {
                    guard byte == separator else { storage = .text(text); return }
                } else {
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { storage = .text(text); return }
                    digits = digits << 4 | UInt64(byte - UInt8(ascii: "0"))
                }
                position += 1
            }
            storage = position == 19 ? .exifDigits(digits) : .text(text)
        }

        var isPresent: Bool {
            if case .none = storage { return false }
            return true
        }

        /// An Exif date's 14 digits as one decimal number (`CompactText`'s form of it), without making its text.
        var exifDecimalDigits: UInt64? {
            guard case .exifDigits(let digits) = storage else { return nil }
            var value: UInt64 = 0
            for k in 0..<14 { value = value * 10 + (digits >> UInt64(4 * (13 - k))) & 0xF }
            return value
        }

        /// The six numbers of an Exif date kept as digits; nil for no date or a date kept as other text.
        var exifFields: ExifDateFields? {
            guard case .exifDigits(let digits) = storage else { return nil }
            func number(_ from: Int, _ count: Int) -> Int {
                // Digits are 4-bit nibbles, the first digit highest: digit k of 14 sits at shift 4 * (13 - k).
                var value = 0
                for k in from..<(from + count) { value = value * 10 + Int((digits >> UInt64(4 * (13 - k))) & 0xF) }
                return value
            }
            return ExifDateFields(year: number(0, 4), month: number(4, 2), day: number(6, 2), hour: number(8, 2),
                                  minute: number(10, 2), second: number(12, 2))
        }

        var value: String? {
            switch storage {
            case .none: return nil
            case .text(let text): return text
            case .exifDigits(let digits):
                var bytes = [UInt8](repeating: 0, count: 19)
                var remaining = digits
                for position in (0..<19).reversed() {
                    if let separator = Self.separator(at: position) {
                        bytes[position] = separator
                    } else {
                        bytes[position] = UInt8(ascii: "0") + UInt8(remaining & 0xF)
                        remaining >>= 4
                    }
                }
                return String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    /// Shared between copies; written only through `unique()`, which copies it first unless this value is
    /// its only owner, so a box another value or thread can see is never written.
    // unchecked: copy-on-write storage (not a C boundary): a shared box is never written, see `unique()`.
    final class Box: @unchecked Sendable {
        var packed: Packed
        init(_ packed: Packed) { self.packed = packed }
    }

    /// The full box while a parser fills it in, the compact one once a library keeps it (`compacted()`).
    // unchecked: ManagedBuffer (CompactBox's base) is marked non-Sendable; a CompactBox is never written after
    // `CompactBox.make` returns, and a full Box is written only when uniquely referenced (`unique()`).
    enum Storage: @unchecked Sendable {
        case full(Box)
        case compact(CompactBox)
    }

    private(set) var storage: Storage

    /// Holds `storage`'s place while `unique()` checks the full box's references.
    private static let placeholder = Storage.compact(CompactBox.make(Packed(Fields(format: .unknown))))

    /// The full box, made this value's own: a compact one is unpacked first (changes are rare once a library
    /// keeps a file; parsers write into the full box).
    private mutating func unique() -> Box {
        switch storage {
        case .full(var box):
            storage = Self.placeholder   // so that `box` holds the only reference this value has
            if !isKnownUniquelyReferenced(&box) { box = Box(box.packed) }
            storage = .full(box)
            return box
        case .compact(let compact):
            let box = Box(compact.packed)
            storage = .full(box)
            return box
        }
    }

    @inline(__always)
    private func read<T>(_ full: (Box) -> T, _ compact: (CompactBox) -> T) -> T {
        switch storage {
        case .full(let box): return full(box)
        case .compact(let box): return compact(box)
        }
    }

    /// The full layout, whichever box holds it.
    var packed: Packed { read({ $0.packed }, { $0.packed }) }
    var names: SharedNames { read({ $0.packed.names }, { $0.header.names }) }

    /// The same facts in the library's form: one allocation holding only the facts the file has, the
    /// identifier and the date as numbers (issue 17 item 4). Reads give the same values; a change unpacks it.
    public func compacted() -> MediaInfo {
        guard case .full(let box) = storage else { return self }
        var info = self
        info.storage = .compact(CompactBox.make(box.packed))
        return info
    }

    /// A value already in the compact form (`CompactBuilder`).
    init(compact: CompactBox) { storage = .compact(compact) }

    /// Whether the facts are held in the compact form (for tests and measurements).
    public var isCompact: Bool {
        if case .compact = storage { return true }
        return false
    }

    /// Changes one shared name (the box of names is shared between items: a changed one is looked up again).
    private mutating func setName(_ field: WritableKeyPath<SharedNames.Values, String?>, _ value: String?) {
        let box = unique()
        box.packed.names = box.packed.names.setting(field, value)
    }

    /// Sets every shared name at once, through `memo` (a decoder of stored probes: one look-up per file).
    public mutating func setNames(_ names: MediaNames, memo: inout SharedNamesMemo) {
        guard names != self.names.values else { return }
        let box = unique()
        box.packed.names = memo.box(for: names)
    }

    /// Changes several shared names with one table look-up: the parsers set make, model, lens, zone and
    /// identifier source together, and a look-up per field was a visible share of a scan's CPU (issue 17).
    mutating func updateNames(_ change: (inout SharedNames.Values) -> Void) {
        var values = names.values
        change(&values)
        guard values != names.values else { return }
        let box = unique()
        box.packed.names = SharedNames.shared(values)
    }

    public static func == (a: MediaInfo, b: MediaInfo) -> Bool {
        switch (a.storage, b.storage) {
        case let (.full(x), .full(y)): return x === y || x.packed == y.packed
        case let (.compact(x), .compact(y)): return x === y || x.sameFacts(as: y)
        default: return a.packed == b.packed
        }
    }
    /// Hashed through the compact form, so that a full box and a compact one with equal facts hash alike.
    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .full(let box): CompactBox.make(box.packed).hashFacts(into: &hasher)
        case .compact(let box): box.hashFacts(into: &hasher)
        }
    }
    public init(from decoder: any Decoder) throws { storage = .full(Box(Packed(try Fields(from: decoder)))) }
    public func encode(to encoder: any Encoder) throws { try packed.fields.encode(to: encoder) }
    public var format: ContainerFormat {
        get { read({ $0.packed.format }, { $0.header.format }) }
        set { unique().packed.format = newValue }
    }
    /// Stored pixel size (before Exif orientation or a movie's display matrix is applied).
    public var pixelWidth: Int? {
        get { read({ $0.packed.pixelWidth.value }, { $0.int(.pixelWidth) }) }
        set { unique().packed.pixelWidth = PackedInt(newValue) }
    }
    public var pixelHeight: Int? {
        get { read({ $0.packed.pixelHeight.value }, { $0.int(.pixelHeight) }) }
        set { unique().packed.pixelHeight = PackedInt(newValue) }
    }
    /// Exif Orientation 1...8 (stills).
    public var orientation: Int? {
        get { read({ $0.packed.orientation.value }, { $0.int(.orientation) }) }
        set { unique().packed.orientation = PackedInt(newValue) }
    }
    /// Clockwise rotation in degrees (0, 90, 180, 270) from a movie's display matrix, or HEIF irot.
    public var rotation: Int? {
        get { read({ $0.packed.rotation.value }, { $0.int(.rotation) }) }
        set { unique().packed.rotation = PackedInt(newValue) }
    }
    /// Horizontal mirror (HEIF imir, or a display matrix with negative determinant).
    public var mirrored: Bool? {
        get { read({ $0.packed.mirrored }, { $0.mirrored }) }
        set { unique().packed.mirrored = newValue }
    }

    /// Live Photo pairing key: Apple MakerNote 0x0011 in stills, `com.apple.quicktime.content.identifier`
    /// in movies (or an XMP fallback). Upper-cased as Apple writes it.
    public var contentIdentifier: String? {
        get { read({ $0.packed.contentIdentifier }, { $0.contentIdentifier }) }
        set { unique().packed.contentIdentifier = newValue }
    }
    /// Whether there is an identifier, without making its text.
    public var hasContentIdentifier: Bool {
        read({ $0.packed.contentIdentifier != nil }, { $0.uuid != nil || $0.header.rare?.contentIdentifier != nil })
    }
    /// The identifier's UTF-8 bytes, without making a String of a compact one (the pairer reads every file's).
    public func withContentIdentifierUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        if case .compact(let box) = storage, let uuid = box.uuid {
            return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { buffer in
                CompactText.writeUUID(high: uuid.high, low: uuid.low, into: buffer)
                return try body(UnsafeBufferPointer(rebasing: buffer[0..<36]))
            }
        }
        guard var text = contentIdentifier else { return nil }
        return try text.withUTF8(body)
    }
    /// Whether the identifier is exactly `text`, without making a String of a compact one.
    public func contentIdentifierIs(_ text: String) -> Bool {
        if case .compact(let box) = storage, let uuid = box.uuid {
            guard let other = CompactText.packUUID(text) else { return false }
            return other == uuid
        }
        return contentIdentifier == text
    }
    /// Where the identifier came from: "apple-makernote", "quicktime-mdta", "xmp".
    public var contentIdentifierSource: String? {
        get { names.values.contentIdentifierSource }
        set { setName(\.contentIdentifierSource, newValue) }
    }
    /// Apple MakerNote 0x0017 LivePhotoVideoIndex (raw value).
    public var livePhotoVideoIndex: UInt64? {
        get { read({ $0.packed.livePhotoVideoIndex }, { $0.word(.livePhotoVideoIndex) }) }
        set { unique().packed.livePhotoVideoIndex = newValue }
    }

    public var cameraMake: String? {
        get { names.values.cameraMake }
        set { setName(\.cameraMake, newValue) }
    }
    public var cameraModel: String? {
        get { names.values.cameraModel }
        set { setName(\.cameraModel, newValue) }
    }
    /// Capture time as written ("2021:05:02 12:34:56" Exif or ISO 8601 from QuickTime), no zone guessing.
    public var captureDate: String? {
        get { read({ $0.packed.captureDate.value }, { $0.captureDate }) }
        set { unique().packed.captureDate = PackedDate(newValue) }
    }
    /// Whether there is a capture date, without making its text.
    public var hasCaptureDate: Bool { read({ $0.packed.captureDate.isPresent }, { $0.hasCaptureDate }) }
    /// The capture date's numbers when it is an Exif "YYYY:MM:DD HH:MM:SS" (the usual case), read without
    /// making its text; nil otherwise (no date, or a date in another form: read `captureDate`).
    public var exifCaptureDateFields: ExifDateFields? {
        read({ $0.packed.captureDate.exifFields }, { $0.exifCaptureDateFields })
    }
    /// Exif OffsetTimeOriginal (or OffsetTime): the capture time's zone as written, "+01:00".
    public var captureTimeZone: String? {
        get { names.values.captureTimeZone }
        set { setName(\.captureTimeZone, newValue) }
    }
    /// True when the file carries a position. The coordinates themselves are never kept here (see
    /// `LocationReader`, which reads them only when the user asks).
    public var hasGPS: Bool {
        get { read({ $0.packed.hasGPS }, { $0.flag(CompactHeader.Flag.hasGPS) }) }
        set { unique().packed.hasGPS = newValue }
    }

    // MARK: exposure (Exif)
    public var lensMake: String? {
        get { names.values.lensMake }
        set { setName(\.lensMake, newValue) }
    }
    public var lensModel: String? {
        get { names.values.lensModel }
        set { setName(\.lensModel, newValue) }
    }
    /// ExposureTime as a fraction of seconds (1/801 is 1 over 801).
    public var exposureTime: ExifRational? {
        get { read({ $0.packed.exposureTime }, { $0.rational(.exposureTime) }) }
        set { unique().packed.exposureTime = newValue }
    }
    public var fNumber: ExifRational? {
        get { read({ $0.packed.fNumber }, { $0.rational(.fNumber) }) }
        set { unique().packed.fNumber = newValue }
    }
    /// PhotographicSensitivity (ISO).
    public var iso: Int? {
        get { read({ $0.packed.iso.value }, { $0.int(.iso) }) }
        set { unique().packed.iso = PackedInt(newValue) }
    }
    public var focalLength: ExifRational? {
        get { read({ $0.packed.focalLength }, { $0.rational(.focalLength) }) }
        set { unique().packed.focalLength = newValue }
    }
    public var focalLengthIn35mm: Int? {
        get { read({ $0.packed.focalLengthIn35mm.value }, { $0.int(.focalLengthIn35mm) }) }
        set { unique().packed.focalLengthIn35mm = PackedInt(newValue) }
    }

    // MARK: movies
    public var duration: Double? {
        get { read({ $0.packed.duration.value }, { $0.double(.duration) }) }
        set { unique().packed.duration = PackedDouble(newValue) }
    }
    public var videoCodec: String? {
        get { names.values.videoCodec }
        set { setName(\.videoCodec, newValue) }
    }
    public var audioCodec: String? {
        get { names.values.audioCodec }
        set { setName(\.audioCodec, newValue) }
    }
    public var frameCount: Int? {
        get { read({ $0.packed.frameCount.value }, { $0.int(.frameCount) }) }
        set { unique().packed.frameCount = PackedInt(newValue) }
    }
    /// Average frames per second of the video track.
    public var frameRate: Double? {
        get { read({ $0.packed.frameRate.value }, { $0.double(.frameRate) }) }
        set { unique().packed.frameRate = PackedDouble(newValue) }
    }
    /// Presentation time (seconds, after the edit list) of the `com.apple.quicktime.still-image-time` sample.
    public var stillImageTime: Double? {
        get { read({ $0.packed.stillImageTime.value }, { $0.double(.stillImageTime) }) }
        set { unique().packed.stillImageTime = PackedDouble(newValue) }
    }
    /// `com.apple.quicktime.live-photo.vitality-score`, when present.
    public var vitalityScore: Double? {
        get { read({ $0.packed.vitalityScore.value }, { $0.double(.vitalityScore) }) }
        set { unique().packed.vitalityScore = PackedDouble(newValue) }
    }

    // MARK: stills
    /// JPEG thumbnail in Exif IFD1, as a range of the file.
    public var exifThumbnail: ByteRange? {
        get { read({ $0.packed.exifThumbnail }, { $0.exifThumbnail }) }
        set { unique().packed.exifThumbnail = newValue }
    }
    /// HEIF thumbnail item size, when the file has one.
    public var thumbnailWidth: Int? {
        get { read({ $0.packed.thumbnailWidth.value }, { $0.int(.thumbnailWidth) }) }
        set { unique().packed.thumbnailWidth = PackedInt(newValue) }
    }
    public var thumbnailHeight: Int? {
        get { read({ $0.packed.thumbnailHeight.value }, { $0.int(.thumbnailHeight) }) }
        set { unique().packed.thumbnailHeight = PackedInt(newValue) }
    }
    /// A Motion Photo's movie.
    public var embeddedMovie: EmbeddedMovie? {
        get { read({ $0.packed.embeddedMovie }, { $0.header.rare?.embeddedMovie }) }
        set { unique().packed.embeddedMovie = newValue }
    }
    public var hasXMP: Bool {
        get { read({ $0.packed.hasXMP }, { $0.flag(CompactHeader.Flag.hasXMP) }) }
        set { unique().packed.hasXMP = newValue }
    }

    public var problems: [ParseProblem] {
        get { read({ $0.packed.problems }, { $0.header.rare?.problems ?? [] }) }
        set { unique().packed.problems = newValue }
    }

    /// A MediaInfo that knows only its format shares one box per format: a remote listing's 200,000
    /// placeholders held a 416-byte box each before any fact was known. The first write copies it (`unique()`).
    public init(format: ContainerFormat) {
        storage = .full(Self.blankBoxes[format] ?? Box(Packed(Fields(format: format))))
    }

    private static let blankBoxes: [ContainerFormat: Box] = Dictionary(
        uniqueKeysWithValues: ContainerFormat.allCases.map { ($0, Box(Packed(Fields(format: $0)))) })

    /// Size as displayed: width and height swapped for orientations 5-8 or a 90/270 rotation.
    public var displaySize: (width: Int, height: Int)? {
        guard let w = pixelWidth, let h = pixelHeight else { return nil }
        let swaps = (orientation.map { $0 >= 5 && $0 <= 8 } ?? false) || rotation == 90 || rotation == 270
        return swaps ? (h, w) : (w, h)
    }
}

/// The names a MediaInfo shares with other files of the same camera, as values (`SharedNames` boxes them).
public struct MediaNames: Sendable, Hashable {
    public var contentIdentifierSource: String? = nil
    public var cameraMake: String? = nil
    public var cameraModel: String? = nil
    public var captureTimeZone: String? = nil
    public var lensMake: String? = nil
    public var lensModel: String? = nil
    public var videoCodec: String? = nil
    public var audioCodec: String? = nil
    public init() {}
    init(contentIdentifierSource: String?, cameraMake: String?, cameraModel: String?, captureTimeZone: String?,
         lensMake: String?, lensModel: String?, videoCodec: String?, audioCodec: String?) {
        self.contentIdentifierSource = contentIdentifierSource
        self.cameraMake = cameraMake
        self.cameraModel = cameraModel
        self.captureTimeZone = captureTimeZone
        self.lensMake = lensMake
        self.lensModel = lensModel
        self.videoCodec = videoCodec
        self.audioCodec = audioCodec
    }
}

/// The last few name boxes one decoder set: the files of one folder repeat a handful of name sets (a still's and
/// its movie's), and finding the box here skips the shared table's lock and hashing. Reading a 100,000-file
/// library from its index set names 100,000 times; one table look-up per name was most of it (issue 17 item 3).
public struct SharedNamesMemo {
    fileprivate var recent: [SharedNames] = []
    public init() {}

    mutating func box(for values: MediaNames) -> SharedNames {
        if let found = recent.first(where: { $0.values == values }) { return found }
        let box = SharedNames.shared(values)
        if recent.count >= 4 { recent.removeFirst() }
        recent.append(box)
        return box
    }
}

/// The names a MediaInfo shares with other files of the same camera: one immutable box per distinct set,
/// found again through a table, so 100,000 photos from three phones hold three boxes per thread stripe (issue 17 item 4). A
/// change makes (or finds) another box; a box is never written. The table only shares: emptied when full,
/// the boxes in use stay valid.
final class SharedNames: Sendable, Hashable {
    typealias Values = MediaNames

    let values: Values

    private init(_ values: Values) { self.values = values }

    static func == (a: SharedNames, b: SharedNames) -> Bool { a === b || a.values == b.values }
    func hash(into hasher: inout Hasher) { values.hash(into: &hasher) }

    /// Boxes kept per stripe.
    static let limit = 4096
    private static let none = SharedNames(Values())

    /// One table per thread stripe (`ThreadStripe`): the scan's workers each ask theirs, so a set of names
    /// has at most one box per stripe. `last` answers the common case (the same camera as the file before)
    /// without hashing the names or allocating a box.
    private struct Table {
        var boxes: Set<SharedNames> = [SharedNames.none]
        var last = SharedNames.none
    }
    private static let tables = (0..<8).map { _ in Locked(Table()) }

    static func shared(_ values: Values) -> SharedNames {
        if values == none.values { return none }
        return tables[ThreadStripe.current(of: tables.count)].withLockedValue { table in
            if table.last.values == values { return table.last }
            let box = SharedNames(values)
            let found: SharedNames
            if let index = table.boxes.firstIndex(of: box) {
                found = table.boxes[index]
            } else {
                if table.boxes.count >= limit { table.boxes.removeAll(keepingCapacity: true) }
                table.boxes.insert(box)
                found = box
            }
            table.last = found
            return found
        }
    }
}

extension SharedNames {
    /// This box's values with one name changed, as a shared box (the stored field points at it).
    func setting(_ field: WritableKeyPath<Values, String?>, _ value: String?) -> SharedNames {
        var changed = values
        changed[keyPath: field] = value
        return changed == values ? self : SharedNames.shared(changed)
    }
}

/// The numbers of an Exif date "YYYY:MM:DD HH:MM:SS", as written (not checked for range).
public struct ExifDateFields: Sendable, Hashable {
    public var year, month, day, hour, minute, second: Int
}
