import Foundation
import MediaFormats
import XCTest

/// External tools the writer tests verify outputs with (exiftool, ffprobe, ffmpeg): independent readers.
enum WriterTools {
    static func path(_ tool: String) -> String? {
        for dir in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(tool)") {
            return "\(dir)/\(tool)"
        }
        return nil
    }

    /// Runs `tool` and returns its standard output; skips the test when the tool is not installed.
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        guard let executable = path(tool) else { throw XCTSkip("\(tool) is not installed: skipping the independent check") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// MD5 of a stream's packets, as ffmpeg computes it after a stream copy.
    static func packetHash(_ file: String, stream: String) throws -> String {
        try run("ffmpeg", ["-v", "error", "-i", file, "-map", "0:\(stream)", "-c", "copy", "-f", "md5", "-"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Writes an assembly to `path` (tests write directly; the app uses AtomicFileWriter).
    static func write(_ assembly: ByteAssembly, from source: any ByteSource, to path: String) throws {
        let bytes = try assembly.materialize(from: source)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// A 2-second H.264 test movie without any metadata, made by ffmpeg (skips when ffmpeg is absent).
    static func generatedMovie(in dir: URL, name: String = "generated.mp4", audio: Bool = false) throws -> String {
        let path = dir.appendingPathComponent(name).path
        var args = ["-v", "error", "-f", "lavfi", "-i", "testsrc2=duration=2:size=320x240:rate=30"]
        if audio { args += ["-f", "lavfi", "-i", "sine=duration=2", "-c:a", "aac"] }
        args += ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-map_metadata", "-1", "-y", path]
        _ = try run("ffmpeg", args)
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("ffmpeg could not make a test movie") }
        return path
    }
}
