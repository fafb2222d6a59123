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
    private var slot: TemporaryFileRegistry.Slot?
    public private(set) var bytesWritten: UInt64 = 0

    /// Opens a temporary file beside `destination` with `permissions`, named for its owner
    /// (`TemporaryFileName`) and registered so that SIGINT, SIGTERM and SIGHUP remove it. The first writer
    /// into a folder removes the temporaries a killed livegrid left there (`StaleTemporaryFiles`).
    public init(destination: String, permissions: mode_t = 0o644) throws {
        self.destination = destination
        let slash = destination.lastIndex(of: "/")
        let dir = slash.map { $0 == destination.startIndex ? "/" : String(destination[..<$0]) } ?? ""
        let base = slash.map { String(destination[destination.index(after: $0)...]) } ?? destination
        StaleTemporaryFiles.removeOnce(in: dir.isEmpty ? "." : dir)
        var lastError: Int32 = 0
        for _ in 0..<16 {
            let candidate = (dir.isEmpty ? "." : dir) + "/" + TemporaryFileName.make(for: base)
            // Registered before it exists: a signal between open and registration would leave it behind.
            let slot = TemporaryFileRegistry.registerTemporary(candidate)
            let fd = PathBytes.open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
            if fd >= 0 {
                if TemporaryFileRegistry.isEnding {
                    // A terminating signal's cleanup may have run before this file existed.
                    close(fd)
                    _ = PathBytes.unlink(candidate)
                    TemporaryFileRegistry.release(slot)
                    throw WriteError.create(destination, EINTR)
                }
                self.fd = fd
                self.temporaryPath = candidate
                self.slot = slot
                // The umask must not narrow what the caller asked for (the thumbnail spec wants 0600 exactly).
                fchmod(fd, permissions)
                return
            }
            lastError = errno
            TemporaryFileRegistry.release(slot)
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

    /// Writes `buffer` again over bytes already written, at `offset` (a header whose fields are known only
    /// once what follows it is written: the scan snapshot streams its sections, then fills its head in).
    public func overwrite(raw buffer: UnsafeRawBufferPointer, at offset: UInt64) throws {
        guard offset <= bytesWritten, UInt64(buffer.count) <= bytesWritten - offset else {
            throw WriteError.write(destination, EINVAL)
        }
        var done = 0
        while done < buffer.count {
            let n = pwrite(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw WriteError.write(destination, errno)
            }
            done += n
        }
    }

    /// Flushes and renames into place. With `replace: false` an existing destination is never overwritten
    /// (link + unlink, which fails with EEXIST instead of clobbering).
    public func commit(replace: Bool = true) throws {
        guard !finished else { return }
        _ = try flushAndClose()
        try place(replace: replace)
    }

    /// Throws the temporary file away; the destination is untouched.
    public func abort() {
        guard !finished else { return }
        if fd >= 0 { close(fd); fd = -1 }
        _ = PathBytes.unlink(temporaryPath)
        finished = true
        TemporaryFileRegistry.release(slot)
        slot = nil
    }

    /// Gives the file these access and modification times (a copy keeps its source's).
    public func setTimes(access: timespec, modification: timespec) {
        guard fd >= 0 else { return }
        var times = [access, modification]
        futimens(fd, &times)
    }

    /// fsync and close; returns the file's status (its device and inode identify it once renamed).
    func flushAndClose() throws -> stat {
        var st = stat()
        if fsync(fd) != 0 || fstat(fd, &st) != 0 { let e = errno; abort(); throw WriteError.commit(destination, e) }
        close(fd)
        fd = -1
        return st
    }

    func place(replace: Bool) throws {
        defer {
            finished = true
            TemporaryFileRegistry.release(slot)
            slot = nil
        }
        if replace {
            guard PathBytes.rename(temporaryPath, destination) == 0 else {
                let e = errno; _ = PathBytes.unlink(temporaryPath)
                throw WriteError.commit(destination, e)
            }
        } else if PathBytes.link(temporaryPath, destination) == 0 {
            _ = PathBytes.unlink(temporaryPath)
        } else {
            let e = errno
            // vfat/exFAT (USB sticks) and some FUSE mounts have no hard links: check, then rename (the same
            // best effort as `POSIXFile.renameNoReplace`).
            if e == EPERM || e == ENOTSUP || e == EOPNOTSUPP || e == EMLINK {
                guard !PathBytes.exists(destination) else { _ = PathBytes.unlink(temporaryPath); throw WriteError.exists(destination) }
                guard PathBytes.rename(temporaryPath, destination) == 0 else {
                    let renameError = errno; _ = PathBytes.unlink(temporaryPath)
                    throw WriteError.commit(destination, renameError)
                }
                return
            }
            _ = PathBytes.unlink(temporaryPath)
            throw e == EEXIST ? WriteError.exists(destination) : WriteError.commit(destination, e)
        }
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
        try prepare(assembly, from: source, to: destination, permissions: permissions).commit(replace: replace)
    }

    /// `assembly` streamed into a temporary beside `destination`, not yet committed: the caller commits it,
    /// alone or with its group (`commitGroup`), or aborts it. A failed stream removes the temporary.
    public static func prepare(_ assembly: ByteAssembly, from source: any ByteSource, to destination: String,
                               permissions: mode_t = 0o644) throws -> AtomicFileWriter {
        let writer = try AtomicFileWriter(destination: destination, permissions: permissions)
        do {
            try assembly.stream(from: source) { try writer.write($0) }
        } catch {
            writer.abort()
            throw error
        }
        return writer
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
