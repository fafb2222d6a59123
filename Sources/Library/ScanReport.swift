import Foundation
import LibraryCore
import LivePairing
import MediaFormats

/// The stable JSON shape of `livegrid scan --json`. Field names are part of the interface scripts rely on:
/// add fields, never rename them.
public struct ScanReport: Codable, Sendable {
    public struct File: Codable, Sendable {
        public var path: String
        public var role: String          // "still" or "movie"
        public var format: String
        public var size: UInt64
        /// Only for a path that is not valid UTF-8 (then `path` shows U+FFFD): its exact bytes, base64.
        public var pathBase64: String?
    }
    public struct EmbeddedMovieRange: Codable, Sendable {
        public var kind: String
        public var offset: UInt64
        public var length: UInt64
        public var presentationTimestampUs: Int64?
    }
    public struct Item: Codable, Sendable {
        public var kind: String
        /// The primary file's name; bytes that are not UTF-8 show as U+FFFD, as on screen.
        public var name: String
        /// Only for a name that is not valid UTF-8 (then `name` shows U+FFFD): its exact bytes, base64, as
        /// `File.pathBase64` has the whole path's.
        public var nameBase64: String?
        public var files: [File]
        public var identifier: String?
        public var pairing: String?
        public var width: Int?
        public var height: Int?
        public var orientation: Int?
        public var rotation: Int?
        public var duration: Double?
        public var frameCount: Int?
        public var stillImageTime: Double?
        public var embeddedMovie: EmbeddedMovieRange?
        public var captureDate: String?
        public var liveOffReason: String?
        public var warnings: [String]
        /// The parsers' own words behind the plain warnings ("file: context: message"), for scripts and
        /// `scan --verbose`.
        public var problems: [String]
        /// 0-5 stars and "none", "pick" or "reject", from the item's sidecar or, where its folder cannot be
        /// written, livegrid's library index (issue 31.5); absent when not read (`ScanReport(_:)` alone).
        public var rating: Int?
        public var flag: String?
    }
    /// A header over a run of `items` (`scan --group`): `count` items from index `first`. A count of 0 is a
    /// header on its own (the timeline's year line).
    public struct Section: Codable, Sendable, Equatable {
        public var title: String
        public var first: Int
        public var count: Int
        public init(title: String, first: Int, count: Int) {
            self.title = title
            self.first = first
            self.count = count
        }
    }
    public var root: String
    public var counts: [String: Int]
    public var items: [Item]
    public var warnings: [String]
    /// Only with `scan --group` (absent from the JSON otherwise).
    public var sections: [Section]?

    /// With `triage` (item id -> state; a missing id is unrated), each item says its rating and flag.
    public init(_ scan: LibraryScan, triage: [ItemID: TriageState]?) {
        self.init(scan)
        guard let triage else { return }
        for (index, item) in scan.items.enumerated() where items.indices.contains(index) {
            let state = triage[item.id] ?? .unrated
            items[index].rating = state.rating
            items[index].flag = state.flag.rawValue
        }
    }

    public init(_ scan: LibraryScan) {
        root = scan.root
        var counts: [String: Int] = ["items": scan.items.count, "files": scan.fileCount]
        for kind in ItemKind.allCases { counts[kind.rawValue] = scan.count(of: kind) }
        self.counts = counts
        warnings = scan.warnings
        items = scan.items.map { item in
            let picture = item.still?.info ?? item.movie?.info
            let motion = item.movie?.info ?? item.still?.info
            var files: [File] = []
            if let s = item.still {
                files.append(File(path: s.path, role: "still", format: s.info.format.rawValue, size: s.size,
                                  pathBase64: Self.base64IfRaw(s.path)))
            }
            if let m = item.movie {
                files.append(File(path: m.path, role: "movie", format: m.info.format.rawValue, size: m.size,
                                  pathBase64: Self.base64IfRaw(m.path)))
            }
            let embedded = item.still?.info.embeddedMovie.map {
                EmbeddedMovieRange(kind: $0.kind.rawValue, offset: $0.range.offset, length: $0.range.length,
                                   presentationTimestampUs: $0.presentationTimestampUs)
            }
            var stillTime = item.movie?.info.stillImageTime
            if stillTime == nil, let us = item.still?.info.embeddedMovie?.presentationTimestampUs, us >= 0 {
                stillTime = Double(us) / 1_000_000
            }
            return Item(
                kind: item.kind.rawValue, name: item.displayName, nameBase64: Self.base64IfRaw(item.displayName), files: files,
                identifier: item.contentIdentifier, pairing: item.pairing?.rawValue,
                width: picture?.displaySize?.width, height: picture?.displaySize?.height,
                orientation: item.still?.info.orientation, rotation: motion?.rotation,
                duration: item.movie?.info.duration, frameCount: item.movie?.info.frameCount,
                stillImageTime: stillTime, embeddedMovie: embedded,
                captureDate: picture?.captureDate, liveOffReason: item.liveOffReason, warnings: item.warnings,
                problems: item.files.flatMap { file in
                    file.info.problems.map { "\(file.fileName): \($0.context): \($0.message)" }
                })
        }
    }

    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Self.terminalSafeJSON(String(decoding: try encoder.encode(self), as: UTF8.self))
    }

    /// The encoder escapes C0 controls but writes C1 controls, bidi controls and line separators as they are;
    /// written as `\uXXXX` the JSON means exactly the same and cannot drive a terminal it is printed on.
    /// Bytes of a non-UTF-8 name (`PathBytes`) become U+FFFD; `pathBase64` and `nameBase64` have them exactly.
    static func terminalSafeJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: VisibleText.needsEscape) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if VisibleText.isRawByte(scalar) {
                out.append("\u{FFFD}")
            } else if scalar.value >= 0x7F, VisibleText.needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    static func base64IfRaw(_ path: String) -> String? {
        PathBytes.hasRawBytes(path) ? Data(PathBytes.bytes(of: path)).base64EncodedString() : nil
    }

    /// A readable table: one line per item, warnings indented below it (with `verbose`, the parsers'
    /// own words below those).
    public func table(verbose: Bool = false, folders: Bool = false) -> String {
        tableLines(verbose: verbose, folders: folders).joined(separator: "\n")
    }

    /// The folder of an item relative to the root ("." for the root itself), for the FOLDER column.
    func folder(of item: Item) -> String {
        guard let path = item.files.first?.path else { return "." }
        // Cut at the last slash by hand: NSString's path calls fold a URL's "//" (s3://b/p/a → s3:/b/p), so a
        // remote item's folder never matched its root and showed whole.
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        var base = root
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        if directory == base || directory.isEmpty { return "." }
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return directory.hasPrefix(prefix) ? String(directory.dropFirst(prefix.count)) : directory
    }

    /// The table line by line. Every field is escaped (`VisibleText`) before it is measured, so a hostile
    /// or over-long name stays inside its column, which always ends in a space.
    /// With `folders` (`scan -r`), a FOLDER column after the kind says where each item lies below the root.
    public func tableLines(verbose: Bool = false, folders: Bool = false) -> [String] {
        var lines: [String] = []
        writeTable(verbose: verbose, folders: folders) { lines.append($0) }
        return lines
    }

    /// The table's lines handed to `line` one at a time, as made: a 200,000-item table is not held whole (with
    /// its joined copy) at the end of a scan whose items already fill the memory.
    public func writeTable(verbose: Bool = false, folders: Bool = false, line: (String) -> Void) {
        func pad(_ s: String, _ n: Int) -> String { VisibleText.column(s, width: n - 1) + " " }
        // As wide as the longest folder, between 8 and 40 columns (a longer one is cut, as names are).
        let folderWidth = folders ? min(40, max(8, items.lazy.map { VisibleText.columns(VisibleText.escaped(folder(of: $0))) + 2 }.max() ?? 8)) : 0
        line(pad("KIND", 7) + (folders ? pad("FOLDER", folderWidth) : "") + pad("NAME", 34) + pad("SIZE", 11)
             + pad("MOVIE", 16) + "IDENTIFIER")
        var headers = (sections ?? [])[...]
        func headersUpTo(_ index: Int) {
            while let next = headers.first, next.first <= index {
                line("== " + VisibleText.escaped(next.title))
                headers = headers.dropFirst()
            }
        }
        for (index, item) in items.enumerated() {
            headersUpTo(index)
            let names = item.files.map { ($0.path as NSString).lastPathComponent }.joined(separator: " + ")
            let size = item.width.map { "\($0)x\(item.height ?? 0)" } ?? "?"
            var movie = ""
            if let d = item.duration { movie = String(format: "%.2fs", d) }
            if let t = item.stillImageTime { movie += String(format: " @%.2fs", t) }
            if let e = item.embeddedMovie { movie = "embedded \(e.length / 1024)K" }
            line(pad(item.kind, 7) + (folders ? pad(folder(of: item), folderWidth) : "") + pad(names, 34)
                 + pad(size, 11) + pad(movie, 16)
                 + VisibleText.escaped(item.identifier ?? "-"))
            for w in item.warnings { line("       ! " + VisibleText.escaped(w)) }
            if verbose { for p in item.problems { line("         [" + VisibleText.escaped(p) + "]") } }
        }
        headersUpTo(Int.max)
        let c = counts
        line("")
        line("\(Plural.count(c["items"] ?? 0, "item")) (\(c["live"] ?? 0) live, \(c["motion"] ?? 0) motion, "
             + "\(c["still"] ?? 0) still, \(c["video"] ?? 0) video) from \(Plural.count(c["files"] ?? 0, "file"))")
        for w in warnings { line("! " + VisibleText.escaped(w)) }
    }
}
