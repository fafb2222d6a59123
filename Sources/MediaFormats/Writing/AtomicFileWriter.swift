#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file the safe way: into a temporary file in the destination's directory, flushed to disk, then
/// renamed over the final name. A crash or an error mid-write never leaves a half file under the final name,
/// and a user's original is never modified in place.
public final class AtomicFileWriter {
    public enum WriteError: Error, CustomStringConvertible {
        case create(String, Int32)
        case write(String, Int32)
        case commit(String, Int32)
        case exists(String)

        public var description: String {
            func why(_ e: Int32) -> String { String(cString: strerror(e)) }
            switch self {
            case .create(let p, let e): return "\(p): cannot create temporary file: \(why(e))"
            case .write(let p, let e): return "\(p): write failed: \(why(e))"
            case .commit(let p, let e): return "\(p): cannot move into place: \(why(e))"
            case .exists(let p): return "\(p): already exists"
            }
        }
    }

    public let destination: String
    public let temporaryPath: String
    private var fd: Int32
    private var finished = false
    public private(set) var bytesWritten: UInt64 = 0

    /// Opens a temporary file beside `destination` with `permissions`.
    public init(destination: String, permissions: mode_t = 0o644) throws {
        self.destination = destination
        let slash = destination.lastIndex(of: "/")
        let dir = slash.map { $0 == destination.startIndex ? "/" : String(destination[..<$0]) } ?? ""
        let base = slash.map { String(destination[destination.index(after: $0)...]) } ?? destination
        var lastError: Int32 = 0
        for _ in 0..<16 {
            let candidate = (dir.isEmpty ? "." : dir) + "/.\(base).livegrid-\(UInt32.random(in: 0...UInt32.max)).tmp"
            let fd = PathBytes.open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
            if fd >= 0 {
                self.fd = fd
                self.temporaryPath = candidate
                // The umask must not narrow what the caller asked for (the thumbnail spec wants 0600 exactly).
                fchmod(fd, permissions)
                return
            }
            lastError = errno
            if lastError != EEXIST { break }
        }
        throw WriteError.create(destination, lastError)
    }

    deinit { if !finished { abort() } }

    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write(raw: $0) }
    }

    public func write(raw buffer: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < buffer.count {
            let n = unistdWrite(fd, buffer.baseAddress! + done, buffer.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw WriteError.write(destination, errno)
            }
            done += n
        }
        bytesWritten += UInt64(done)
    }

    /// Flushes and renames into place. With `replace: false` an existing destination is never overwritten
    /// (link + unlink, which fails with EEXIST instead of clobbering).
    public func commit(replace: Bool = true) throws {
        guard !finished else { return }
        if fsync(fd) != 0 { let e = errno; abort(); throw WriteError.commit(destination, e) }
        close(fd)
        fd = -1
        if replace {
            guard PathBytes.rename(temporaryPath, destination) == 0 else {
                let e = errno; _ = PathBytes.unlink(temporaryPath); finished = true
                throw WriteError.commit(destination, e)
            }
        } else {
            guard PathBytes.link(temporaryPath, destination) == 0 else {
                let e = errno; _ = PathBytes.unlink(temporaryPath); finished = true
                throw e == EEXIST ? WriteError.exists(destination) : WriteError.commit(destination, e)
            }
            _ = PathBytes.unlink(temporaryPath)
        }
        finished = true
    }

    /// Throws the temporary file away; the destination is untouched.
    public func abort() {
        guard !finished else { return }
        if fd >= 0 { close(fd); fd = -1 }
        _ = PathBytes.unlink(temporaryPath)
        finished = true
    }

    /// Writes `bytes` to `destination` atomically in one call.
    public static func write(_ bytes: [UInt8], to destination: String, permissions: mode_t = 0o644,
                             replace: Bool = true) throws {
        let writer = try AtomicFileWriter(destination: destination, permissions: permissions)
        try writer.write(bytes)
        try writer.commit(replace: replace)
    }
}


extension AtomicFileWriter {
    /// Streams a writer's `ByteAssembly` (new bytes + ranges of `source`) into `destination` atomically.
    public static func write(_ assembly: ByteAssembly, from source: any ByteSource, to destination: String,
                             permissions: mode_t = 0o644, replace: Bool = true) throws {
        let writer = try AtomicFileWriter(destination: destination, permissions: permissions)
        try assembly.stream(from: source) { try writer.write($0) }
        try writer.commit(replace: replace)
    }
}

/// `write(2)`, named apart from the writer's own `write` methods.
private func unistdWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, buffer, count)
    #else
    return Darwin.write(fd, buffer, count)
    #endif
}
