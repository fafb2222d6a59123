import Foundation

/// An LRU of decoded pictures bounded by bytes (not by count: one 1024² thumbnail weighs as much as 64
/// 128² ones). Thread-safe.
public final class ThumbnailMemoryCache<Key: Hashable & Sendable>: @unchecked Sendable {
    public let capacityBytes: Int
    private let lock = NSLock()
    private var entries: [Key: Node] = [:]
    /// Most recently used at `head`, evicted from `tail`.
    private var head: Node?
    private var tail: Node?
    private var _totalBytes = 0

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

    public init(capacityBytes: Int) {
        self.capacityBytes = max(0, capacityBytes)
    }

    public var totalBytes: Int { lock.withLock { _totalBytes } }
    public var count: Int { lock.withLock { entries.count } }

    /// The picture for `key`, marking it most recently used.
    public func frame(for key: Key) -> PixelFrame? {
        lock.withLock {
            guard let node = entries[key] else { return nil }
            unlink(node)
            pushFront(node)
            return node.frame
        }
    }

    /// Stores a picture, evicting least recently used ones until the total fits. A picture bigger than the
    /// whole capacity is not kept.
    public func insert(_ frame: PixelFrame, for key: Key) {
        lock.withLock {
            if let old = entries.removeValue(forKey: key) {
                unlink(old)
                _totalBytes -= old.frame.byteCount
            }
            guard frame.byteCount <= capacityBytes else { return }
            let node = Node(key: key, frame: frame)
            entries[key] = node
            pushFront(node)
            _totalBytes += frame.byteCount
            while _totalBytes > capacityBytes, let victim = tail {
                unlink(victim)
                entries[victim.key] = nil
                _totalBytes -= victim.frame.byteCount
            }
        }
    }

    public func remove(_ key: Key) {
        lock.withLock {
            guard let node = entries.removeValue(forKey: key) else { return }
            unlink(node)
            _totalBytes -= node.frame.byteCount
        }
    }

    public func removeAll() {
        lock.withLock {
            entries.removeAll()
            head = nil
            tail = nil
            _totalBytes = 0
        }
    }

    private func unlink(_ node: Node) {
        node.newer?.older = node.older
        node.older?.newer = node.newer
        if head === node { head = node.older }
        if tail === node { tail = node.newer }
        node.newer = nil
        node.older = nil
    }

    private func pushFront(_ node: Node) {
        node.older = head
        head?.newer = node
        head = node
        if tail == nil { tail = node }
    }
}
