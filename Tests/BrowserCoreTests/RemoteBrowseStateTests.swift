import Foundation
import LibraryCore
import XCTest
@testable import BrowserCore
import LibraryCore
import LivePairing
import MediaFormats

/// The remote part of the state machine, fed with library events made in memory.
final class RemoteBrowseStateTests: XCTestCase {
    private let base = URL(string: "http://127.0.0.1:8080/photos/")!

    private func remoteItem(_ name: String, movie: String? = nil, still: DownloadState = .notRequested,
                            movieState: DownloadState = .notRequested, placeholder: Bool = false) -> RemoteItem {
        let stillFile = MediaFile(path: name, size: 1000, modificationTime: 0, info: MediaInfo(format: .jpeg))
        let movieFile = movie.map { MediaFile(path: $0, size: 3000, modificationTime: 0, info: MediaInfo(format: .quickTime)) }
        return RemoteItem(item: LibraryItem(kind: movie == nil ? .still : .live, still: stillFile, movie: movieFile),
                          isPlaceholder: placeholder, stillURL: base.appendingPathComponent(name),
                          movieURL: movie.map { base.appendingPathComponent($0) }, stillState: still, movieState: movieState)
    }

    private func state() -> BrowserState {
        var state = BrowserState(rootPath: "", terminal: TerminalSize(columns: 120, rows: 40))
        state.beginRemote(libraryURL: URL(string: "http://user:secret@127.0.0.1:8080/photos/")!)
        state.remote?.url = base
        state.reduce(.scanStarted)
        return state
    }

    private let sub = RemoteEntry(name: "sub", url: URL(string: "http://127.0.0.1:8080/photos/sub/")!, isDirectory: true)

    func testListingShowsFoldersThenPlaceholdersAndPairingReplacesThem() {
        var state = state()
        XCTAssertEqual(state.rootPath, "http://127.0.0.1:8080/photos/", "the password is never shown")
        let placeholder = remoteItem("IMG_1.JPG", movie: "IMG_1.MOV", placeholder: true)
        state.reduce(.remote(.event(directory: base, .listed(items: [placeholder], subdirectories: [sub], rejected: []))))
        XCTAssertEqual(state.items.map(\.id), ["sub/", "IMG_1.JPG"])
        XCTAssertTrue(state.isScanning, "still pairing")
        XCTAssertEqual(state.remote?.isPairing, true)
        state.reduce(.select(index: 1))
        state.reduce(.remote(.event(directory: base, .paired([remoteItem("IMG_1.JPG", movie: "IMG_1.MOV")]))))
        XCTAssertFalse(state.isScanning)
        XCTAssertEqual(state.selectedItem?.id, "IMG_1.JPG", "the selection survives pairing")
        XCTAssertEqual(state.remoteItem(id: "IMG_1.JPG")?.isPlaceholder, false)
    }

    /// A paged listing (S3) is shown page by page; a later listing's copy of an item already shown does not
    /// undo what an event brought meanwhile, and an item whose movie came on a later page becomes the pair.
    func testListingSoFarIsShownAndLaterPagesKeepShownStateAndUpgradePairs() {
        var state = state()
        state.reduce(.remote(.event(directory: base, .listedSoFar(items: [remoteItem("A.JPG"), remoteItem("IMG_1.JPG")],
                                                                  subdirectories: [sub]))))
        XCTAssertEqual(state.items.map(\.id), ["sub/", "A.JPG", "IMG_1.JPG"], "the first page is shown at once")
        XCTAssertTrue(state.isScanning, "the listing goes on")
        state.reduce(.select(index: 1))
        state.reduce(.remote(.event(directory: base, .itemChanged(remoteItem("A.JPG", still: .downloaded(path: "/c/a.jpg"))))))
        // The next page's copy of A.JPG was taken before its download ended; IMG_1.MOV came on that page.
        state.reduce(.remote(.event(directory: base, .listedSoFar(items: [remoteItem("A.JPG"), remoteItem("IMG_1.JPG", movie: "IMG_1.MOV"),
                                                                          remoteItem("Z.JPG")], subdirectories: [sub]))))
        XCTAssertEqual(state.items.map(\.id), ["sub/", "A.JPG", "IMG_1.JPG", "Z.JPG"])
        XCTAssertEqual(state.remoteItem(id: "A.JPG")?.stillState, .downloaded(path: "/c/a.jpg"), "the event's state stays")
        XCTAssertEqual(state.remoteItem(id: "IMG_1.JPG")?.item.kind, .live, "the still became a pair when its movie came")
        XCTAssertEqual(state.items.first { $0.id == "IMG_1.JPG" }?.kind, .live)
        XCTAssertEqual(state.selectedItem?.id, "A.JPG", "the selection stays on its item")
        state.reduce(.remote(.event(directory: base, .listed(items: [remoteItem("A.JPG"), remoteItem("IMG_1.JPG", movie: "IMG_1.MOV")],
                                                             subdirectories: [sub], rejected: []))))
        XCTAssertEqual(state.items.map(\.id), ["sub/", "A.JPG", "IMG_1.JPG"], "the whole listing replaces the pages")
        XCTAssertNil(state.remoteItem(id: "Z.JPG"))
        XCTAssertEqual(state.remoteItem(id: "A.JPG")?.stillState, .downloaded(path: "/c/a.jpg"))
    }

    func testEventsOfAnotherDirectoryAreIgnored() {
        var state = state()
        let other = URL(string: "http://127.0.0.1:8080/elsewhere/")!
        state.reduce(.remote(.event(directory: other, .paired([remoteItem("A.JPG")]))))
        XCTAssertTrue(state.items.isEmpty)
    }

    func testEnterOnAFolderOpensItAndBackspaceReturnsToIt() {
        var state = state()
        state.reduce(.remote(.event(directory: base, .paired([remoteItem("A.JPG")]))))
        state.reduce(.remote(.event(directory: base, .listed(items: [remoteItem("A.JPG")], subdirectories: [sub], rejected: []))))
        state.reduce(.select(index: 0))
        XCTAssertEqual(state.reduce(.openViewer), [.remote(.openDirectory(sub))])
        XCTAssertEqual(state.mode, .grid, "a folder opens, not the viewer")
        XCTAssertEqual(state.remote?.url, sub.url)
        XCTAssertEqual(state.remote?.depth, 1)
        XCTAssertTrue(state.items.isEmpty)
        state.reduce(.remote(.event(directory: sub.url, .paired([remoteItem("inner.jpeg")]))))
        XCTAssertEqual(state.items.map(\.id), ["../", "inner.jpeg"])

        XCTAssertEqual(state.reduce(.remote(.parent)), [.remote(.openParent)])
        XCTAssertEqual(state.remote?.url, base)
        state.reduce(.remote(.event(directory: base, .listed(items: [remoteItem("A.JPG")], subdirectories: [sub], rejected: []))))
        XCTAssertEqual(state.selectedItem?.id, "sub/", "the folder just left is selected again")
        XCTAssertEqual(state.reduce(.remote(.parent)), [], "nothing above the root")
        XCTAssertEqual(state.reduce(.back), [], "Esc at the root does not leave")
    }

    func testPlayOnANotYetPlayableItemRequestsItAndStartsWhenReadyIfStillHeld() {
        var state = state()
        let item = remoteItem("IMG_1.JPG", movie: "IMG_1.MOV", still: .downloaded(path: "/c/a.jpg"), movieState: .queued)
        state.reduce(.remote(.event(directory: base, .paired([item]))))
        XCTAssertEqual(state.reduce(.playPressed), [.remote(.requestPlay(itemID: "IMG_1.JPG"))])
        XCTAssertNil(state.playableItem(id: "IMG_1.JPG"))
        var ready = item
        ready.movieState = .downloaded(path: "/c/a.mov")
        XCTAssertEqual(state.reduce(.remote(.event(directory: base, .itemChanged(ready)))), [.startPlayback(itemID: "IMG_1.JPG")])
        XCTAssertEqual(state.playableItem(id: "IMG_1.JPG")?.movie?.path, "/c/a.mov", "the player gets the local copy")
    }

    func testRetryOnlyForFailedItems() {
        var state = state()
        let failed = remoteItem("A.JPG", still: .failed(.httpStatus(503, url: base.absoluteString + "A.JPG"), retryable: true))
        state.reduce(.remote(.event(directory: base, .paired([failed, remoteItem("B.JPG")]))))
        XCTAssertEqual(state.reduce(.remote(.retry)), [.remote(.retry(itemID: "A.JPG"))])
        state.reduce(.select(index: 1))
        XCTAssertEqual(state.reduce(.remote(.retry)), [])
    }

    func testRetryIsOfferedForEveryFailureRetryableOrNot() {
        // As before the failure was typed: `R` asks for a retry of any failed item; the flag only travels with
        // the state (the download manager sets it, nothing reads it yet).
        for retryable in [true, false] {
            var state = state()
            let error = RemoteError.httpStatus(retryable ? 503 : 404, url: base.absoluteString + "A.JPG")
            XCTAssertEqual(error.isTransient, retryable, "the download manager's flag follows this")
            let failed = remoteItem("A.JPG", still: .failed(error, retryable: retryable))
            state.reduce(.remote(.event(directory: base, .paired([failed]))))
            XCTAssertEqual(state.reduce(.remote(.retry)), [.remote(.retry(itemID: "A.JPG"))], "retryable: \(retryable)")
            XCTAssertEqual(state.message, "retrying A.JPG…")
        }
    }

    func testListingFailureIsKeptForTheEmptyGrid() {
        var state = state()
        let error = RemoteError.httpStatus(404, url: base.absoluteString)
        state.reduce(.remote(.listingFailed(directory: base, error)))
        XCTAssertFalse(state.isScanning)
        XCTAssertEqual(state.remote?.listingError, error)
        XCTAssertEqual(state.message, "cannot list http://127.0.0.1:8080/photos/: HTTP 404 Not Found for http://127.0.0.1:8080/photos/")
    }

    /// The typed failures render the sentences the screen showed when they travelled as text (the words are
    /// written out here, so a change of a renderer shows).
    func testTypedRemoteFailuresRenderTheSentencesShownBefore() {
        var state = state()
        let file = base.absoluteString + "A.JPG"
        let cases: [(RemoteError, String)] = [
            (.httpStatus(403, url: file), "HTTP 403 Forbidden for \(file)"),
            (.httpStatus(599, url: file), "HTTP 599 Server Error for \(file)"),
            (.tooLarge(size: 3 << 30, cap: 10 << 20), "file is 3221225472 bytes, above the 10485760-byte download cap"),
            (.timedOut, "the server did not answer in time"),
            (.unsupportedURL("gopher://h/x", supportedSchemes: ["http", "https"]), "unsupported URL gopher://h/x (http, https only)"),
            (.brokenLink("A.JPG", .loop), "A.JPG is a link that loops (following it leads back to itself)"),
            (.hostKeyRejected(host: "h", problem: .revoked(keyType: "ssh-ed25519", fingerprint: "SHA256:x", knownHostsFile: "/k")),
             "the host key of h (ssh-ed25519 SHA256:x) is REVOKED in /k; refused, as ssh refuses it"),
        ]
        for (error, sentence) in cases {
            let item = remoteItem("A.JPG", still: .failed(error, retryable: error.isTransient))
            state.reduce(.remote(.event(directory: base, .paired([item]))))
            XCTAssertEqual(state.remote?.itemsByID["A.JPG"]?.failure, error)
            XCTAssertEqual(TransferText.transferDetail(item.stillState, barWidth: 4), "failed: " + sentence)
        }
        state.reduce(.remote(.listingFailed(directory: base, .notFound("/photos/"))))
        XCTAssertEqual(state.message, "cannot list http://127.0.0.1:8080/photos/: no such file or directory: /photos/")
    }

    func testActivityKeepsPollingUntilTheLingerEnds() {
        var state = state()
        state.isScanning = false
        let finished = Date()
        var activity = DownloadActivity.idle
        activity.finishedAt = finished
        state.reduce(.remote(.event(directory: base, .activity(activity))))
        XCTAssertTrue(state.remoteNeedsPolling(at: finished.addingTimeInterval(1)))
        XCTAssertFalse(state.remoteNeedsPolling(at: finished.addingTimeInterval(3.5)))
        XCTAssertEqual(TransferText.summary(activity, now: finished.addingTimeInterval(1)), "⇣ downloads done")
        XCTAssertNil(TransferText.summary(activity, now: finished.addingTimeInterval(3.5)))
    }

    func testLocalBrowsingIgnoresRemoteKeys() {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        XCTAssertEqual(state.reduce(.remote(.parent)), [])
        XCTAssertEqual(state.reduce(.remote(.retry)), [])
        XCTAssertNil(state.remote)
    }

    func testCellLinesAndSummary() {
        XCTAssertEqual(TransferText.cellState(of: remoteItem("A.JPG", still: .queued)), .queued)
        let half = remoteItem("A.JPG", still: .downloading(bytes: 500, total: 1000, bytesPerSecond: 10))
        XCTAssertEqual(TransferText.cellState(of: half), .downloading(fraction: 0.5))
        XCTAssertEqual(TransferText.cellLine(.downloading(fraction: 0.5), width: 14), "█████░░░░░ 50%")
        XCTAssertEqual(TransferText.cellLine(.downloaded(playable: true), width: 20), "✓ playable")
        let partly = remoteItem("A.JPG", movie: "A.MOV", still: .downloaded(path: "/a"), movieState: .queued)
        XCTAssertEqual(TransferText.cellState(of: partly), .downloading(fraction: 0.5))
        var busy = DownloadActivity.idle
        busy.inFlight = 2
        busy.queued = 1
        busy.bytesPerSecond = 480_000
        XCTAssertEqual(TransferText.summary(busy), "⇣ 2 downloading · 1 queued · 480 KB/s")
        busy.queued = 0
        busy.eta = 6.2
        XCTAssertEqual(TransferText.summary(busy), "⇣ 2 downloading · 480 KB/s · 7 s left")
        XCTAssertEqual(TransferText.transferDetail(.failed(.notFound("/photos/A.JPG"), retryable: false), barWidth: 4),
                       "failed: no such file or directory: /photos/A.JPG")
    }
}
