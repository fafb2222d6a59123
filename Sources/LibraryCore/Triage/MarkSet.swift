import LivePairing

/// The items the user marked for a batch action (trash, move, copy, export), by `LibraryItem.id`.
/// A value: the UI keeps one in its state and replaces it on every key press.
public struct MarkSet: Sendable, Hashable, Codable {
    public private(set) var ids: Set<ItemID>

    public init(_ ids: some Sequence<ItemID> = []) { self.ids = Set(ids) }

    public var count: Int { ids.count }
    public var isEmpty: Bool { ids.isEmpty }
    public func contains(_ id: ItemID) -> Bool { ids.contains(id) }

    public mutating func mark(_ id: ItemID) { ids.insert(id) }
    public mutating func unmark(_ id: ItemID) { ids.remove(id) }
    public mutating func toggle(_ id: ItemID) {
        if ids.remove(id) == nil { ids.insert(id) }
    }
    /// Marks every id in `all` (the items currently shown).
    public mutating func markAll(_ all: some Sequence<ItemID>) { ids.formUnion(all) }
    public mutating func clear() { ids.removeAll() }
    /// Marks exactly the ids of `all` that were not marked; marks outside `all` (filtered out) are dropped.
    public mutating func invert(within all: some Sequence<ItemID>) {
        ids = Set(all).subtracting(ids)
    }
    /// Forgets ids that no longer exist (after a rescan, a trash or a move).
    public mutating func keepOnly(_ existing: some Sequence<ItemID>) { ids.formIntersection(existing) }

    /// The marked items in display order.
    public func selected<Item: Identifiable>(from items: [Item]) -> [Item] where Item.ID == ItemID {
        items.filter { ids.contains($0.id) }
    }
}
