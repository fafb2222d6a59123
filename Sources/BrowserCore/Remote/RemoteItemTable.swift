import LibraryCore
import LivePairing

/// Remote items by id, for `RemoteBrowseState.itemsByID`: the items in one array and their positions in a
/// dictionary. A `[String: RemoteItem]` of a 200,000-entry listing had 524,288 buckets of ~300 bytes each
/// (155 MB, issue 17 item 5); here each item is stored once and a bucket is a name and an index.
/// Reads and writes like the dictionary it replaces (`table[id]`, `table[id] = item`, `[:]`, `values`).
public struct RemoteItemTable: Sendable, ExpressibleByDictionaryLiteral {
    private var items: [RemoteItem] = []
    private var positions: [ItemID: Int] = [:]

    public init() {}

    public init(dictionaryLiteral elements: (ItemID, RemoteItem)...) {
        for (id, item) in elements { self[id] = item }
    }

    /// The items in order, each id once (the first item of an id wins, as the grid shows one cell per id).
    public init(_ all: [RemoteItem]) {
        items.reserveCapacity(all.count)
        positions.reserveCapacity(all.count)
        for item in all where positions[item.id] == nil {
            positions[item.id] = items.count
            items.append(item)
        }
    }

    public subscript(id: ItemID) -> RemoteItem? {
        get { positions[id].map { items[$0] } }
        set {
            if let position = positions[id] {
                if let newValue {
                    items[position] = newValue
                } else {
                    // Removal moves the last item into the gap: order is not part of a dictionary's promise.
                    positions[id] = nil
                    let last = items.removeLast()
                    if position < items.count {
                        items[position] = last
                        positions[last.id] = position
                    }
                }
            } else if let newValue {
                positions[id] = items.count
                items.append(newValue)
            }
        }
    }

    /// Becomes `listed` (each id once, the first winning), keeping an item already here where `keeps(here,
    /// listed)` says so: changed in place, without a second table of every item.
    public mutating func update(with listed: [RemoteItem], keeps: (RemoteItem, RemoteItem) -> Bool) {
        var listedIDs = Set<ItemID>()
        listedIDs.reserveCapacity(listed.count)
        for item in listed where listedIDs.insert(item.id).inserted {
            if let here = self[item.id], keeps(here, item) { continue }
            self[item.id] = item
        }
        guard listedIDs.count < items.count else { return }
        for id in items.map(\.id) where !listedIDs.contains(id) { self[id] = nil }
    }

    public var values: [RemoteItem] { items }
    public var count: Int { items.count }
    public var isEmpty: Bool { items.isEmpty }
}
