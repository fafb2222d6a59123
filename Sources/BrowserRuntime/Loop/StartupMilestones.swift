import BrowserCore

/// The browser's start-up milestones, each noted once: what `LIVEGRID_TRACE` logs for the benchmarks
/// (first-picture, first-thumbnails, scan-arranged, scan-shown, grid-complete...), what the first scan waits
/// for (its first screen drawn, its first view shown), and the first screen the next launch of the view loads.
public struct StartupMilestones {
    private let trace: EventTrace?
    private let scans: ScanOrchestrator
    private let firstScreen: FirstScreen
    /// The first screen's pictures are drawn (or there were none to wait for): the link decides hints from then on.
    public private(set) var firstPaintDone = false
    private var firstPictureTraced = false
    private var gridCompleteTraced = false
    /// The last render drew items (so its wanted pictures are the first screen's).
    private var renderedItems = false
    /// The whole view from the library index drawn, before the scan confirms it.
    private var indexedViewTraced = false
    private var scanArranged = false
    /// The first finished scan's view (the whole timeline) drawn.
    private var scanShownTraced = false
    private var firstScreenRemembered: Bool
    private var tracedEstimate: ThroughputWindow.Estimate?

    /// `remembersFirstScreen`: a local view with a memory of its first screens.
    public init(trace: EventTrace?, scans: ScanOrchestrator, firstScreen: FirstScreen, remembersFirstScreen: Bool) {
        self.trace = trace
        self.scans = scans
        self.firstScreen = firstScreen
        firstScreenRemembered = !remembersFirstScreen
    }

    /// After each render of `state`.
    public mutating func drew(_ state: BrowserState) {
        renderedItems = !state.items.isEmpty
        if state.showsIndexedView, !indexedViewTraced {
            indexedViewTraced = true
            trace?.log("indexed-view-shown")
        }
        if scanArranged, !scanShownTraced {
            scanShownTraced = true
            scans.firstViewWasShown()
            trace?.log("scan-shown")
        }
    }

    /// After a `.scanFinished` went through the reducer.
    public mutating func scanApplied() {
        guard !scanArranged else { return }
        scanArranged = true
        trace?.log("scan-arranged")
    }

    /// At the end of each turn. `onScreen`: the pictures the last render drew on screen (not the prefetched).
    public mutating func turnEnded(onScreen: [ThumbnailKey], provider: ThumbnailProvider, state: BrowserState) {
        let allDone = !onScreen.isEmpty && onScreen.allSatisfy { provider.picture(for: $0) != nil || provider.hasFailed($0) }
        // The first picture of the screen ready (over a slow link, the first sign of life in the grid).
        if let trace, !firstPictureTraced, onScreen.contains(where: { provider.picture(for: $0) != nil }) {
            firstPictureTraced = true
            trace.log("first-picture")
        }
        if !firstPaintDone, allDone {
            firstPaintDone = true
            scans.firstScreenWasDrawn()
            trace?.log("first-thumbnails")   // the first screen's pictures, scan finished or not
            trace?.log("screen-pictures \(onScreen.count)")
        } else if !firstPaintDone, onScreen.isEmpty, renderedItems {
            firstPaintDone = true                 // items but no pictures to wait for (list view)
            scans.firstScreenWasDrawn()
        }
        // The first screen drawn (scan finished or not) is what the next launch of this view shows first.
        if !firstScreenRemembered, allDone {
            firstScreenRemembered = true
            firstScreen.remember(onScreen.map(\.itemID), state: state)
        }
        if let trace, !gridCompleteTraced, !state.isScanning, allDone {
            gridCompleteTraced = true
            trace.log("grid-complete")
        }
    }

    /// The link's estimate, traced when it changes.
    public mutating func linkEstimated(_ estimate: ThroughputWindow.Estimate?) {
        guard let trace, estimate != tracedEstimate else { return }
        tracedEstimate = estimate
        trace.log("link-estimate \(estimate.map { String(Int($0.bytesPerSecond)) } ?? "none")")
    }
}
