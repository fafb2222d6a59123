import Foundation
import MediaFormats
import TestSupport
import XCTest

/// Helpers shared by the Libav*Tests: generated media (via the ffmpeg CLI) and a minimal top-level box walk.
enum LibavTestMedia {
    /// Path of the ffmpeg executable, or nil.
    static var ffmpegPath: String? {
        for dir in ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
            let path = dir + "/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Runs ffmpeg with `arguments` writing `outputName` into `directory`; skips the test when ffmpeg is absent.
    static func generate(_ outputName: String, in directory: URL, arguments: [String]) throws -> String {
        guard let ffmpeg = ffmpegPath else { throw MissingRequirement.tool("the ffmpeg CLI is not installed: cannot generate test media") }
        let output = directory.appendingPathComponent(outputName).path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-hide_banner", "-loglevel", "error", "-y"] + arguments + [output]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw MissingRequirement.tool("ffmpeg could not generate \(outputName) (status \(process.terminationStatus)): is it built with that encoder?")
        }
        return output
    }

    /// Payload range of the first top-level ISOBMFF box of `type` (e.g. "mpvd"), by a tiny header walk.
    static func topLevelBoxPayload(_ type: String, in source: any ByteSource) throws -> ByteRange? {
        var offset: UInt64 = 0
        while offset + 8 <= source.size {
            let header = try source.readExactly(at: offset, count: 16 <= source.size - offset ? 16 : 8)
            let size32 = header[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let name = String(decoding: header[4..<8], as: UTF8.self)
            var headerLength: UInt64 = 8
            var size = size32
            if size32 == 1 {
                guard header.count == 16 else { return nil }
                size = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                headerLength = 16
            } else if size32 == 0 {
                size = source.size - offset
            }
            guard size >= headerLength, offset + size <= source.size else { return nil }
            if name == type { return ByteRange(offset: offset + headerLength, length: size - headerLength) }
            offset += size
        }
        return nil
    }
}
