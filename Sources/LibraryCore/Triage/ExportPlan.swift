import Foundation
import LivePairing

/// How one item leaves the library.
public enum ExportChoice: String, Sendable, Codable, CaseIterable {
    /// Still + movie, content identifiers intact, names kept paired (a Motion Photo: the file as is).
    case livePhoto = "live"
    /// The still alone (a Motion Photo without its embedded movie).
    case stillPhoto = "still"
}

public enum ExportError: Error, CustomStringConvertible, Equatable {
    /// No longer used by the exporter (a Motion Photo as a still is written by `MediaWriting`); kept for callers.
    case notYetSupported(String)
    case nothingToExport(String)
    /// `--strip-location` on a file whose location cannot be removed.
    case cannotStripLocation(String, reason: String)

    public var description: String {
        switch self {
        case .notYetSupported(let what): return "not yet supported: \(what)"
        case .nothingToExport(let item): return "\(item): nothing to export"
        case .cannotStripLocation(let item, let reason): return "\(item): cannot remove the location: \(reason)"
        }
    }
}

/// What to export where: items with a choice each. Live Photos default to `.livePhoto`; items whose movie
/// is off (`liveOffReason`) default to `.stillPhoto`.
public struct ExportPlan: Sendable {
    public struct Entry: Sendable {
        public var item: LibraryItem
        public var choice: ExportChoice
    }

    public var destination: String
    public private(set) var entries: [Entry]
    /// Sharing without location: the new still, movie and sidecar lose their GPS position (the originals
    /// are untouched). See `ExportRunner` and `MediaWriting.withoutLocation`.
    public var stripLocation = false
    /// Ratings and flags kept in the library index (the original's folder cannot be written), by item id:
    /// each is written as an XMP sidecar beside the item's copy (its still's, for a pair), as a sidecar
    /// beside the original would have travelled (issue 31.5).
    public var ratings: [ItemID: TriageState] = [:]

    public init(items: [LibraryItem], destination: String, choiceForAll: ExportChoice? = nil,
                stripLocation: Bool = false) {
        self.destination = destination
        self.stripLocation = stripLocation
        self.entries = items.map { Entry(item: $0, choice: ExportPlan.defaultChoice(for: $0)) }
        if let choiceForAll { setChoiceForAll(choiceForAll) }
    }

    public static func defaultChoice(for item: LibraryItem) -> ExportChoice {
        item.kind.isLive && item.liveOffReason == nil ? .livePhoto : .stillPhoto
    }

    /// The same choice for every item; a live-off item keeps `.stillPhoto` (its movie cannot go along).
    public mutating func setChoiceForAll(_ choice: ExportChoice) {
        for i in entries.indices {
            entries[i].choice = entries[i].item.liveOffReason == nil ? choice : .stillPhoto
        }
    }

    public mutating func setChoice(_ choice: ExportChoice, forItem id: ItemID) {
        for i in entries.indices where entries[i].item.id == id { entries[i].choice = choice }
    }

    /// True when the entry's first file is not copied but rewritten: a Motion Photo exported as a still loses
    /// its embedded movie and its Motion Photo XMP flags (`MediaWriting.stillWithoutMotion`).
    public static func writesStillWithoutMotion(_ entry: Entry) -> Bool {
        entry.item.kind == .motion && entry.choice == .stillPhoto
    }

    /// The files an entry writes: their sources (in order: still, movie, sidecars). Throws for what cannot be
    /// exported faithfully yet.
    public static func sources(for entry: Entry) throws -> [String] {
        let item = entry.item
        switch (item.kind, entry.choice) {
        case (.live, .livePhoto), (.motion, .livePhoto), (.still, _), (.video, _):
            return ItemFileOperations.paths(of: item)
        case (.live, .stillPhoto), (.motion, .stillPhoto):
            // A Motion Photo's still is rewritten without its embedded movie (`writesStillWithoutMotion`).
            guard let still = item.still else { throw ExportError.nothingToExport(item.displayName) }
            return [still.path] + SidecarLocator.existingSidecars(for: still.path).prefix(1)
        }
    }
}
