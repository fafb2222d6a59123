import Concurrent

/// An LRU of decoded pictures bounded by bytes (not by count: one 1024² thumbnail weighs as much as 64
/// 128² ones). Thread-safe.
public final class ThumbnailMemoryCache<Key: Hashable & Sendable>: Sendable {
    public let capacityBytes: Int
    private let lru: Locked<LRU>

    private final class Node {
        let key: Key
        var frame: PixelFrame
        var newer: Node?
        var older: Node?
        init(key: Key, frame: PixelFrame) {
            self.key = key
            self.frame = frame
        }
    }

    /// The entries and their use order; reached only under the lock.
    private struct LRU {
        var entries: [Key: Node] = [:]
        /// Most recently used at `head`, evicted from `tail`.
        var head: Node?
        var tail: Node?
        var totalBytes = 0

        mutating func unlink(_ node: Node) {
            node.newer?.older = node.older
            node.older?.newer = node.newer
            if head === node { head = node.older }
            if tail === node { tail = node.newer }
            node.newer = nil
            node.older = nil
        }

        mutating func pushFront(_ node: Node) {
            node.older = head
            head?.newer = node
            head = node
            if tail == nil { tail = node }
        }
    }

    public init(capacityBytes: Int) {
        self.capacityBytes = max(0, capacityBytes)
        lru = Locked(LRU())
    }

    public var totalBytes: Int { lru.withLockedValue { $0.totalBytes } }
    public var count: Int { lru.withLockedValue { $0.entries.count } }

    /// The picture for `key`, marking it most recently used.
    public func frame(for key: Key) -> PixelFrame? {
        lru.withLockedValue { lru in
            guard let node = lru.entries[key] else { return nil }
            lru.unlink(node)
            lru.pushFront(node)
            return node.frame
        }
    }

    /// Stores a picture, evicting least recently used ones until the total fits. A picture bigger than the
    /// whole capacity is not kept.
    public func insert(_ frame: PixelFrame, for key: Key) {
        let capacityBytes = self.capacityBytes
        lru.withLockedValue { lru in
            if let old = lru.entries.removeValue(forKey: key) {
                lru.unlink(old)
                lru.totalBytes -= old.frame.byteCount
            }
            guard frame.byteCount <= capacityBytes else { return }
            let node = Node(key: key, frame: frame)
            lru.entries[key] = node
            lru.pushFront(node)
            lru.totalBytes += frame.byteCount
            while lru.totalBytes > capacityBytes, let victim = lru.tail {
                lru.unlink(victim)
                lru.entries[victim.key] = nil
                lru.totalBytes -= victim.frame.byteCount
            }
        }
    }

    public func remove(_ key: Key) {
        lru.withLockedValue { lru in
            guard let node = lru.entries.removeValue(forKey: key) else { return }
            lru.unlink(node)
            lru.totalBytes -= node.frame.byteCount
        }
    }

    /// Removes every picture whose key matches (all the sizes and variants of a changed file).
    /// The keys are matched outside the lock (the caller's closure never runs under it); a key another
    /// thread removed in between is simply absent.
    public func removeAll(where matches: (Key) -> Bool) {
        let keys = lru.withLockedValue { Array($0.entries.keys) }
        for key in keys where matches(key) { remove(key) }
    }

    public func removeAll() {
        lru.withLockedValue { $0 = LRU() }
    }
}
