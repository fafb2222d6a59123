import Dispatch
import Foundation
import TerminalGraphics

/// One chafa renderer per picture worker: a renderer's symbol map and canvas config are shared by its
/// canvases, so one renderer draws one picture at a time; a pool lets the workers render in parallel instead
/// of queueing behind a single lock.
final class ChafaRendererPool: @unchecked Sendable {
    /// The first renderer: for the settings all of them share (mode, cell pixel size).
    let prototype: ChafaRenderer
    /// How many pictures can render at once.
    let count: Int
    private var idle: [ChafaRenderer]
    private let lock = NSLock()
    private let available: DispatchSemaphore

    init(count: Int, make: () -> ChafaRenderer) {
        let renderers = (0..<max(1, count)).map { _ in make() }
        prototype = renderers[0]
        self.count = renderers.count
        idle = renderers
        available = DispatchSemaphore(value: renderers.count)
    }

    func withRenderer<T>(_ body: (ChafaRenderer) throws -> T) rethrows -> T {
        available.wait()
        let renderer = lock.withLock { idle.removeLast() }
        defer {
            lock.withLock { idle.append(renderer) }
            available.signal()
        }
        return try body(renderer)
    }
}
