/// One copy of values many holders repeat (folder prefixes, camera names): `share` returns an equal value
/// already in the table, so the copies become retains of one. Sharing never changes a value, only where it
/// lives, so a full table is simply emptied: all-different values cost at most `limit` extra references, never
/// unbounded memory.
public final class SharingTable<Value: Hashable & Sendable>: Sendable {
    public let limit: Int
    private let table = Locked<Set<Value>>([])

    public init(limit: Int) { self.limit = limit }

    /// `value`, or an equal value already shared.
    public func share(_ value: Value) -> Value {
        table.withLockedValue { table in
            if let index = table.firstIndex(of: value) { return table[index] }
            if table.count >= limit { table.removeAll(keepingCapacity: true) }
            table.insert(value)
            return value
        }
    }
}
