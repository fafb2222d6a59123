import BrowserCore
import Concurrent
import Foundation
import Library
import LibraryCore
import LivePairing

/// A remote directory's listing, as the scans start it (`RemoteSession`).
public protocol RemoteListing: AnyObject {
    /// Lists the current directory (again); its events come through the inbox.
    func load()
}

extension RemoteSession: RemoteListing {}

/// Owns the browser's scans: a thread per local scan (progressive when it can: the first screen's items are
/// posted before the rest of the folder is probed), or the remote session's listing. Results come back through
/// the inbox (which wakes the loop); the loop tells it when the first screen and the first view are drawn, and
/// asks it which items a finished scan found changed on disk (rotated in place, replaced).
public final class ScanOrchestrator: ScanService {
    public typealias Scan = @Sendable (String, Bool) throws -> LibraryScan
    /// `LibraryScanner.scanProgressively` as the browser calls it: folder, `-r`, the first screen's report,
    /// and what runs after the whole listing, before the rest of the files are looked at.
    public typealias ProgressiveScan = @Sendable (String, Bool, @escaping @Sendable (LibraryScanProgress) -> Void,
                                                  @escaping @Sendable () -> Void) throws -> LibraryScan

    private let scan: Scan
    private let progressiveScan: ProgressiveScan?
    private let remote: (any RemoteListing)?
    private let inbox: EventInbox
    private let trace: EventTrace?
    /// How long the first scan waits for its first screen, then its first view (below), at most.
    private let firstDrawTimeout: DispatchTimeInterval
    /// Signalled once the first screen's pictures are drawn: the first progressive scan waits for it (a second
    /// at most) before probing the rest, so on 2 cores the visible thumbnails do not share them with 6 probes.
    private let firstScreenDrawn = DispatchSemaphore(value: 0)
    /// Signalled once the first finished scan's view (the whole timeline) is drawn: the first scan's thread
    /// notes its items' times after it, not on the cores that arrange and draw that view.
    private let firstViewShown = DispatchSemaphore(value: 0)
    private var firstScreenSignalled = false
    private var firstViewSignalled = false
    private var localScanLaunched = false
    private let times = Locked(ScannedTimes())
    /// What the last local scan found changed, set by its thread before it posts the result.
    private let changedByLocalScan = Locked<Set<ItemID>?>(nil)

    /// `remote`: set when browsing a remote directory (its listing is the scan). `firstDrawTimeout`: how long
    /// the first scan waits for the loop's first draws (the tests lengthen it).
    public init(scan: @escaping Scan, progressiveScan: ProgressiveScan?, remote: (any RemoteListing)?, inbox: EventInbox,
                trace: EventTrace?, firstDrawTimeout: DispatchTimeInterval = .seconds(1)) {
        self.scan = scan
        self.progressiveScan = progressiveScan
        self.remote = remote
        self.inbox = inbox
        self.trace = trace
        self.firstDrawTimeout = firstDrawTimeout
    }

    /// Whether a local scan reports its first screen itself (then a second listing to prewarm it is not needed).
    public var isProgressive: Bool { progressiveScan != nil }

    public func startScan(folder: String, recursive: Bool) {
        if let remote { remote.load() } else { launchLocalScan(path: folder, recursive: recursive) }
    }

    /// From the loop: the first screen's pictures are drawn (or there are none to wait for). Once.
    public func firstScreenWasDrawn() {
        guard !firstScreenSignalled else { return }
        firstScreenSignalled = true
        firstScreenDrawn.signal()
    }

    /// From the loop: the first finished scan's view is drawn. Once.
    public func firstViewWasShown() {
        guard !firstViewSignalled else { return }
        firstViewSignalled = true
        firstViewShown.signal()
    }

    /// For a `.scanFinished` the loop is about to apply: the items whose primary file changed since the
    /// previous scan (their pictures are dropped from memory).
    public func takeChangedItems(in scan: LibraryScan) -> Set<ItemID> {
        let local = changedByLocalScan.withLockedValue { changed in
            defer { changed = nil }
            return changed
        }
        return local ?? times.withLockedValue { $0.note(scan).changed }
    }

    private func launchLocalScan(path: String, recursive: Bool) {
        let inbox = self.inbox, trace = self.trace, timeout = firstDrawTimeout
        let scan = self.scan, progressiveScan = self.progressiveScan
        let firstScreenDrawn = self.firstScreenDrawn, firstViewShown = self.firstViewShown
        // Only the first scan waits (the semaphores fire once; rescans keep their grid anyway).
        let waitsForFirstDraw = !localScanLaunched
        localScanLaunched = true
        let times = self.times, changedByLocalScan = self.changedByLocalScan
        NamedThread.start("livegrid-scan") {
            do {
                var result: LibraryScan
                if let progressiveScan {
                    // Posted through the inbox like every background result: the loop's wake-up carries it.
                    result = try progressiveScan(path, recursive, { progress in
                        trace?.log("scan-first-screen")
                        var progress = progress
                        progress.scan.recursive = recursive   // the view matches it to the folder it shows
                        inbox.post(.scanProgress(progress))
                    }, {
                        // After the whole listing: a recursive scan lists the tree while the screen is drawn.
                        if waitsForFirstDraw { _ = firstScreenDrawn.wait(timeout: .now() + timeout) }
                    })
                } else {
                    result = try scan(path, recursive)
                }
                result.recursive = recursive
                trace?.log("scan-finished")
                let noted = times.withLockedValue { $0.note(result) }
                changedByLocalScan.set(noted.changed)
                inbox.post(.scanFinished(result))
                guard noted.deferred else { return }
                // Nothing can have changed before the first scan: its times are noted after its view is drawn
                // (a second at most), outside the lock; a rescan that finishes sooner notes them itself.
                if waitsForFirstDraw { _ = firstViewShown.wait(timeout: .now() + timeout) }
                times.withLockedValue { $0.settle() }
            } catch {
                inbox.post(.scanFailed(ScanFailure(error)))
            }
        }
    }
}

/// Each item's primary file mtime at the last scan, keyed by a hash of the primary file's folder and name, not
/// by the id: an id is a string made on demand, 100,000 of them were ~19 MB kept for the whole session. Two
/// files with one hash (64 bits: about one chance in 10^9 at 100,000 items) cost at worst a thumbnail made
/// again, or one not refreshed until the next change.
struct ScannedTimes {
    private var known: [Int: Double] = [:]
    /// The first scan, whose times are not noted yet (its thread notes them once its view is drawn).
    private var pending: LibraryScan?

    /// Notes `scan`; returns the items changed since the previous scan, and whether the times of this (first)
    /// scan are left for `settle` (nothing can have changed before a first scan).
    mutating func note(_ scan: LibraryScan) -> (changed: Set<ItemID>, deferred: Bool) {
        settle()
        if known.isEmpty {
            pending = scan
            return ([], true)
        }
        return (Self.changedItems(in: scan, times: &known), false)
    }

    /// Notes the pending first scan's times, unless a later scan noted them already.
    mutating func settle() {
        guard let first = pending else { return }
        pending = nil
        _ = Self.changedItems(in: first, times: &known)
    }

    /// Items of `scan` whose primary file changed since the times noted; notes this scan's.
    static func changedItems(in scan: LibraryScan, times: inout [Int: Double]) -> Set<ItemID> {
        var changed: Set<ItemID> = []
        times.reserveCapacity(scan.items.count)
        for item in scan.items {
            let primary = item.primary
            var hasher = Hasher()
            hasher.combine(primary.folderPrefix)
            hasher.combine(primary.name)
            let key = hasher.finalize()
            if let known = times[key], known != primary.modificationTime { changed.insert(item.id) }
            times[key] = primary.modificationTime
        }
        return changed
    }
}
