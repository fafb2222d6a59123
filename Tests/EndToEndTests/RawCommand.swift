import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `livegrid` with arguments given as raw bytes (file names that are not UTF-8, or that hold
/// escape sequences) and returns standard output and standard error as raw bytes, apart: the tests look for
/// single bytes (ESC, BEL, 0x9B) that a `String` would hide or repair.
enum RawCommand {
    struct Result {
        var status: Int32
        var out: [UInt8]
        var err: [UInt8]
        var outText: String { String(decoding: out, as: UTF8.self) }
        var errText: String { String(decoding: err, as: UTF8.self) }
    }

    static func binary() throws -> String {
        let binary = try MissingRequirement.livegridBinary()
        return binary
    }

    static func run(_ arguments: [[UInt8]], environment extra: [String: String] = [:],
                    prefix: [String] = []) throws -> Result {
        let binary = try binary()
        let errFile = FileManager.default.temporaryDirectory.appendingPathComponent("rawcommand-\(UUID().uuidString)").path
        defer { unlink(errFile) }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw ToolRunner.Failure(description: "pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        posix_spawn_file_actions_addopen(&actions, 2, errFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // `prefix` runs the binary under another program (setpriv); its path comes first.
        let program = prefix.first ?? binary
        let all: [[UInt8]] = (prefix.isEmpty ? [Array(binary.utf8)] : prefix.map { Array($0.utf8) } + [Array(binary.utf8)])
            + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = all.map { bytes in
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
            pointer[bytes.count] = 0
            return pointer
        } + [nil]
        defer { for pointer in argv { pointer?.deallocate() } }
        let environment = ProcessInfo.processInfo.environment.merging(extra) { _, new in new }
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, envp)
        close(fds[1])
        guard spawned == 0 else {
            close(fds[0])
            throw ToolRunner.Failure(description: "cannot run \(program): error \(spawned)")
        }
        let output = ToolRunner.readToEnd(fds[0])
        let exitCode = ToolRunner.waitForExit(pid)
        let err = (try? Data(contentsOf: URL(fileURLWithPath: errFile))).map { [UInt8]($0) } ?? []
        return Result(status: exitCode, out: output, err: err)
    }

    static func run(_ arguments: String..., environment: [String: String] = [:]) throws -> Result {
        try run(arguments.map { Array($0.utf8) }, environment: environment)
    }

    /// What in `bytes` could drive a terminal: bytes that are not UTF-8 (a raw C1 0x9B is a CSI to some
    /// terminals), C0 controls but the newline, DEL, C1 controls and bidi overrides. Empty when safe.
    static func terminalControls(in bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        guard Array(text.utf8) == bytes else { return ["bytes that are not UTF-8"] }
        var found: [String] = []
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if (value < 0x20 && value != 0x0A) || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
                || (0x2066...0x2069).contains(value) {
                found.append(String(format: "U+%04X", value))
            }
        }
        return found
    }
}
