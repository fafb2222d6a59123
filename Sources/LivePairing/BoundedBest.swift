/// The best `capacity` elements of a stream by `before`, without sorting the stream: a bounded max-heap whose
/// root is the worst element kept, so each new element costs one comparison with it (and a sift when kept).
/// Used to pick a folder's first screen of names before the folder is sorted.
public struct BoundedBest<Element> {
    public let capacity: Int
    @usableFromInline let before: (Element, Element) -> Bool
    @usableFromInline var heap: [Element] = []

    public init(capacity: Int, before: @escaping (Element, Element) -> Bool) {
        self.capacity = max(0, capacity)
        self.before = before
        heap.reserveCapacity(self.capacity)
    }

    /// Keeps a candidate while there is room, or when `beatsWorst(worst kept)` says it ranks before the worst;
    /// `make` builds the element only when it is kept (callers compare from a reused buffer).
    @inlinable
    public mutating func offer(beatsWorst: (Element) -> Bool, make: () -> Element) {
        guard capacity > 0 else { return }
        if heap.count < capacity {
            heap.append(make())
            var i = heap.count - 1
            while i > 0, before(heap[(i - 1) / 2], heap[i]) { heap.swapAt(i, (i - 1) / 2); i = (i - 1) / 2 }
        } else if beatsWorst(heap[0]) {
            heap[0] = make()
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var largest = i
                if l < heap.count, before(heap[largest], heap[l]) { largest = l }
                if r < heap.count, before(heap[largest], heap[r]) { largest = r }
                if largest == i { return }
                heap.swapAt(i, largest)
                i = largest
            }
        }
    }

    /// The kept elements, best first.
    public func sorted() -> [Element] { heap.sorted(by: before) }
}
