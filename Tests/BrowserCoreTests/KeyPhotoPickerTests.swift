@testable import BrowserCore
import XCTest

final class KeyPhotoPickerTests: XCTestCase {
    let times = (0..<30).map { Double($0) / 30 }

    func testStartsOnTheKeyPhotoAndStepsWithinTheMovie() throws {
        var picker = try XCTUnwrap(KeyPhotoPicker(frameTimes: times, stillImageTime: 0.5))
        XCTAssertEqual(picker.index, 15)
        XCTAssertTrue(picker.isUnchanged)
        XCTAssertEqual(picker.statusLine, "frame 16/30  0.500 s  (the key photo)")
        picker.step(-1)
        XCTAssertEqual(picker.statusLine, "frame 15/30  0.467 s  (key photo 0.500 s)")
        picker.step(-100)
        XCTAssertEqual(picker.index, 0)
        picker.step(100)
        XCTAssertEqual(picker.index, 29)
        XCTAssertFalse(picker.isUnchanged)
        XCTAssertEqual(picker.editArguments(item: "a.JPG", outputDirectory: "out"),
                       ["edit", "a.JPG", "--key-photo-at", "0.967", "-o", "out"])
    }

    func testAStillImageTimeBetweenFramesPicksTheFrameShownThen() throws {
        let picker = try XCTUnwrap(KeyPhotoPicker(frameTimes: times, stillImageTime: 0.51))
        XCTAssertEqual(picker.index, 15)
        let noKey = try XCTUnwrap(KeyPhotoPicker(frameTimes: times, stillImageTime: nil))
        XCTAssertEqual(noKey.index, 0)
        XCTAssertFalse(noKey.isUnchanged)
        XCTAssertEqual(noKey.statusLine, "frame 1/30  0.000 s")
        XCTAssertNil(KeyPhotoPicker(frameTimes: [], stillImageTime: 1))
    }
}
