import Foundation
import MediaFormats
import TestSupport
import XCTest

/// Helpers of the writer tests: independent checks through `ExternalTool`, generated inputs.
enum WriterTools {
    static func run(_ tool: String, _ arguments: [String]) throws -> String { try ExternalTool.run(tool, arguments) }
    static func packetHash(_ file: String, stream: String) throws -> String { try ExternalTool.packetHash(file, stream: stream) }

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
