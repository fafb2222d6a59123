import Foundation
import TestSupport
import XCTest

/// A browser test's own library folder and HOME, side by side in one temporary folder that goes afterwards;
/// tmux is required (a failure under CI=true when it is missing).
class LibraryHomeTestCase: XCTestCase {
    var root: URL!
    var home: URL!
    /// The temporary folder's name prefix, to tell the tests' leftovers apart.
    class var temporaryPrefix: String { "livegrid-e2e" }

    override func setUpWithError() throws {
        try TmuxSession.requireTmux()
        let base = try Fixtures.makeTemporaryDirectory(Self.temporaryPrefix)
        root = base.appendingPathComponent("library")
        home = base.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let root { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
    }
}
