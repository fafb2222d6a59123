import Foundation
import LibraryCore
import LivePairing

/// The words and bars the browser shows for downloads: one cell line per item, the compact status-bar
/// summary and the rows of the transfer panel. Pure text, so it is tested without a terminal.
public enum TransferText {
    /// "1.5 MB", "320 KB", "900 B" (decimal units, as download tools show).
    public static func bytes(_ count: UInt64) -> String {
        let value = Double(count)
        if value >= 1e9 { return String(format: "%.1f GB", value / 1e9) }
        if value >= 1e6 { return String(format: "%.1f MB", value / 1e6) }
        if value >= 1e3 { return String(format: "%.0f KB", value / 1e3) }
        return "\(count) B"
    }

    public static func rate(_ bytesPerSecond: Double) -> String {
        bytes(UInt64(max(0, bytesPerSecond.isFinite ? bytesPerSecond : 0))) + "/s"
    }

    /// "7 s", "3 min", "2 h".
    public static func duration(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "?" }
        if seconds < 90 { return "\(Int(seconds.rounded(.up))) s" }
        if seconds < 5400 { return "\(Int((seconds / 60).rounded())) min" }
        return "\(Int((seconds / 3600).rounded())) h"
    }

    public static func percent(_ fraction: Double) -> String {
        "\(Int((min(1, max(0, fraction)) * 100).rounded(.down)))%"
    }

    /// A bar of `width` cells: `█` done, `░` to come.
    public static func bar(_ fraction: Double, width: Int) -> String {
        guard width > 0 else { return "" }
        let done = Int((min(1, max(0, fraction)) * Double(width)).rounded(.down))
        return String(repeating: "█", count: done) + String(repeating: "░", count: width - done)
    }

    /// How one item's download looks in its cell.
    public enum CellState: Equatable, Sendable {
        case none
        case queued
        case downloading(fraction: Double?)
        /// Every file on disk; `playable` for Live/Motion Photos and videos.
        case downloaded(playable: Bool)
        case failed
    }

    public static func cellState(of item: RemoteItem) -> CellState {
        if item.failure != nil { return .failed }
        let states = [item.stillURL.map { _ in item.stillState }, item.movieURL.map { _ in item.movieState }]
            .compactMap { $0 }
        if !states.isEmpty, states.allSatisfy(\.isDownloaded) { return .downloaded(playable: item.isPlayable) }
        if states.contains(where: { if case .downloading = $0 { return true } else { return false } })
            || (states.contains(where: \.isDownloaded) && states.contains(where: \.isActive)) {
            return .downloading(fraction: item.fraction)
        }
        if states.contains(where: \.isActive) { return .queued }
        return .none
    }

    /// The one-line overlay of a cell, at most `width` columns: "▕███░░▏ 42%", "queued", "✓ playable", "✗ failed".
    public static func cellLine(_ state: CellState, width: Int) -> String {
        switch state {
        case .none: return ""
        case .queued: return "… queued"
        case .downloading(let fraction?):
            let label = " " + percent(fraction)
            let barWidth = min(20, width - label.count)
            return barWidth >= 3 ? bar(fraction, width: barWidth) + label : "⇣" + label
        case .downloading(nil): return "⇣ downloading"
        case .downloaded(let playable): return playable ? "✓ playable" : "✓ done"
        case .failed: return "✗ failed"
        }
    }

    /// The compact status-bar summary: "⇣ 2 downloading · 1 queued · 480 KB/s · 7 s left", or
    /// "⇣ downloads done" while it lingers; nil when there is nothing to say.
    public static func summary(_ activity: DownloadActivity, now: Date = Date(),
                               linger: TimeInterval = BrowserState.activityLinger) -> String? {
        guard activity.isVisible(at: now, linger: linger) else { return nil }
        if activity.isIdle { return "⇣ downloads done" }
        var parts = ["⇣ \(activity.inFlight) downloading"]
        if activity.queued > 0 { parts.append("\(activity.queued) queued") }
        if activity.bytesPerSecond > 0 { parts.append(rate(activity.bytesPerSecond)) }
        if let eta = activity.eta { parts.append(duration(eta) + " left") }
        return parts.joined(separator: " · ")
    }

    /// One transfer of the panel (a file of an item).
    public struct Transfer: Equatable, Sendable {
        public var name: String
        public var state: DownloadState
    }

    /// Every requested file, running first, then queued, failed and done; names as listed.
    public static func transfers(_ items: [RemoteItem]) -> [Transfer] {
        var list: [Transfer] = []
        for item in items {
            if let still = item.item.still, item.stillURL != nil, item.stillState != .notRequested {
                list.append(Transfer(name: still.fileName, state: item.stillState))
            }
            if let movie = item.item.movie, item.movieURL != nil, item.movieState != .notRequested {
                list.append(Transfer(name: movie.fileName, state: item.movieState))
            }
        }
        func rank(_ state: DownloadState) -> Int {
            switch state {
            case .downloading: return 0
            case .queued: return 1
            case .failed: return 2
            case .downloaded: return 3
            case .notRequested: return 4
            }
        }
        return list.sorted { (rank($0.state), $0.name) < (rank($1.state), $1.name) }
    }

    /// A panel row's right part (after the name): "███░░░ 42%  310 KB/s", "queued", "done", "failed: reason".
    public static func transferDetail(_ state: DownloadState, barWidth: Int) -> String {
        switch state {
        case .notRequested: return ""
        case .queued: return "queued"
        case .downloading(let bytes, let total?, let rate) where total > 0:
            let fraction = Double(bytes) / Double(total)
            return bar(fraction, width: barWidth) + " " + percent(fraction).padding(toLength: 4, withPad: " ", startingAt: 0)
                + " " + Self.rate(rate)
        case .downloading(let bytes, _, let rate):
            return "\(Self.bytes(bytes)) " + Self.rate(rate)
        case .downloaded: return "done"
        case .failed(let error, _): return "failed: " + error.description
        }
    }
}
