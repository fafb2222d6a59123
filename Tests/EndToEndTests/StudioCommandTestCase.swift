import Foundation
import TestSupport
import XCTest

/// What the studio verbs' tests share: a private folder with an `out` folder in it, and the built
/// `livegrid` and external tools run as a user would.
class StudioCommandTestCase: XCTestCase {
    var dir: URL!
    var out: String!

    /// The temporary folder's name prefix (one per test class, so leftovers say whose they are).
    class var folderPrefix: String { "studio" }

    override func setUpWithError() throws {
        dir = try Fixtures.makeTemporaryDirectory(Self.folderPrefix)
        out = dir.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    func livegrid(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let binary = try MissingRequirement.livegridBinary()
        return try ExternalTool.runProgram(binary, arguments)
    }

    func tool(_ name: String, _ arguments: [String]) throws -> String { try ExternalTool.run(name, arguments) }
}
