import Foundation
import Library
import MediaFormats
import XCTest

/// Errors stay typed up to the edge: the path and the cause are values, the sentence is rendered last.
final class TypedErrorTests: XCTestCase {
    func testSidecarThatIsAFolderIsATypedReadError() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livegrid-typed-\(getpid())")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("IMG_1.JPG.xmp"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }   // try?: clean-up of a temporary folder
        let path = dir.appendingPathComponent("IMG_1.JPG.xmp").path
        XCTAssertThrowsError(try SidecarTriageStore.read(sidecar: path)) { error in
            guard case SidecarTriageStore.StoreError.unreadable(let where_, .notARegularFile)? = error as? SidecarTriageStore.StoreError else {
                return XCTFail("expected unreadable(notARegularFile), got \(error)")
            }
            XCTAssertEqual(where_, path)
            XCTAssertTrue("\(error)".hasPrefix("\(path): cannot read sidecar"), "\(error)")
        }
    }

    func testMissingSidecarNamesTheErrno() {
        let path = "/nonexistent-livegrid-\(getpid())/a.xmp"
        XCTAssertThrowsError(try SidecarTriageStore.read(sidecar: path)) { error in
            guard case SidecarTriageStore.StoreError.unreadable(_, .io(_, let code))? = error as? SidecarTriageStore.StoreError else {
                return XCTFail("expected unreadable(io), got \(error)")
            }
            XCTAssertEqual(code, ENOENT)
            XCTAssertEqual("\(error)", "\(path): cannot read sidecar: No such file or directory")
        }
    }
}
