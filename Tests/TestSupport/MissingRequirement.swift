import Foundation
import XCTest

/// What a test does when something it needs outside the package is absent.
///
/// On a developer's machine a missing tool (tmux, nginx, ffmpeg, exiftool, sshd...) skips the test with a
/// message. Under `CI=true` it is a failure: `make test-deps` installs every tool there, so a missing one means
/// the install step broke, and a skip would hide that regression. A skip is only ever for an absent input.
public enum MissingRequirement {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// True when the suite runs in CI (`.ci/run` is started with CI=true).
    public static var isCI: Bool {
        let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? ""
        return value == "true" || value == "1" || value == "yes"
    }

    /// The error to throw for a missing tool: an XCTSkip locally, a failure in CI.
    public static func tool(_ message: String) -> Error {
        isCI ? Failure(description: "\(message) (CI=true: `make test-deps` should have installed it)") : XCTSkip(message)
    }

    /// The path of an installed tool (in /usr/bin, /usr/local/bin, /bin, /usr/sbin), or the missing-tool error:
    /// the one place every "not installed" check goes through.
    public static func path(of tool: String, for purpose: String) throws -> String {
        for dir in ["/usr/bin", "/usr/local/bin", "/bin", "/usr/sbin"] {
            let candidate = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Self.tool("\(tool) is not installed: \(purpose)")
    }

    /// The livegrid executable the tests drive. `make test` builds it before the tests, so under CI=true a
    /// missing one is a failure, not a skip.
    public static func livegridBinary() throws -> String {
        for dir in [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent("livegrid").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        if let env = ProcessInfo.processInfo.environment["LIVEGRID_BINARY"],
           FileManager.default.isExecutableFile(atPath: env) { return env }
        throw Self.tool("the livegrid binary is not built next to the tests (run `swift build` first)")
    }
}
