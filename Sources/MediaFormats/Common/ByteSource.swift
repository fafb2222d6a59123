import Concurrent
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Random-access bytes: a local file, a slice of one, or memory. Parsers ask only for the ranges they
/// need, so a 4 GB movie costs a few header reads, never a full load.
public protocol ByteSource: Sendable {
    /// Total size in bytes.
    var size: UInt64 { get }
    /// Reads up to `count` bytes at `offset`; returns fewer only at the end of the source.
    func read(at offset: UInt64, count: Int) throws(MediaError) -> [UInt8]
}

extension ByteSource {
    /// Reads exactly `count` bytes or throws `.truncated`.
    public func readExactly(at offset: UInt64, count: Int) throws(MediaError) -> [UInt8] {
        let bytes = try read(at: offset, count: count)
        guard bytes.count == count else {
            throw MediaError.truncated(at: offset + UInt64(bytes.count), needed: count - bytes.count)
        }
        return bytes
    }

    /// A `ByteReader` over `count` bytes at `offset` (clamped to the source), positioned at its start.
    public func reader(at offset: UInt64, count: Int, byteOrder: ByteOrder = .bigEndian) throws(MediaError) -> ByteReader {
        ByteReader(try read(at: offset, count: count), baseOffset: offset, byteOrder: byteOrder)
    }
}

/// Counts what was read: the scan benchmark reports bytes read per file from it.
/// One total per thread stripe (`ThreadStripe`), summed when asked: the scan's workers count every read,
/// and one shared lock made them queue on each other.
public final class ReadCounter: Sendable {
    private let stripes = (0..<8).map { _ in Locked((reads: 0, bytes: UInt64(0))) }
    public init() {}
    public func add(bytes: Int) {
        stripes[ThreadStripe.current(of: stripes.count)].withLockedValue { $0.reads += 1; $0.bytes += UInt64(bytes) }
    }
    public var reads: Int { stripes.reduce(0) { $0 + $1.value.reads } }
    public var bytes: UInt64 { stripes.reduce(0) { $0 + $1.value.bytes } }
}

/// A file opened read-only, read with `pread` (thread-safe, no shared file position).
public final class FileByteSource: ByteSource, Sendable {
    public let path: String
    public let size: UInt64
    public let counter: ReadCounter?
    private let fd: Int32

    public convenience init(path: String, counter: ReadCounter? = nil) throws(MediaError) {
        // O_NONBLOCK: a FIFO (or a tty, a device) named like a photo would block a plain open until a writer
        // came; this one returns at once, and the fstat below refuses it by its type. On a regular file the
        // flag changes nothing (reads of a regular file never block in that sense).
        let fd = PathBytes.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw MediaError.io(path: path, errno: errno) }
        try self.init(descriptor: fd, path: path, counter: counter)
    }

    /// Takes `descriptor` (opened read-only, e.g. relative to its folder by a scan: no path walk per file) and
    /// closes it when done, also when it is refused. `path` names the file in messages.
    public init(descriptor fd: Int32, path: String, counter: ReadCounter? = nil) throws(MediaError) {
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = errno
            close(fd)
            throw MediaError.io(path: path, errno: e)
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw MediaError.notARegularFile(path: path, kind: MediaError.fileKind(st.st_mode))
        }
        self.fd = fd
        self.path = path
        self.size = UInt64(max(0, st.st_size))
        self.counter = counter
    }

    /// Takes `descriptor`, which the caller has just found (by `stat` of the same name) to be a regular file of
    /// `size` bytes: a scan stats every file anyway, and a second `fstat` per probed file was a system call
    /// for nothing (issue 17). Closes it when done.
    public init(descriptor fd: Int32, path: String, size: UInt64, counter: ReadCounter? = nil) {
        self.fd = fd
        self.path = path
        self.size = size
        self.counter = counter
    }

    deinit { close(fd) }

    public func read(at offset: UInt64, count: Int) throws(MediaError) -> [UInt8] {
        guard count > 0, offset < size else { return [] }
        let wanted = Int(min(UInt64(count), size - offset))
        // Read straight into the array's storage: zero-filling it first cost a memset of every byte read.
        var failure: Int32?
        let result = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
            var done = 0
            while done < wanted, let start = buffer.baseAddress {
                let n = pread(fd, start + done, wanted - done, off_t(offset) + off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if n == 0 { break }
                done += n
            }
            initialized = done
        }
        if let failure { throw MediaError.io(path: path, errno: failure) }
        counter?.add(bytes: result.count)
        return result
    }
}

/// Bytes already in memory (tests, fuzzing, downloaded headers).
public struct MemoryByteSource: ByteSource {
    public let bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public var size: UInt64 { UInt64(bytes.count) }
    public func read(at offset: UInt64, count: Int) throws(MediaError) -> [UInt8] {
        guard count > 0, offset < size else { return [] }
        let start = Int(offset)
        let end = start + min(count, bytes.count - start)
        return Array(bytes[start..<end])
    }
}

/// A window onto another source: an embedded movie inside a still, read without extracting it.
public struct SliceByteSource: ByteSource {
    public let base: any ByteSource
    public let range: ByteRange
    public init(base: any ByteSource, range: ByteRange) {
        self.base = base
        let end = min(range.offset + range.length, base.size)
        let start = min(range.offset, end)
        self.range = ByteRange(offset: start, length: end - start)
    }
    public var size: UInt64 { range.length }
    public func read(at offset: UInt64, count: Int) throws(MediaError) -> [UInt8] {
        guard count > 0, offset < size else { return [] }
        let n = Int(min(UInt64(count), size - offset))
        return try base.read(at: range.offset + offset, count: n)
    }
}
