import Foundation
import Library
import LibraryCore
import LibrarySources
import LivePairing
import MediaFormats
import TestSupport
import XCTest

/// Issue 15.4: a Live Photo whose names are not UTF-8 can be rated, trashed, restored and exported, and
/// every file keeps its exact bytes and name.
final class RawNameTriageTests: XCTestCase {
    private var root = ""
    private let stem: [UInt8] = Array("IMG".utf8) + [0xFF, 0xE9] + Array("_1".utf8)   // "IMG\xFF\xE9_1" (Latin-1 é)

    override func setUpWithError() throws { root = try TriageFixtures.tempDir("livegrid-rawnames") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    private func rawNames(_ dir: String) -> Set<[UInt8]> {
        Set(((try? PathBytes.entries(of: dir)) ?? []).map { PathBytes.bytes(of: $0.name) })
    }

    private func place(_ fixture: String, in dir: String, suffix: String) throws -> String {
        let path = dir + "/" + PathBytes.string(from: stem + Array(suffix.utf8))
        try AtomicFileWriter.write([UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed(fixture)))),
                                   to: path, replace: false)
        return path
    }

    func testRateTrashRestoreAndExportKeepTheExactNames() throws {
        let photos = root + "/photos"
        XCTAssertEqual(mkdir(photos, 0o755), 0)
        _ = try place("train.jpg", in: photos, suffix: ".JPG")
        _ = try place("train.mov", in: photos, suffix: ".MOV")
        let item = try XCTUnwrap(try LibraryScanner.scan(directory: photos).items.first)
        XCTAssertEqual(item.kind, .live, "\(item.warnings)")

        let sidecar = try SidecarTriageStore.write(TriageState(rating: 4, flag: .pick), for: item)
        XCTAssertEqual(PathBytes.bytes(of: (sidecar as NSString).lastPathComponent), stem + Array(".JPG.xmp".utf8))
        XCTAssertEqual(try SidecarTriageStore.read(for: item), TriageState(rating: 4, flag: .pick))

        let trash = FreedesktopTrash(environment: ["XDG_DATA_HOME": root + "/data", "HOME": root])
        let (undo, outcomes) = ItemFileOperations.trash([item], using: trash)
        XCTAssertNil(outcomes.first?.error)
        XCTAssertEqual(rawNames(photos), [])
        XCTAssertEqual(rawNames(root + "/data/Trash/files"),
                       [stem + Array(".JPG".utf8), stem + Array(".MOV".utf8), stem + Array(".JPG.xmp".utf8)])
        let info = try PathBytes.entries(of: root + "/data/Trash/info").map { root + "/data/Trash/info/" + $0.name }
        let text = try info.map { String(decoding: try FileByteSource(path: $0).read(at: 0, count: 4096), as: UTF8.self) }
        XCTAssertTrue(text.allSatisfy { $0.contains("/IMG%FF%E9_1.") }, "the spec's Path= holds the raw bytes: \(text)")

        XCTAssertNil(ItemFileOperations.restore(undo, using: trash).first?.error)
        XCTAssertEqual(rawNames(photos).count, 3)

        let out = root + "/out"
        XCTAssertEqual(mkdir(out, 0o755), 0)
        let report = try ExportRunner().run(ExportPlan(items: [item], destination: out)) { _ in }
        XCTAssertEqual(report.failedCount, 0, report.summary)
        XCTAssertTrue(rawNames(out).isSuperset(of: [stem + Array(".JPG".utf8), stem + Array(".MOV".utf8)]), "\(rawNames(out))")
        let original = try FileByteSource(path: item.movie!.path)
        let copy = try FileByteSource(path: out + "/" + PathBytes.string(from: stem + Array(".MOV".utf8)))
        XCTAssertEqual(try copy.readExactly(at: 0, count: Int(copy.size)), try original.readExactly(at: 0, count: Int(original.size)))
    }
}
