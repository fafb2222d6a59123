import CCodecLoader
import CFFmpeg
import MediaFormats

/// libavfilter is opened only by the studio (edit, export effects): browsing never pays for it.
enum StudioLibraries {
    static let avfilterProblem: String? = {
        var message = [CChar](repeating: 0, count: 512)
        guard lg_codecs_load_avfilter(&message, message.count) != 0 else { return nil }
        return String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Opens libav* and libavfilter (throws a plain reason when a package is missing).
    static func ensure() throws(LibavError) {
        try LibavSetup.ensure()
        if let avfilterProblem { throw LibavError.unsupported("libavfilter is unavailable (install libavfilter8): \(avfilterProblem)") }
    }
}

extension StudioLibraries {
    /// `avio_open` for writing `path` by its raw bytes ("file:" keeps a ':' in a name from naming a protocol).
    static func openForWriting(_ path: String) throws(LibavError) -> UnsafeMutablePointer<AVIOContext> {
        var url = Array("file:".utf8).map { CChar(bitPattern: $0) } + PathBytes.bytes(of: path).map { CChar(bitPattern: $0) }
        url.append(0)
        var io: UnsafeMutablePointer<AVIOContext>?
        let result = url.withUnsafeBufferPointer { avio_open(&io, $0.baseAddress, AVIO_FLAG_WRITE) }
        guard result >= 0, let io else { throw LibavError.library("avio_open", result) }
        return io
    }

    /// Size of the file at `path` in bytes (0 when it cannot be read).
    static func fileSize(_ path: String) -> Int {
        var info = StatBuffer()
        return PathBytes.stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}
