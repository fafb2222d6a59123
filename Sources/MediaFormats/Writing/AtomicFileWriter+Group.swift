#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension AtomicFileWriter {
    /// Commits files written to their temporaries that belong together (a Live Photo's movie and still,
    /// a sidecar) as new files, never replacing anything: `companions` first, then `primary` (the still),
    /// so a visible primary always has its companions.
    ///
    /// - The folder is synced after the companions and again after the primary: after a power cut a
    ///   primary never reappears without its companions (each file was synced before its rename).
    /// - A terminating signal before the primary is in place removes the companions already committed
    ///   (`TemporaryFileRegistry`). SIGKILL between the two renames cannot be caught: a `GroupCommitJournal`
    ///   beside the primary names the companions placed, and the next livegrid writing there removes them
    ///   when the primary never arrived.
    /// - On any error the companions already committed are removed, every temporary is thrown away and
    ///   the error is rethrown (`WriteError.exists` when a name was taken meanwhile).
    public static func commitGroup(primary: AtomicFileWriter, companions: [AtomicFileWriter]) throws {
        var committed: [(path: String, device: UInt64, inode: UInt64, slot: TemporaryFileRegistry.Slot?)] = []
        defer { committed.forEach { TemporaryFileRegistry.release($0.slot) } }
        let journal = companions.isEmpty ? nil : GroupCommitJournal.begin(primary: primary.destination)
        defer { journal?.end() }
        do {
            for companion in companions {
                let st = try companion.flushAndClose()
                let device = UInt64(st.st_dev), inode = UInt64(st.st_ino)
                journal?.write(primary: primary.destination,
                               companions: committed.map { ($0.path, $0.device, $0.inode) } + [(companion.destination, device, inode)])
                // Registered before the link, identified by inode, so that no instant exists in which a
                // signal could leave it visible without its primary.
                let slot = TemporaryFileRegistry.registerCompanion(companion.destination, device: device, inode: inode,
                                                                   primary: primary.destination)
                do {
                    try companion.place(replace: false)
                } catch {
                    TemporaryFileRegistry.release(slot)
                    throw error
                }
                committed.append((companion.destination, device, inode, slot))
            }
            if !companions.isEmpty { syncDirectories(of: companions.map(\.destination)) }
            try primary.commit(replace: false)
            syncDirectories(of: [primary.destination])
        } catch {
            primary.abort()
            companions.forEach { $0.abort() }
            for file in committed {
                var st = StatBuffer()
                if PathBytes.lstat(file.path, &st) == 0, UInt64(st.st_dev) == file.device, UInt64(st.st_ino) == file.inode {
                    _ = PathBytes.unlink(file.path)
                }
            }
            throw error
        }
    }

    /// fsync of each folder holding `paths`: makes their new names durable (best effort: some file
    /// systems refuse to sync a directory, which then only costs durability, never correctness).
    public static func syncDirectories(of paths: [String]) {
        var done = Set<String>()
        for path in paths {
            let slash = path.lastIndex(of: "/")
            let dir = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
            guard done.insert(dir).inserted else { continue }
            let fd = PathBytes.open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            fsync(fd)
            close(fd)
        }
    }
}
