extension MediaInfo {
    /// The facts of the compact form held in words, in slot order. A file holds a word for each fact it has
    /// and none for the others: a Live Photo movie has no exposure, a still no duration, and the full layout
    /// (`Packed`, 269 bytes) kept room for all of them in every file of a library (issue 17 item 4).
    enum CompactField: UInt32, CaseIterable {
        case pixelWidth = 0, pixelHeight, orientation, rotation, iso, focalLengthIn35mm, frameCount
        case thumbnailWidth, thumbnailHeight, duration, frameRate, stillImageTime, vitalityScore
        case livePhotoVideoIndex, exposureTime, fNumber, focalLength
        /// Two words: offset, length.
        case exifThumbnail
        /// The date's digits (`CompactText.packDate`); its shape is in the header.
        case captureDate
        /// Two words: a canonical UUID's 32 hex digits (`CompactText.packUUID`).
        case contentIdentifier

        var bit: UInt32 { 1 << rawValue }
        static let twoWordFields: UInt32 = exifThumbnail.bit | contentIdentifier.bit
    }

    /// What is not a word: the flags, the shared names, and the rare facts in a box of their own.
    struct CompactHeader {
        var present: UInt32 = 0
        var format: ContainerFormat
        /// `Flag` bits.
        var flags: UInt8 = 0
        var dateShape: UInt8 = 0
        var names: SharedNames
        var rare: CompactRare?

        enum Flag {
            static let hasGPS: UInt8 = 1, hasXMP: UInt8 = 2, mirroredKnown: UInt8 = 4, mirrored: UInt8 = 8
        }
    }

    /// Facts few files have, or texts of an unusual shape: nil in most files' compact form.
    final class CompactRare: Sendable, Equatable {
        /// An identifier that is not a canonical upper-case UUID.
        let contentIdentifier: String?
        /// A date of a shape `CompactText.dateShapes` does not list.
        let captureDate: String?
        let embeddedMovie: EmbeddedMovie?
        let problems: [ParseProblem]

        /// Nil when there is nothing rare (most files): a failable initializer would allocate the box first.
        static func make(contentIdentifier: String?, captureDate: String?, embeddedMovie: EmbeddedMovie?,
                         problems: [ParseProblem]) -> CompactRare? {
            guard contentIdentifier != nil || captureDate != nil || embeddedMovie != nil || !problems.isEmpty else {
                return nil
            }
            return CompactRare(contentIdentifier: contentIdentifier, captureDate: captureDate,
                               embeddedMovie: embeddedMovie, problems: problems)
        }

        private init(contentIdentifier: String?, captureDate: String?, embeddedMovie: EmbeddedMovie?, problems: [ParseProblem]) {
            self.contentIdentifier = contentIdentifier
            self.captureDate = captureDate
            self.embeddedMovie = embeddedMovie
            self.problems = problems
        }

        static func == (a: CompactRare, b: CompactRare) -> Bool {
            a === b || (a.contentIdentifier == b.contentIdentifier && a.captureDate == b.captureDate
                        && a.embeddedMovie == b.embeddedMovie && a.problems == b.problems)
        }
    }

    /// A library's form of a file's facts: one allocation of a header and only the words the file needs
    /// (about 130-180 bytes for a camera file, where the full box and its identifier and date strings were
    /// ~430). Never written after it is made: a change goes through the full form (`MediaInfo.unique()`).
    /// Shared between threads through `MediaInfo.Storage`, whose Sendable conformance says why that is safe.
    final class CompactBox: ManagedBuffer<CompactHeader, UInt64> {
        /// `p` in the compact form, through `CompactBuilder` (fixed words on the stack, one allocation).
        static func make(_ p: Packed) -> CompactBox {
            var builder = CompactBuilder()
            builder.setFormat(p.format)
            func int(_ fact: CompactBuilder.NumberFact, _ value: PackedInt) {
                if let v = value.value { builder.setInt(fact, v) }
            }
            func double(_ fact: CompactBuilder.NumberFact, _ value: PackedDouble) {
                if let v = value.value { builder.setDouble(fact, v) }
            }
            func rational(_ fact: CompactBuilder.NumberFact, _ value: ExifRational?) {
                if let v = value { builder.setRational(fact, v) }
            }
            int(.pixelWidth, p.pixelWidth)
            int(.pixelHeight, p.pixelHeight)
            int(.orientation, p.orientation)
            int(.rotation, p.rotation)
            int(.iso, p.iso)
            int(.focalLengthIn35mm, p.focalLengthIn35mm)
            int(.frameCount, p.frameCount)
            int(.thumbnailWidth, p.thumbnailWidth)
            int(.thumbnailHeight, p.thumbnailHeight)
            double(.duration, p.duration)
            double(.frameRate, p.frameRate)
            double(.stillImageTime, p.stillImageTime)
            double(.vitalityScore, p.vitalityScore)
            if let v = p.livePhotoVideoIndex { builder.setWord(.livePhotoVideoIndex, v) }
            rational(.exposureTime, p.exposureTime)
            rational(.fNumber, p.fNumber)
            rational(.focalLength, p.focalLength)
            if let v = p.exifThumbnail { builder.setExifThumbnail(v) }
            if let digits = p.captureDate.exifDecimalDigits {
                builder.setExifCaptureDate(digits: digits)
            } else if var date = p.captureDate.value {
                date.withUTF8 { builder.setCaptureDate(utf8: UnsafeRawBufferPointer($0)) }
            }
            if var identifier = p.contentIdentifier {
                identifier.withUTF8 { builder.setContentIdentifier(utf8: UnsafeRawBufferPointer($0)) }
            }
            if p.hasGPS { builder.setHasGPS() }
            if p.hasXMP { builder.setHasXMP() }
            if let mirrored = p.mirrored { builder.setMirrored(mirrored) }
            builder.embeddedMovie = p.embeddedMovie
            builder.problems = p.problems
            return builder.box(names: p.names)
        }

        /// The slot of `field`'s first word, nil when the file does not have it.
        @inline(__always)
        func slot(_ field: CompactField) -> Int? {
            let present = header.present
            guard present & field.bit != 0 else { return nil }
            let before = present & (field.bit &- 1)
            return before.nonzeroBitCount + (before & CompactField.twoWordFields).nonzeroBitCount
        }

        @inline(__always)
        func word(_ field: CompactField, _ offset: Int = 0) -> UInt64? {
            guard let slot = slot(field) else { return nil }
            return withUnsafeMutablePointerToElements { $0[slot + offset] }
        }

        var wordCount: Int {
            let present = header.present
            return present.nonzeroBitCount + (present & CompactField.twoWordFields).nonzeroBitCount
        }

        func int(_ field: CompactField) -> Int? { word(field).map { Int(Int64(bitPattern: $0)) } }
        func double(_ field: CompactField) -> Double? { word(field).map(Double.init(bitPattern:)) }
        func rational(_ field: CompactField) -> ExifRational? {
            word(field).map { ExifRational(UInt32($0 >> 32), UInt32($0 & 0xFFFF_FFFF)) }
        }
        func flag(_ flag: UInt8) -> Bool { header.flags & flag != 0 }

        var mirrored: Bool? {
            flag(CompactHeader.Flag.mirroredKnown) ? flag(CompactHeader.Flag.mirrored) : nil
        }
        var exifThumbnail: ByteRange? {
            guard let offset = word(.exifThumbnail), let length = word(.exifThumbnail, 1) else { return nil }
            return ByteRange(offset: offset, length: length)
        }
        var captureDate: String? {
            if let digits = word(.captureDate) { return CompactText.dateText(digits: digits, shape: header.dateShape) }
            return header.rare?.captureDate
        }
        var hasCaptureDate: Bool { header.present & CompactField.captureDate.bit != 0 || header.rare?.captureDate != nil }
        var exifCaptureDateFields: ExifDateFields? {
            guard header.dateShape == CompactText.exifShape, let digits = word(.captureDate) else { return nil }
            return CompactText.exifFields(digits: digits)
        }
        var uuid: (high: UInt64, low: UInt64)? {
            guard let high = word(.contentIdentifier), let low = word(.contentIdentifier, 1) else { return nil }
            return (high, low)
        }
        var contentIdentifier: String? {
            if let uuid { return CompactText.uuidText(high: uuid.high, low: uuid.low) }
            return header.rare?.contentIdentifier
        }

        /// The full layout again (for a change, or for comparing with a full box).
        var packed: Packed {
            var f = Fields(format: header.format)
            f.pixelWidth = int(.pixelWidth)
            f.pixelHeight = int(.pixelHeight)
            f.orientation = int(.orientation)
            f.rotation = int(.rotation)
            f.iso = int(.iso)
            f.focalLengthIn35mm = int(.focalLengthIn35mm)
            f.frameCount = int(.frameCount)
            f.thumbnailWidth = int(.thumbnailWidth)
            f.thumbnailHeight = int(.thumbnailHeight)
            f.duration = double(.duration)
            f.frameRate = double(.frameRate)
            f.stillImageTime = double(.stillImageTime)
            f.vitalityScore = double(.vitalityScore)
            f.livePhotoVideoIndex = word(.livePhotoVideoIndex)
            f.exposureTime = rational(.exposureTime)
            f.fNumber = rational(.fNumber)
            f.focalLength = rational(.focalLength)
            f.exifThumbnail = exifThumbnail
            f.captureDate = captureDate
            f.contentIdentifier = contentIdentifier
            f.mirrored = mirrored
            f.hasGPS = flag(CompactHeader.Flag.hasGPS)
            f.hasXMP = flag(CompactHeader.Flag.hasXMP)
            f.embeddedMovie = header.rare?.embeddedMovie
            f.problems = header.rare?.problems ?? []
            return Packed(f, names: header.names)
        }

        /// Equal facts: the compact form of equal facts is the same header and words (each value has one
        /// compact form: shapes and UUIDs are tried in a fixed order).
        func sameFacts(as other: CompactBox) -> Bool {
            let a = header, b = other.header
            guard a.present == b.present, a.format == b.format, a.flags == b.flags, a.dateShape == b.dateShape,
                  a.names == b.names, a.rare == b.rare else { return false }
            let count = wordCount
            return withUnsafeMutablePointerToElements { mine in
                other.withUnsafeMutablePointerToElements { theirs in
                    (0..<count).allSatisfy { mine[$0] == theirs[$0] }
                }
            }
        }

        func hashFacts(into hasher: inout Hasher) {
            let header = self.header
            hasher.combine(header.present)
            hasher.combine(header.format)
            hasher.combine(header.flags)
            hasher.combine(header.dateShape)
            withUnsafeMutablePointerToElements { words in
                for index in 0..<wordCount { hasher.combine(words[index]) }
            }
        }
    }
}
