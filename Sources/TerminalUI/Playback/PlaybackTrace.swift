import Foundation
import VideoPlayback

/// `LIVEGRID_TRACE=file`: appends "<monotonic seconds> <event>" lines (key events, playback start, first frame
/// drawn), so press-to-first-frame latency can be measured from outside. Off (nil) without the variable.
final class PlaybackTrace: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()

    init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = environment["LIVEGRID_TRACE"], !path.isEmpty else { return nil }
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else { return nil }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { return nil }
        handle.seekToEndOfFile()
        self.handle = handle
    }

    func log(_ event: String) {
        let line = String(format: "%.6f ", MonotonicClock.now()) + event + "\n"
        lock.withLock { handle.write(Data(line.utf8)) }
    }
}
