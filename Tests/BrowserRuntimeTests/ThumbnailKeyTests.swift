import BrowserCore
import Imaging
import XCTest
@testable import BrowserRuntime

/// Typed picture keys (issue 27 item 5): what used to be told apart by interpolated strings and a size packed
/// into an Int is told apart by fields.
final class ThumbnailKeyTests: XCTestCase {
    private let cell = ZoomCellPixels(width: 10, height: 20)

    func testSizeAndVariantMakeDistinctKeys() {
        let zoom = ZoomedPicture(ViewerZoom(itemID: "/p/a.heic", centerX: 0.25, centerY: 0.5), cell: cell)
        let otherZoom = ZoomedPicture(ViewerZoom(itemID: "/p/a.heic", centerX: 0.75, centerY: 0.5), cell: cell)
        let keys: [ThumbnailKey] = [
            ThumbnailKey(itemID: "/p/a.heic", width: 24, height: 12),
            ThumbnailKey(itemID: "/p/a.heic", width: 12, height: 24),   // the packed Int told these apart by a shift
            ThumbnailKey(itemID: "/p/a.heic", width: 24, height: 13),
            ThumbnailKey(itemID: "/p/b.heic", width: 24, height: 12),
            ThumbnailKey(itemID: "/p/a.heic", width: 24, height: 12, variant: .movieFrame(3)),
            ThumbnailKey(itemID: "/p/a.heic", width: 24, height: 12, variant: .movieFrame(4)),
            ThumbnailKey(itemID: "/p/a.heic", width: 24, height: 12, variant: .effectPreviewFrame(3)),
            ThumbnailKey(itemID: "/p/a.heic", width: 24, height: 12, variant: .zoom(zoom)),
            ThumbnailKey(itemID: "/p/a.heic", width: 24, height: 12, variant: .zoom(otherZoom)),
        ]
        XCTAssertEqual(Set(keys).count, keys.count, "every size, item and variant is its own picture")
        XCTAssertEqual(Set(keys.map(ChafaThumbnailProvider.Job.picture)).count, keys.count,
                       "and its own scheduler job")
    }

    func testEqualFieldsMakeEqualKeys() {
        let a = ThumbnailKey(itemID: "/p/a.heic", width: 24, height: 12, variant: .movieFrame(7))
        let b = ThumbnailKey(itemID: "/p/a.heic", width: 24, height: 12, variant: .movieFrame(7))
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.hashValue, b.hashValue)
        let zoomA = ZoomedPicture(ViewerZoom(itemID: "/p/a.heic", centerX: 0.3), cell: cell)
        let zoomB = ZoomedPicture(ViewerZoom(itemID: "/p/a.heic", centerX: 0.30000001), cell: cell)
        XCTAssertEqual(ThumbnailKey(itemID: "/p/a.heic", width: 24, height: 12, variant: .zoom(zoomA)),
                       ThumbnailKey(itemID: "/p/a.heic", width: 24, height: 12, variant: .zoom(zoomB)),
                       "zoom centres are kept in ten-thousandths: a pan below that is the same crop")
    }

    /// The outputs replace movie and effect-preview frames in place; the zoom crop and the still are pictures.
    func testVariantAccessors() {
        XCTAssertEqual(ThumbnailKey(itemID: "a", width: 1, height: 1, variant: .movieFrame(5)).movieFrame, 5)
        XCTAssertEqual(ThumbnailKey(itemID: "a", width: 1, height: 1, variant: .effectPreviewFrame(6)).movieFrame, 6)
        XCTAssertNil(ThumbnailKey(itemID: "a", width: 1, height: 1).movieFrame)
        XCTAssertNil(ThumbnailKey(itemID: "a", width: 1, height: 1).zoom)
        let zoom = ZoomedPicture(ViewerZoom(itemID: "a"), cell: cell)
        XCTAssertEqual(ThumbnailKey(itemID: "a", width: 1, height: 1, variant: .zoom(zoom)).zoom, zoom)
    }

    /// The decoded-frame cache tells the freedesktop sizes and a small embedded thumbnail apart.
    func testFrameKeysDistinguishSizeAndEmbeddedBox() {
        typealias FrameKey = ChafaThumbnailProvider.FrameKey
        let keys: Set<FrameKey> = [
            FrameKey(itemID: "/p/a.jpg", size: .normal),
            FrameKey(itemID: "/p/a.jpg", size: .large),
            FrameKey(itemID: "/p/a.jpg", size: .normal, servesAtMost: PixelSize(width: 160, height: 120)),
            FrameKey(itemID: "/p/a.jpg", size: .normal, servesAtMost: PixelSize(width: 120, height: 160)),
            FrameKey(itemID: "/p/b.jpg", size: .normal),
        ]
        XCTAssertEqual(keys.count, 5)
        XCTAssertTrue(keys.contains(FrameKey(itemID: "/p/a.jpg", size: .large)))
    }

    /// Prewarming's listing has a key of its own, one per cell size, that no picture can collide with.
    func testPrewarmListingIsItsOwnJob() {
        typealias Job = ChafaThumbnailProvider.Job
        let jobs: Set<Job> = [.prewarmListing(columns: 24, rows: 12), .prewarmListing(columns: 12, rows: 24),
                              .picture(ThumbnailKey(itemID: "prewarm listing 24x12", width: 24, height: 12))]
        XCTAssertEqual(jobs.count, 3)
    }
}
