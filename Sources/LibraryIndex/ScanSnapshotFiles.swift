#if canImport(Glibc)
import Glibc
#endif
import MediaFormats

/// The last scan of each library, as bytes the Library module writes and reads (`ScanSnapshot`), kept as one
/// file per library in `scans/` beside the index database.
///
/// Files, not a table: a 100,000-file library's snapshot is ~35 MB, and reading it through SQLite copied it
/// twice (its overflow pages into a buffer, the buffer into ours) and faulted in ~70 MB of fresh memory on
/// the way to the first view. A file is read folder by folder instead, each part straight into a buffer of
/// its size (issue 17 item 3). A file is written whole to a temporary name and renamed into place, so a reader
/// (another livegrid, a crash) sees the old file or the new one, never half of one; an open descriptor keeps
/// its file's old inode.
public struct ScanSnapshotFiles: Sendable {
    public let folder: String

    /// Libraries whose last scan is kept (the least recently stored go first).
    public static let limit = 8
    /// The largest snapshot kept (~1.5 million files); a bigger library is scanned the usual way each time.
    public static let maxBytes = 512 << 20

    /// `scans/` beside `indexPath`.
    public init(indexPath: String) {
        let parent = indexPath.lastIndex(of: "/").map { String(indexPath[..<$0]) } ?? "."
        folder = parent + "/scans"
    }

    /// The snapshot of `library`, open for reading, or nil when none is kept (or it cannot be opened).
    public func load(library: String) -> SnapshotFile? {
        let fd = open(path(library), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0, st.st_size <= Self.maxBytes else {
            close(fd)
            return nil
        }
        return SnapshotFile(descriptor: fd, size: Int(st.st_size))
    }

    /// Keeps `bytes` as the snapshot of `library` (`AtomicFileWriter`: a temporary beside it, removed on a
    /// signal or by the next writer if livegrid is killed, renamed into place), then removes the oldest beyond
    /// `limit`. Failures only mean no snapshot (the next scan goes the usual way).
    public func store(_ bytes: [UInt8], library: String) {
        store(library: library) { output in
            try output.append(bytes)
            return true
        }
    }

    /// Streams the snapshot of `library` into place, as `store(_:library:)`: `fill` writes it through the output
    /// (never whole in memory: a 100,000-item library's is ~60 MB, and building it in one buffer tripled the
    /// browser's peak memory while it was written) and returns false to give up, which forgets the last one.
    public func store(library: String, _ fill: (inout SnapshotFileOutput) throws -> Bool) {
        mkdir(folder, 0o700)
        let final = path(library)
        // try?: a snapshot that cannot be written is none; the library is scanned in full next time.
        guard let writer = try? AtomicFileWriter(destination: final, permissions: 0o600) else { return }
        var output = SnapshotFileOutput(writer: writer)
        do {
            guard try fill(&output) else {
                writer.abort()
                return remove(library: library)
            }
            try writer.commit()
        } catch {
            writer.abort()
            return remove(library: library)
        }
        prune(keeping: final)
    }

    /// Marks the snapshot of `library` as just used (its mtime, which decides which snapshots are kept).
    public func touch(library: String) {
        _ = utimensat(AT_FDCWD, path(library), nil, 0)
    }

    /// Forgets the snapshot of `library`.
    public func remove(library: String) {
        unlink(path(library))
    }

    /// Where the snapshot of `library` is kept.
    public func path(_ library: String) -> String { folder + "/" + Self.fileName(library) }

    /// `scan-` and a 64-bit FNV-1a hash of the library's key in hex: any root, however long or strange, is one
    /// short plain name (the key itself is inside the file and checked when read).
    static func fileName(_ library: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in library.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "scan-" + String(repeating: "0", count: 16 - hex.count) + hex + ".snapshot"
    }

    /// Removes snapshots beyond `limit` (oldest stored first).
    private func prune(keeping kept: String) {
        guard let dir = opendir(folder) else { return }
        var snapshots: [(path: String, stored: Int)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            let path = folder + "/" + name
            var st = stat()
            guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
            if name.hasPrefix("scan-") && name.hasSuffix(".snapshot") {
                snapshots.append((path, st.st_mtim.tv_sec))
            }
        }
        closedir(dir)
        let excess = snapshots.filter { $0.path != kept }.sorted { $0.stored > $1.stored }.dropFirst(Self.limit - 1)
        for old in excess { unlink(old.path) }
    }
}

/// A snapshot file open for reading in parts, from several threads at once (`pread`), closed when released.
/// Read in parts, not mapped: a mapping's pages count in the process's RSS, and a file cut by someone else while
/// mapped would kill the process with SIGBUS where a read just comes back short.
public final class SnapshotFile: Sendable {
    private let descriptor: Int32
    public let size: Int

    init(descriptor: Int32, size: Int) {
        self.descriptor = descriptor
        self.size = size
    }

    /// `count` bytes from `offset`, or nil when the file does not hold them all.
    public func read(offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else { return nil }
        // Not zero-filled first: every byte is read into it, or it is dropped.
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count, let base = buffer.baseAddress {
                let n = pread(descriptor, base + done, count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                done += n
            }
            complete = done == count
            initialized = done
        }
        return complete ? bytes : nil
    }

    deinit { close(descriptor) }
}

/// Where a snapshot is written: appended part by part, with its head filled in last over the room kept for it.
public protocol SnapshotOutput {
    var count: Int { get }
    mutating func append(_ bytes: [UInt8]) throws
    mutating func overwrite(_ bytes: [UInt8], at offset: Int) throws
}

/// A snapshot streamed into its temporary file; past `ScanSnapshotFiles.maxBytes` it gives up (`TooBig`).
public struct SnapshotFileOutput: SnapshotOutput {
    public struct TooBig: Error {}
    let writer: AtomicFileWriter
    public private(set) var count = 0

    public mutating func append(_ bytes: [UInt8]) throws {
        guard bytes.count <= ScanSnapshotFiles.maxBytes - count else { throw TooBig() }
        try writer.write(bytes)
        count += bytes.count
    }

    public mutating func overwrite(_ bytes: [UInt8], at offset: Int) throws {
        try bytes.withUnsafeBytes { try writer.overwrite(raw: $0, at: UInt64(offset)) }
    }
}
