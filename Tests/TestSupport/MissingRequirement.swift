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
}
