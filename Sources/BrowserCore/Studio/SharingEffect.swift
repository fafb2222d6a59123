import LibraryCore
import LivePairing

/// The Live Photo effects the export dialog offers besides "Live Photo" and "still photo" (issue 20):
/// the same four as `livegrid export --as`.
public enum SharingEffect: String, Sendable, CaseIterable {
    case loop, bounce, gif
    case longExposure = "long-exposure"

    public var name: String {
        switch self {
        case .loop: return "Loop"
        case .bounce: return "Bounce"
        case .gif: return "GIF"
        case .longExposure: return "Long exposure"
        }
    }

    /// `e` in the dialog: none → loop → bounce → GIF → long exposure → none.
    static func next(after effect: SharingEffect?) -> SharingEffect? {
        guard let effect, let index = allCases.firstIndex(of: effect) else { return allCases.first }
        return allCases.indices.contains(index + 1) ? allCases[index + 1] : nil
    }
}

/// The preview of an effect in the dialog: rendered in the background, then played (loop, bounce, GIF) or
/// shown (long exposure) beside the list before anything is written.
public struct EffectPreview: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        case rendering
        case showing
        case failed(StudioFailure)
    }
    public var itemID: ItemID
    public var effect: SharingEffect
    public var phase: Phase

    public init(itemID: ItemID, effect: SharingEffect, phase: Phase) {
        self.itemID = itemID
        self.effect = effect
        self.phase = phase
    }
}

extension ExportDialog {
    /// The effect chosen for `item`, if any (it then leaves as that effect instead of as a Live Photo).
    public func effect(for item: LibraryItem) -> SharingEffect? { effects[item.id] }

    /// How the dialog names what an entry leaves as.
    public func choiceName(for entry: ExportPlan.Entry) -> String {
        if let effect = effects[entry.item.id] { return effect.name + " (effect)" }
        return Self.choiceName(entry.choice, for: entry.item)
    }

    /// The effects of every entry that has one, in the dialog's order.
    public var chosenEffects: [(item: LibraryItem, effect: SharingEffect)] {
        entries.compactMap { entry in effects[entry.item.id].map { (entry.item, $0) } }
    }
}
