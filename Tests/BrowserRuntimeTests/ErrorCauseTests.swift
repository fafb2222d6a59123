@testable import BrowserRuntime
import Foundation
import XCTest

/// A worker's failure goes into the state as its cause; a Foundation file error says it in the system's words.
final class ErrorCauseTests: XCTestCase {
    func testFileManagersErrorIsSaidInTheSystemsWords() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("livegrid-error-cause-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }   // try?: a leftover is only temporary space
        let blocker = root.appendingPathComponent("not-a-folder")
        XCTAssertTrue(FileManager.default.createFile(atPath: blocker.path, contents: Data("x".utf8)))
        let wanted = blocker.appendingPathComponent("staging").path
        XCTAssertThrowsError(try FileManager.default.createDirectory(atPath: wanted, withIntermediateDirectories: true)) { error in
            XCTAssertEqual(ErrorCause.of(error), "\(wanted): Not a directory")
        }
        XCTAssertThrowsError(try FileManager.default.copyItem(atPath: root.appendingPathComponent("absent").path,
                                                              toPath: root.appendingPathComponent("copy").path)) { error in
            XCTAssertEqual(ErrorCause.of(error), root.appendingPathComponent("absent").path + ": No such file or directory")
        }
    }

    func testAnErrorOfItsOwnIsPrintedAsBefore() {
        struct Refusal: Error { var why = "no" }
        XCTAssertEqual(ErrorCause.of(Refusal()), "Refusal(why: \"no\")")
    }
}
