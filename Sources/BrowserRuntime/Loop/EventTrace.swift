import Concurrent
import Foundation
import VideoPlayback

/// `LIVEGRID_TRACE=file`: appends "<monotonic seconds> <event>" lines (start-up, scan finished, first complete
/// grid, key events, playback start, first frame drawn), so first paint and press-to-first-frame latency can be
/// measured from outside. Off (nil) without the variable.
public final class EventTrace: Sendable {
    /// One file descriptor; the lock keeps lines from several threads whole (a short append: the one write
    /// livegrid does under a lock, and only with LIVEGRID_TRACE set).
    private let handle: Locked<FileHandle>

    public init?(environment: [String: String] = RuntimeEnvironment.launch.variables) {
        guard let path = environment["LIVEGRID_TRACE"], !path.isEmpty else { return nil }
        // O_APPEND: several tracers (start-up, playback) write to one file without overwriting each other.
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        self.handle = Locked(FileHandle(fileDescriptor: fd, closeOnDealloc: true))
    }

    public func log(_ event: String) {
        let line = String(format: "%.6f ", MonotonicClock.now()) + event + "\n"
        handle.withLockedValue { $0.write(Data(line.utf8)) }
    }
}
