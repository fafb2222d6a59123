import Foundation
import XCTest

/// Independent command-line readers tests check outputs with (exiftool, ffprobe, ffmpeg).
public enum ExternalTool {
    public static func path(_ tool: String) -> String? {
        ["/usr/bin", "/usr/local/bin", "/bin"].map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `tool` and returns its standard output; skips the calling test when the tool is not installed.
    public static func run(_ tool: String, _ arguments: [String]) throws -> String {
        guard let executable = path(tool) else { throw MissingRequirement.tool("\(tool) is not installed: skipping the independent check") }
        return try runProgram(executable, arguments).out
    }

    /// Runs a program; returns its exit status, standard output and standard error.
    public static func runProgram(_ executable: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // stderr goes to a file so a chatty tool can never block on a full pipe while stdout is read.
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("livegrid-tool-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let errHandle = try FileHandle(forWritingTo: errURL)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errHandle
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errHandle.close()
        let errData = (try? Data(contentsOf: errURL)) ?? Data()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// MD5 of one stream's packets after a stream copy (`v`, `a`, `v:0`...): equal hashes = identical packets.
    public static func packetHash(_ file: String, stream: String) throws -> String {
        try run("ffmpeg", ["-v", "error", "-i", file, "-map", "0:\(stream)", "-c", "copy", "-f", "md5", "-"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
