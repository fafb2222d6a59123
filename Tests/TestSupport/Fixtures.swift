import Foundation
import XCTest

/// Locates test inputs: committed fixtures in `Tests/Fixtures`, real-world ones in `../shared/fixtures`.
public enum Fixtures {
    /// The package root, found from this file's path (works in any clone or worktree).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Tests/Fixtures/<name>` (committed with the project).
    public static func committed(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(name).path
    }

    /// Directory of the shared real-world fixtures, or nil when `../shared` is absent (a user's fresh clone).
    public static var sharedDirectory: URL? {
        let dir = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
        return FileManager.default.fileExists(atPath: dir.path) ? dir : nil
    }

    /// Real media files to probe: the committed camera files, and every file directly in ../shared/fixtures
    /// when it is there (its README aside).
    public static var mediaSamples: [String] {
        var paths = ["train.jpg", "train.mov", "motion-photo-v1.jpeg"].map(committed)
        if let shared = sharedDirectory {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: shared.path)) ?? []
            paths += names.sorted().filter { !$0.hasSuffix(".md") }.map { shared.appendingPathComponent($0).path }
        }
        return paths
    }

    /// Path of a shared fixture; skips the calling test with a clear message when `../shared` is absent.
    public static func shared(_ name: String) throws -> String {
        guard let dir = sharedDirectory else {
            throw XCTSkip("../shared/fixtures is absent (a fresh clone): skipping the real-world fixture \(name)")
        }
        let path = dir.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("shared fixture \(name) is missing")
        }
        return path
    }

    /// A fresh temporary directory removed at process exit is not guaranteed: callers remove it.
    public static func makeTemporaryDirectory(_ label: String = "livegrid-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The built `livegrid` binary (for end-to-end tests), next to the test bundle.
    public static var livegridBinary: String? {
        for dir in [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent("livegrid").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        if let env = ProcessInfo.processInfo.environment["LIVEGRID_BINARY"],
           FileManager.default.isExecutableFile(atPath: env) { return env }
        return nil
    }
}
