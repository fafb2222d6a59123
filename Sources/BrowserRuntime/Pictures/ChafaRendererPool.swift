import Dispatch
import Foundation
// ChafaRenderer (a chafa canvas, C state) is not Sendable: TerminalGraphics is still Swift 5 mode and its renderers
// are used from one thread at a time (the presenter here, one worker per renderer in the pool).
@preconcurrency import TerminalGraphics

/// One chafa renderer per picture worker: a renderer's symbol map and canvas config are shared by its
/// canvases, so one renderer draws one picture at a time; a pool lets the workers render in parallel instead
/// of queueing behind a single lock.
public final class ChafaRendererPool: @unchecked Sendable {  // C boundary: chafa canvases, each lent to one thread at a time
    /// The first renderer: for the settings all of them share (mode, cell pixel size).
    public let prototype: ChafaRenderer
    /// How many pictures can render at once.
    public let count: Int
    private var idle: [ChafaRenderer]
    private let lock = NSLock()
    private let available: DispatchSemaphore

    public init(count: Int, make: () -> ChafaRenderer) {
        let renderers = (0..<max(1, count)).map { _ in make() }
        prototype = renderers[0]
        self.count = renderers.count
        idle = renderers
        available = DispatchSemaphore(value: renderers.count)
    }

    public func withRenderer<T>(_ body: (ChafaRenderer) throws -> T) rethrows -> T {
        available.wait()
        let renderer = lock.withLock { idle.removeLast() }
        defer {
            lock.withLock { idle.append(renderer) }
            available.signal()
        }
        return try body(renderer)
    }
}
