import Foundation
import Library
import LibraryCore
import LibrarySources
import LivePairing
import TestSupport
import XCTest

final class TrashTests: XCTestCase {
    var root = ""
    var trash = FreedesktopTrash(environment: ProcessInfo.processInfo.environment)
    override func setUpWithError() throws {
        root = try TriageFixtures.tempDir("livegrid-trash")
        // XDG_DATA_HOME in the temporary directory: the user's real trash is never touched.
        trash = FreedesktopTrash(environment: ["XDG_DATA_HOME": root + "/data", "HOME": root])
        trash.now = { Date(timeIntervalSince1970: 1_700_000_000) }
    }
    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    func testTrashesStillMovieAndSidecarTogetherAndRestoresThemByteIdentical() throws {
        let photos = root + "/Ferien Zürich"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        let item = try TriageFixtures.livePair(in: photos, name: "IMG 0001 é")
        try TriageState(rating: 3).write(for: item)
        let before = ItemFileOperations.paths(of: item).map { TriageFixtures.bytes($0) }
        XCTAssertEqual(before.count, 3)

        let (undo, outcomes) = ItemFileOperations.trash([item], using: trash)
        XCTAssertNil(outcomes.first?.error)
        XCTAssertEqual(TriageFixtures.names(photos), [])
        let home = root + "/data/Trash"
        XCTAssertEqual(TriageFixtures.names(home + "/files"), ["IMG 0001 é.JPG", "IMG 0001 é.JPG.xmp", "IMG 0001 é.MOV"])
        XCTAssertEqual(TriageFixtures.names(home + "/info"),
                       ["IMG 0001 é.JPG.trashinfo", "IMG 0001 é.JPG.xmp.trashinfo", "IMG 0001 é.MOV.trashinfo"])
        let info = try String(contentsOfFile: home + "/info/IMG 0001 é.MOV.trashinfo", encoding: .utf8)
        let encodedDir = photos.replacingOccurrences(of: " ", with: "%20")
            .replacingOccurrences(of: "ü", with: "%C3%BC")
        let lines = info.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "[Trash Info]")
        XCTAssertEqual(lines[1], "Path=" + encodedDir + "/IMG%200001%20%C3%A9.MOV")
        XCTAssertNotNil(lines[2].range(of: #"^DeletionDate=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$"#, options: .regularExpression))
        XCTAssertEqual(TrashInfo.parse(info)?.path, photos + "/IMG 0001 é.MOV")

        let restored = ItemFileOperations.restore(undo, using: trash)
        XCTAssertNil(restored.first?.error)
        XCTAssertEqual(ItemFileOperations.paths(of: item).map { TriageFixtures.bytes($0) }, before)
        XCTAssertEqual(TriageFixtures.names(home + "/files"), [])
        XCTAssertEqual(TriageFixtures.names(home + "/info"), [])
    }

    func testRestoreRefusesToOverwriteSomethingNew() throws {
        let item = try TriageFixtures.livePair(in: root, name: "IMG_7")
        let (undo, _) = ItemFileOperations.trash([item], using: trash)
        try Data("new".utf8).write(to: URL(fileURLWithPath: root + "/IMG_7.MOV"))
        let outcome = ItemFileOperations.restore(undo, using: trash)
        XCTAssertEqual(outcome.first?.error as? FileOperationError, .wouldOverwrite(root + "/IMG_7.MOV"))
        XCTAssertEqual(TriageFixtures.bytes(root + "/IMG_7.MOV"), Data("new".utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/IMG_7.JPG"), "all or nothing")
        XCTAssertEqual(TriageFixtures.names(root + "/data/Trash/files"), ["IMG_7.JPG", "IMG_7.MOV"])
    }

    func testNameCollisionsInTheTrashKeepThePairPaired() throws {
        for folder in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        let first = try TriageFixtures.livePair(in: root + "/a", name: "IMG_1")
        let second = try TriageFixtures.livePair(in: root + "/b", name: "IMG_1")
        // Only the movie's name is taken in the trash by something else.
        try FileManager.default.createDirectory(atPath: root + "/data/Trash/files", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: root + "/data/Trash/files/IMG_1.2.MOV"))
        XCTAssertNil(ItemFileOperations.trash([first], using: trash).outcomes.first?.error)
        let (undo, outcomes) = ItemFileOperations.trash([second], using: trash)
        XCTAssertNil(outcomes.first?.error)
        XCTAssertEqual(TriageFixtures.names(root + "/data/Trash/files"),
                       ["IMG_1.2.MOV", "IMG_1.3.JPG", "IMG_1.3.MOV", "IMG_1.JPG", "IMG_1.MOV"])
        XCTAssertNil(ItemFileOperations.restore(undo, using: trash).first?.error)
        XCTAssertEqual(TriageFixtures.names(root + "/b"), ["IMG_1.JPG", "IMG_1.MOV"])
    }

    func testVolumeTrashFollowsTheSpec() throws {
        let top = root + "/volume"
        try FileManager.default.createDirectory(atPath: top, withIntermediateDirectories: true)
        let uid = trash.uid
        XCTAssertEqual(try trash.volumeTrash(topdir: top), top + "/.Trash-\(uid)", "no .Trash: per-user dir")

        // A .Trash that is not sticky is not trusted.
        let shared = top + "/.Trash"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        chmod(shared, 0o777)
        XCTAssertEqual(try trash.volumeTrash(topdir: top), top + "/.Trash-\(uid)")
        chmod(shared, 0o1777)
        XCTAssertEqual(try trash.volumeTrash(topdir: top), shared + "/\(uid)")
        XCTAssertEqual(TriageFixtures.names(shared + "/\(uid)"), ["files", "info"])

        // A symlinked .Trash is never followed.
        let elsewhere = root + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        chmod(elsewhere, 0o1777)
        let top2 = root + "/volume2"
        try FileManager.default.createDirectory(atPath: top2, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: top2 + "/.Trash", withDestinationPath: elsewhere)
        XCTAssertEqual(try trash.volumeTrash(topdir: top2), top2 + "/.Trash-\(uid)")
        XCTAssertEqual(TriageFixtures.names(elsewhere), [])
    }

    func testAFileOnAnotherDeviceGoesToThatVolumesTrash() throws {
        var st = stat(), shm = stat()
        guard stat(root, &st) == 0, stat("/dev/shm", &shm) == 0, st.st_dev != shm.st_dev,
              FreedesktopTrash.mountTop(of: "/dev/shm") == "/dev/shm" else {
            throw XCTSkip("/dev/shm is not a separate mount here")
        }
        XCTAssertEqual(FreedesktopTrash.mountTop(of: root), "/")
        let volumeTrash = "/dev/shm/.Trash-\(trash.uid)"
        let existed = FileManager.default.fileExists(atPath: volumeTrash)
        let dir = "/dev/shm/livegrid-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(atPath: dir)
            if !existed { try? FileManager.default.removeItem(atPath: volumeTrash) }
        }
        let item = try TriageFixtures.livePair(in: dir, name: "IMG_9")
        let (undo, outcomes) = ItemFileOperations.trash([item], using: trash)
        XCTAssertNil(outcomes.first?.error)
        XCTAssertEqual(undo.records.first?.entries.first?.trashedPath, volumeTrash + "/files/IMG_9.JPG")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/data/Trash/files/IMG_9.JPG"))
        XCTAssertNil(ItemFileOperations.restore(undo, using: trash).first?.error)
        XCTAssertEqual(TriageFixtures.names(dir), ["IMG_9.JPG", "IMG_9.MOV"])
    }

    /// A home trash whose folders cannot be made refuses in the system's words (FileManager's error used to
    /// reach the status bar as "Error Domain=NSCocoaErrorDomain Code=512 …").
    func testAHomeTrashThatCannotBeMadeSaysWhyPlainly() throws {
        let blocker = root + "/not-a-folder"
        XCTAssertTrue(FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8)))
        let blocked = FreedesktopTrash(environment: ["XDG_DATA_HOME": blocker + "/data", "HOME": root])
        let photos = root + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        let item = try TriageFixtures.livePair(in: photos, name: "IMG_0001")
        let (_, outcomes) = ItemFileOperations.trash([item], using: blocked)
        let error = try XCTUnwrap(outcomes.first?.error)
        XCTAssertEqual(error as? FileOperationError, .system(operation: "mkdir", path: blocker + "/data", errno: ENOTDIR))
        XCTAssertEqual("\(error)", "\(blocker)/data: mkdir failed: Not a directory")
        XCTAssertEqual(TriageFixtures.names(photos), ["IMG_0001.JPG", "IMG_0001.MOV"], "nothing moved")
    }

    func testPercentEncodingAndDecoding() {
        XCTAssertEqual(TrashInfo.percentEncode("/a b/ü%~x.jpg"), "/a%20b/%C3%BC%25~x.jpg")
        XCTAssertEqual(TrashInfo.percentDecode("/a%20b/%C3%BC%25~x.jpg"), "/a b/ü%~x.jpg")
        XCTAssertEqual(TrashInfo.percentDecode("/bad%zz%2"), "/bad%zz%2")
        XCTAssertNil(TrashInfo.parse("Path=/x"))
    }
}
