import Foundation

/// What the UI shows for one remote file.
// indirect: the payloads live in a box, so a state is one word instead of 32 bytes; a remote item holds two
// states and a 200,000-entry listing holds every item two or three times (issue 17 item 5).
public indirect enum DownloadState: Sendable, Equatable {
    case notRequested
    case queued
    case downloading(bytes: UInt64, total: UInt64?, bytesPerSecond: Double)
    case downloaded(path: String)
    /// `retryable` is false for failures a retry cannot fix (404, size cap). The error is rendered where it is
    /// shown (the status bar, the transfer panel, an export's refusal).
    case failed(RemoteError, retryable: Bool)

    /// 0...1 while downloading with a known size, 1 when downloaded.
    public var fraction: Double? {
        switch self {
        case .downloading(let bytes, let total?, _) where total > 0: return min(1, Double(bytes) / Double(total))
        case .downloaded: return 1
        default: return nil
        }
    }
    public var isDownloaded: Bool { if case .downloaded = self { return true } else { return false } }
    public var localPath: String? { if case .downloaded(let p) = self { return p } else { return nil } }
    public var isActive: Bool {
        switch self {
        case .queued, .downloading: return true
        default: return false
        }
    }
}

/// The aggregate line the UI shows while downloads run ("3 downloading, 2.1 MB/s, 12 s left").
public struct DownloadActivity: Sendable, Equatable {
    public var inFlight: Int
    public var queued: Int
    public var bytesPerSecond: Double
    /// Bytes still to come for running downloads of known size.
    public var remainingBytes: UInt64
    /// Seconds left at the current rate, when it can be estimated.
    public var eta: TimeInterval?
    /// When the last download finished and nothing else was pending; nil while busy. The UI hides the summary
    /// a short while after this time.
    public var finishedAt: Date?

    public var isIdle: Bool { inFlight == 0 && queued == 0 }
    public static let idle = DownloadActivity(inFlight: 0, queued: 0, bytesPerSecond: 0, remainingBytes: 0, eta: nil,
                                              finishedAt: nil)

    /// Whether the UI should still show the summary at `now` (hides `linger` seconds after finishing).
    public func isVisible(at now: Date = Date(), linger: TimeInterval = 3) -> Bool {
        if !isIdle { return true }
        guard let finishedAt else { return false }
        return now.timeIntervalSince(finishedAt) < linger
    }
}

/// The small JSON stored beside a cached file: enough to validate and resume it.
public struct DownloadMetadata: Codable, Sendable, Equatable {
    public var url: String
    public var size: UInt64?
    public var etag: String?
    public var lastModified: String?
    public var complete: Bool
    public init(url: String, size: UInt64?, etag: String?, lastModified: String?, complete: Bool) {
        self.url = url
        self.size = size
        self.etag = etag
        self.lastModified = lastModified
        self.complete = complete
    }
}
