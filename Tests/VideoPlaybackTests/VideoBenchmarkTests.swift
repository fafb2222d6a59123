import Imaging
import TestSupport
import VideoPlayback
import XCTest

final class VideoBenchmarkTests: XCTestCase {
    func testReportsFramesAndRate() throws {
        let result = try VideoBenchmark.measure(path: Fixtures.committed("train.mov"), targetSize: PixelSize(width: 64, height: 48))
        XCTAssertEqual(result.frames, 22)
        XCTAssertGreaterThan(result.framesPerSecond, 0)
        let report = VideoBenchmark.run(path: Fixtures.committed("train.mov"), targetSize: PixelSize(width: 64, height: 48))
        XCTAssertTrue(report.contains("22 frames"), report)
        XCTAssertTrue(VideoBenchmark.run(path: "/nonexistent.mov", targetSize: PixelSize(width: 8, height: 8)).contains("cannot decode"))
    }
}
