import LibraryCore
import LivePairing

/// The export dialog: the items to export, each with its choice (Live Photo or still), and a cursor.
/// Live-off items stay stills: their movie cannot go along.
public struct ExportDialog: Sendable {
    public private(set) var plan: ExportPlan
    public private(set) var cursor = 0
    /// Remove the location (GPS) from the new files (`g` toggles; the default comes from the config).
    public var stripLocation: Bool
    /// Effects chosen with `e` (loop, bounce, GIF, long exposure), by item id, and the preview shown.
    public internal(set) var effects: [ItemID: SharingEffect] = [:]
    public internal(set) var preview: EffectPreview?

    public init(items: [LibraryItem], stripLocation: Bool = false) {
        plan = ExportPlan(items: items, destination: "")
        self.stripLocation = stripLocation
    }

    public var entries: [ExportPlan.Entry] { plan.entries }
    public var currentItem: LibraryItem? {
        plan.entries.indices.contains(cursor) ? plan.entries[cursor].item : nil
    }

    public mutating func moveCursor(by delta: Int) {
        cursor = min(max(0, cursor + delta), max(0, plan.entries.count - 1))
    }

    /// Sets the choice of the item under the cursor (or every item); a choice an item cannot take is ignored.
    public mutating func setChoice(_ choice: ExportChoice, forAll: Bool) {
        // Live or still replaces an effect chosen before.
        if forAll { effects = [:] } else if let item = currentItem { effects[item.id] = nil }
        if forAll {
            plan.setChoiceForAll(choice)
        } else if let item = currentItem, Self.canChoose(choice, for: item) {
            plan.setChoice(choice, forItem: item.id)
        }
    }

    public mutating func toggleCurrent() {
        guard plan.entries.indices.contains(cursor) else { return }
        setChoice(plan.entries[cursor].choice == .livePhoto ? .stillPhoto : .livePhoto, forAll: false)
    }

    /// Only Live and Motion Photos with their motion on can leave as live; everything can leave as a still.
    public static func canChoose(_ choice: ExportChoice, for item: LibraryItem) -> Bool {
        choice == .stillPhoto || (item.kind.isLive && item.liveOffReason == nil)
    }

    /// How the dialog names a choice for an item.
    public static func choiceName(_ choice: ExportChoice, for item: LibraryItem) -> String {
        guard item.kind.isLive else { return ItemDescription.kindName(item.kind) + " (as is)" }
        return choice == .livePhoto ? "Live Photo" : "Still photo"
    }
}
