/// XMP packet reader: the few properties livegrid needs, in attribute or element form, with namespace
/// prefixes resolved by URI (writers use `GCamera:`, `Camera:` or anything else for the same namespace).
public enum XMPReader {
    public enum Namespace {
        public static let camera = "http://ns.google.com/photos/1.0/camera/"
        public static let container = "http://ns.google.com/photos/1.0/container/"
        public static let item = "http://ns.google.com/photos/1.0/container/item/"
        public static let tiff = "http://ns.adobe.com/tiff/1.0/"
        public static let xmp = "http://ns.adobe.com/xap/1.0/"
        public static let xmpNote = "http://ns.adobe.com/xmp/note/"
        public static let exif = "http://ns.adobe.com/exif/1.0/"
        public static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    }

    /// Prefixes used when a packet forgets to declare them (truncated or hand-written XMP).
    static let conventionalPrefixes: [String: String] = [
        "GCamera": Namespace.camera, "Camera": Namespace.camera, "Container": Namespace.container,
        "Item": Namespace.item, "tiff": Namespace.tiff, "xmp": Namespace.xmp, "xap": Namespace.xmp,
        "xmpNote": Namespace.xmpNote, "rdf": Namespace.rdf, "exif": Namespace.exif,
    ]

    /// Deepest element nesting followed; real XMP is under 10 levels.
    static let maxElementDepth = 256

    public static func parse(_ packet: [UInt8], limits: ParseLimits = .default) -> XMPSummary {
        // Most cameras' packets hold only dates and tool names: a byte scan proves that, and the answer is then
        // the empty summary without tokenizing anything (issue 17).
        guard XMPPropertyFilter.mayHoldProperties(packet, limits: limits) else { return XMPSummary() }
        return parseFully(packet, limits: limits)
    }

    /// `parse`, or with `.full` the tokenizing reader alone (the differential tests compare both).
    static func parse(_ packet: [UInt8], limits: ParseLimits, path: ProbePath) -> XMPSummary {
        path == .fast ? parse(packet, limits: limits) : parseFully(packet, limits: limits)
    }

    /// The tokenizing reader, without the byte-scan shortcut (the tests compare both).
    static func parseFully(_ packet: [UInt8], limits: ParseLimits = .default) -> XMPSummary {
        var state = ReaderState(limits: limits)
        var scanner = XMPScanner(packet)
        var tokens = 0
        while let token = scanner.next() {
            tokens += 1
            if tokens > limits.maxEntries * 64 {
                state.summary.problems.append(ParseProblem(.warning, "xmp", "too many XML tokens: rest ignored"))
                break
            }
            if !state.handle(token) { break }
        }
        return state.summary
    }

    /// A qualified name resolved to its namespace URI ("" when unknown) and local part.
    struct QualifiedName: Equatable {
        var uri: String
        var local: String
    }

    struct OpenElement {
        var rawName: String
        var name: QualifiedName
        var namespaces: [String: String]
        var hasChildren = false
        var text = ""
        var isContainerItem: Bool
    }

    struct ReaderState {
        let limits: ParseLimits
        var summary = XMPSummary()
        var stack: [OpenElement] = []
        /// The Container:Item being read (attributes and child elements both fill it).
        var pendingItem: XMPContainerItem?

        init(limits: ParseLimits) { self.limits = limits }

        func resolve(_ raw: String, in namespaces: [String: String]) -> QualifiedName {
            // A byte search: `String.firstIndex(of: Character)` walks grapheme clusters.
            guard let colon = raw.utf8.firstIndex(of: UInt8(ascii: ":")) else { return QualifiedName(uri: "", local: raw) }
            let prefix = String(raw[..<colon])
            let local = String(raw[raw.utf8.index(after: colon)...])
            let uri = namespaces[prefix] ?? conventionalPrefixes[prefix] ?? ""
            return QualifiedName(uri: uri, local: local)
        }

        /// Returns false to stop reading.
        mutating func handle(_ token: XMPScanner.Token) -> Bool {
            switch token {
            case .start(let rawName, let attributes, let selfClosing):
                guard stack.count < XMPReader.maxElementDepth else {
                    summary.problems.append(ParseProblem(.warning, "xmp", "elements nested too deeply: rest ignored"))
                    return false
                }
                var namespaces = stack.last?.namespaces ?? [:]
                for attribute in attributes where attribute.name.hasPrefix("xmlns:") {
                    namespaces[String(attribute.name.dropFirst(6))] = attribute.value
                }
                let name = resolve(rawName, in: namespaces)
                if !stack.isEmpty { stack[stack.count - 1].hasChildren = true }
                let isItem = name == QualifiedName(uri: Namespace.container, local: "Item")
                if isItem { pendingItem = XMPContainerItem(mime: "", semantic: "", length: 0, padding: 0) }
                for attribute in attributes where !attribute.name.hasPrefix("xmlns") {
                    property(resolve(attribute.name, in: namespaces), attribute.value)
                }
                stack.append(OpenElement(rawName: rawName, name: name, namespaces: namespaces, isContainerItem: isItem))
                if selfClosing { close(count: 1) }
            case .end(let rawName):
                // Tolerate mismatched end tags: close up to the matching element, or ignore the stray tag.
                if let match = stack.lastIndex(where: { $0.rawName == rawName }) {
                    close(count: stack.count - match)
                }
            case .text(let text):
                if !stack.isEmpty, !stack[stack.count - 1].hasChildren, stack[stack.count - 1].text.count < 4096 {
                    stack[stack.count - 1].text += text
                }
            }
            return true
        }

        mutating func close(count: Int) {
            for _ in 0..<count {
                guard let element = stack.popLast() else { return }
                if !element.hasChildren && !element.text.isEmpty {
                    property(element.name, element.text)
                }
                if element.isContainerItem, let item = pendingItem {
                    if summary.directory.count < limits.maxEntries {
                        summary.directory.append(item)
                    } else if summary.directory.count == limits.maxEntries {
                        summary.problems.append(ParseProblem(.warning, "xmp", "Container:Directory too long: items ignored"))
                    }
                    pendingItem = nil
                }
            }
        }

        /// Applies one property, whether it came as an attribute or as an element's text.
        mutating func property(_ name: QualifiedName, _ rawValue: String) {
            // Most properties are none of these: compare the short local name before trimming the value and
            // comparing namespace URIs.
            switch name.local {
            case "MotionPhoto", "MotionPhotoVersion", "MotionPhotoPresentationTimestampUs", "MicroVideo",
                 "MicroVideoOffset", "MicroVideoPresentationTimestampUs", "Mime", "Semantic", "Length", "Padding",
                 "Orientation", "Rating", "GPSLatitude", "GPSLongitude", "HasExtendedXMP", "ContentIdentifier":
                break
            default:
                return
            }
            let value = rawValue.trimmingASCIIWhitespace()
            switch (name.uri, name.local) {
            case (Namespace.camera, "MotionPhoto"): summary.motionPhoto = parseFlag(value)
            case (Namespace.camera, "MotionPhotoVersion"): summary.motionPhotoVersion = Int(value)
            case (Namespace.camera, "MotionPhotoPresentationTimestampUs"): summary.presentationTimestampUs = Int64(value)
            case (Namespace.camera, "MicroVideo"): summary.microVideo = parseFlag(value)
            case (Namespace.camera, "MicroVideoOffset"): summary.microVideoOffset = UInt64(value)
            case (Namespace.camera, "MicroVideoPresentationTimestampUs"): summary.microVideoPresentationTimestampUs = Int64(value)
            case (Namespace.item, "Mime"): pendingItem?.mime = value
            case (Namespace.item, "Semantic"): pendingItem?.semantic = value
            case (Namespace.item, "Length"): pendingItem?.length = UInt64(value) ?? 0
            case (Namespace.item, "Padding"): pendingItem?.padding = UInt64(value) ?? 0
            case (Namespace.tiff, "Orientation"):
                if let o = Int(value), (1...8).contains(o) { summary.orientation = o }
            case (Namespace.xmp, "Rating"): summary.rating = Int(value) ?? Double(value).flatMap { Int(exactly: $0.rounded()) }
            case (Namespace.exif, "GPSLatitude"): if !value.isEmpty, value.utf8.count <= 64 { summary.gpsLatitude = value }
            case (Namespace.exif, "GPSLongitude"): if !value.isEmpty, value.utf8.count <= 64 { summary.gpsLongitude = value }
            case (Namespace.xmpNote, "HasExtendedXMP"): summary.extendedXMPGUID = value.isEmpty ? nil : value
            case (_, "ContentIdentifier") where name.uri != Namespace.item:
                // Any namespace: tools disagree on where to put the fallback (apple-fi:, xmp:, ...).
                if !value.isEmpty, value.utf8.count <= 128, summary.contentIdentifier == nil {
                    summary.contentIdentifier = value.uppercased()
                }
            default: break
            }
        }

        func parseFlag(_ value: String) -> Bool {
            value == "1" || value.lowercased() == "true"
        }
    }
}
