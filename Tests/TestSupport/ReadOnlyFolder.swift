import Foundation
import XCTest

/// A folder livegrid cannot write, whoever runs the tests. A normal user gets `chmod 555`; root passes every
/// permission check (`access(W_OK)` is 0 on a 555 folder), so as root the folder is a tmpfs mounted read-only
/// (the kernel refuses writes there with EROFS, root or not). Made filled: `fill` puts the files in first.
public final class ReadOnlyFolder {
    public let url: URL
    private let mounted: Bool
    private var removed = false

    public init(at url: URL, fill: (URL) throws -> Void) throws {
        self.url = url
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        if getuid() == 0 {
            let mount = try MissingRequirement.path(of: "mount", for: "a read-only folder for root is a read-only tmpfs")
            let made = try ExternalTool.runProgram(mount, ["-t", "tmpfs", "-o", "size=64m", "tmpfs", url.path])
            guard made.status == 0 else {
                throw MissingRequirement.tool("cannot mount a tmpfs for a read-only folder (root ignores chmod): \(made.err)")
            }
            mounted = true
            try fill(url)
            let remounted = try ExternalTool.runProgram(mount, ["-o", "remount,ro", url.path])
            guard remounted.status == 0 else {
                throw MissingRequirement.tool("cannot remount the tmpfs read-only: \(remounted.err)")
            }
        } else {
            mounted = false
            try fill(url)
            guard chmod(url.path, 0o555) == 0 else { throw MissingRequirement.Failure(description: "chmod 555 failed") }
        }
        guard access(url.path, W_OK) != 0 else {
            remove()
            throw MissingRequirement.Failure(description: "\(url.path) is still writable")
        }
    }

    /// Names in the folder (what a test checks stayed the same).
    public var names: [String] {
        // try?: an unlistable folder lists nothing, which the caller's comparison reports.
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    /// Unmounts (root) or makes the folder writable again, so the temporary tree can be removed.
    public func remove() {
        guard !removed else { return }
        removed = true
        if mounted {
            // try?: a leftover mount under /tmp is only space until the next boot; the test already reported.
            _ = try? ExternalTool.runProgram("/usr/bin/umount", ["-l", url.path])
        } else {
            chmod(url.path, 0o755)
        }
    }

    deinit { remove() }
}
