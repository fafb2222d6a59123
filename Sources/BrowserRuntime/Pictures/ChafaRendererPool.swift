import Concurrent
import Dispatch
import Foundation
import TerminalProtocol
// ChafaRenderer (a chafa canvas, C state) is not Sendable: TerminalGraphics is still Swift 5 mode and its renderers
// are used from one thread at a time (the presenter here, one worker per renderer in the pool).
@preconcurrency import TerminalGraphics

/// One chafa renderer per picture worker: a renderer's symbol map and canvas config are shared by its
/// canvases, so one renderer draws one picture at a time; a pool lets the workers render in parallel instead
/// of queueing behind a single lock.
public final class ChafaRendererPool: Sendable {
    /// The settings all renderers share.
    public let mode: GraphicsMode
    public let cellPixelSize: PixelSizeInCells?
    public let maxSixelSize: PixelSizeInCells?
    /// How many pictures can render at once.
    public let count: Int
    private let idle: Locked<[ChafaRenderer]>
    private let available: DispatchSemaphore

    public init(count: Int, make: () -> sending ChafaRenderer) {
        let count = max(1, count)
        let first = make()
        mode = first.mode
        cellPixelSize = first.cellPixelSize
        maxSixelSize = first.maxSixelSize
        idle = Locked([first])
        for _ in 1..<count {
            let next = make()
            idle.withLockedValue { $0.append(next) }
        }
        self.count = count
        available = DispatchSemaphore(value: count)
    }

    public func withRenderer<T>(_ body: (ChafaRenderer) throws -> T) rethrows -> T {
        available.wait()
        let renderer = idle.withLockedValue { $0.removeLast() }
        defer {
            idle.withLockedValue { $0.append(renderer) }
            available.signal()
        }
        return try body(renderer)
    }
}
