#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small hidden file beside a group's primary (a Live Photo's still) while its companions (the movie) are
/// already in place and the primary is not yet: the one window a SIGKILL could otherwise leave as a movie
/// without its still. It names the primary and each placed companion with its device and inode; the next
/// livegrid that writes in that folder (`StaleTemporaryFiles`) finds it stale, and when the primary never
/// arrived it removes exactly those companions (same inode: never a file someone put there since).
///
/// Named like every livegrid temporary (`.NAME.livegrid-group.livegrid-<pid>-<boot>-<unique>.tmp`), so the
/// owner check that decides whether a temporary is stale decides for it too.
struct GroupCommitJournal {
    static let baseSuffix = ".livegrid-group"
    private static let magic: [UInt8] = Array("livegrid-group-1".utf8)

    let path: String
    /// Registered like a temporary: a terminating signal removes it with the companions (the handler already
    /// rolls the group back); only SIGKILL leaves it to the next run.
    private(set) var slot: TemporaryFileRegistry.Slot?

    /// Writes the journal for `primary` before the companions are placed; nil when it cannot be written (the
    /// group is then committed as before, with only the in-process rollback).
    static func begin(primary: String) -> GroupCommitJournal? {
        let slash = primary.lastIndex(of: "/")
        let directory = slash.map { String(primary[...$0]) } ?? ""
        let base = slash.map { String(primary[primary.index(after: $0)...]) } ?? primary
        let path = directory + TemporaryFileName.make(for: base + baseSuffix)
        var journal = GroupCommitJournal(path: path)
        journal.slot = TemporaryFileRegistry.registerTemporary(path)
        guard journal.write(primary: primary, companions: []) else {
            journal.end()
            return nil
        }
        return journal
    }

    /// Records the companions placed so far (called before each one is placed, with it included: a kill
    /// between the record and the rename finds no file with that inode and removes nothing).
    @discardableResult
    func write(primary: String, companions: [(path: String, device: UInt64, inode: UInt64)]) -> Bool {
        var bytes = Self.magic + [0] + PathBytes.bytes(of: primary) + [0]
        for companion in companions {
            bytes += PathBytes.bytes(of: companion.path) + [0] + Array(String(companion.device).utf8) + [0]
                + Array(String(companion.inode).utf8) + [0]
        }
        let fd = PathBytes.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            written += n
        }
        return fsync(fd) == 0
    }

    /// The group is whole (or wholly removed): the journal goes.
    func end() {
        _ = PathBytes.unlink(path)
        TemporaryFileRegistry.release(slot)
    }

    /// A stale journal found by the sweep: when its primary is absent, the companions it names that are still
    /// the same files are removed. Returns the paths removed.
    @discardableResult
    static func rollBack(journalAt journal: String) -> [String] {
        guard let bytes = readSmallFile(journal) else { return [] }
        let fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
        guard fields.count >= 2, fields[0] == magic else { return [] }
        let primary = PathBytes.string(from: fields[1])
        guard !PathBytes.exists(primary) else { return [] }
        var removed: [String] = []
        var index = 2
        while index + 2 < fields.count {
            let path = PathBytes.string(from: fields[index])
            let device = UInt64(String(decoding: fields[index + 1], as: UTF8.self))
            let inode = UInt64(String(decoding: fields[index + 2], as: UTF8.self))
            index += 3
            var st = StatBuffer()
            guard let device, let inode, PathBytes.lstat(path, &st) == 0,
                  UInt64(st.st_dev) == device, UInt64(st.st_ino) == inode else { continue }
            if PathBytes.unlink(path) == 0 { removed.append(path) }
        }
        return removed
    }
}
