import Foundation
import MediaFormats

/// The freedesktop.org Trash (the one file managers show): `$XDG_DATA_HOME/Trash` for files on the home
/// mount, `$topdir/.Trash/$uid` or `$topdir/.Trash-$uid` on other volumes. A group of files (a Live
/// Photo's still, movie and sidecar) goes in as one operation and comes back as one.
public struct FreedesktopTrash: Sendable {
    /// One trashed file.
    public struct Entry: Sendable, Hashable, Codable {
        public var originalPath: String
        /// `…/Trash/files/NAME`
        public var trashedPath: String
        /// `…/Trash/info/NAME.trashinfo`
        public var infoPath: String

        public init(originalPath: String, trashedPath: String, infoPath: String) {
            self.originalPath = originalPath
            self.trashedPath = trashedPath
            self.infoPath = infoPath
        }
    }

    /// What one trash operation did: the undo of it is `restore(record)`.
    public struct Record: Sendable, Hashable, Codable {
        public var entries: [Entry]
        public init(entries: [Entry]) { self.entries = entries }
    }

    /// `$XDG_DATA_HOME/Trash` (default `~/.local/share/Trash`).
    public let homeTrash: String
    public let uid: uid_t
    /// The clock for `DeletionDate` (tests pin it).
    public var now: @Sendable () -> Date = { Date() }

    public init(environment: [String: String], uid: uid_t = getuid()) {
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            dataHome = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        }
        self.homeTrash = POSIXFile.absolute(dataHome + "/Trash")
        self.uid = uid
    }

    // MARK: trashing

    /// Moves `paths` to the trash together; if any one fails, those already moved come back and the error
    /// is thrown. The `.trashinfo` of each file is created first (O_EXCL), then the file is renamed.
    public func trash(_ paths: [String]) throws -> Record {
        let absolute = paths.map(POSIXFile.absolute)
        for path in absolute where !POSIXFile.exists(path) {
            throw FileOperationError.system(operation: "trash", path: path, errno: ENOENT)
        }
        // Files the home trash cannot take by rename (another mount, or a bind mount of the same disk)
        // go to their volume's trash.
        var forceVolume = Set<String>()
        for _ in 0..<4 {
            let dirs = try absolute.map { try trashDirectory(for: $0, forceVolume: forceVolume.contains($0)) }
            do {
                return try trash(absolute, into: dirs)
            } catch CrossDevice.rename(let path) {
                guard !forceVolume.contains(path) else {
                    throw FileOperationError.system(operation: "rename to trash", path: path, errno: EXDEV)
                }
                forceVolume.insert(path)
            }
        }
        throw FileOperationError.noTrash(absolute.first ?? "", "no trash on the file's volume")
    }

    private enum CrossDevice: Error { case rename(String) }

    private func trash(_ paths: [String], into dirs: [String]) throws -> Record {
        let names = paths.map(POSIXFile.name(of:))
        let date = TrashInfo.localTimestamp(now())
        var attempts = 0
        var start = 1
        while true {
            attempts += 1
            guard attempts < 64, let number = CollisionNaming.dotted.firstFreeNumber(
                for: names, startingAt: start, isFree: { i, candidate in
                    !POSIXFile.exists(dirs[i] + "/files/" + candidate)
                        && !POSIXFile.exists(dirs[i] + "/info/" + candidate + ".trashinfo")
                }) else {
                throw FileOperationError.noFreeName(dirs.first.map { $0 + "/files/" + (names.first ?? "") } ?? "")
            }
            let entries = paths.indices.map { i -> Entry in
                let name = CollisionNaming.dotted.name(names[i], number: number)
                return Entry(originalPath: paths[i], trashedPath: dirs[i] + "/files/" + name,
                             infoPath: dirs[i] + "/info/" + name + ".trashinfo")
            }
            // 1. Claim the names: every .trashinfo, exclusively.
            var infos: [String] = []
            var taken = false
            for entry in entries {
                let text = TrashInfo(path: entry.originalPath, deletionDate: date).text
                switch createExclusive(entry.infoPath, text) {
                case 0: infos.append(entry.infoPath)
                case EEXIST: taken = true
                case let e:
                    infos.forEach { _ = PathBytes.unlink($0) }
                    throw FileOperationError.system(operation: "create trash info", path: entry.infoPath, errno: e)
                }
                if taken { break }
            }
            if taken {
                infos.forEach { _ = PathBytes.unlink($0) }
                start = number + 1
                continue
            }
            // 2. Move the files in; undo everything on the first failure.
            var moved: [Entry] = []
            for entry in entries {
                do {
                    try POSIXFile.renameNoReplace(entry.originalPath, entry.trashedPath)
                    moved.append(entry)
                } catch {
                    var stranded: [IncompleteRollback.StrandedFile] = []
                    for done in moved.reversed() {
                        IncompleteRollback.moveBack(done.trashedPath, to: done.originalPath, noting: &stranded)
                    }
                    // A file that could not come back keeps its .trashinfo: a file manager can still restore it.
                    // An info file that cannot be removed is only a stale line in the trash's listing.
                    let strandedInfos = Set(moved.filter { e in stranded.contains { $0.path == e.trashedPath } }.map(\.infoPath))
                    infos.filter { !strandedInfos.contains($0) }.forEach { _ = PathBytes.unlink($0) }
                    if !stranded.isEmpty || error is IncompleteRollback {
                        throw IncompleteRollback.error(error, stranded: stranded)
                    }
                    if case FileOperationError.system(_, _, EXDEV) = error { throw CrossDevice.rename(entry.originalPath) }
                    if case FileOperationError.wouldOverwrite = error { break }
                    throw error
                }
            }
            if moved.count == entries.count { return Record(entries: entries) }
            start = number + 1
        }
    }

    private func createExclusive(_ path: String, _ text: String) -> Int32 {
        let fd = PathBytes.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        if n != bytes.count { let e = n < 0 ? errno : EIO; _ = PathBytes.unlink(path); return e }
        return 0
    }

    // MARK: restoring

    /// Puts every file of `record` back where it was, byte-identical (a rename). Refuses, touching nothing,
    /// when something new sits at an original path or a trashed file is gone; rolls back on a failure midway.
    @discardableResult
    public func restore(_ record: Record) throws -> [String] {
        for entry in record.entries {
            if POSIXFile.exists(entry.originalPath) { throw FileOperationError.wouldOverwrite(entry.originalPath) }
            guard POSIXFile.exists(entry.trashedPath) else {
                throw FileOperationError.system(operation: "restore", path: entry.trashedPath, errno: ENOENT)
            }
            guard POSIXFile.isDirectory(POSIXFile.directory(of: entry.originalPath)) else {
                throw FileOperationError.notADirectory(POSIXFile.directory(of: entry.originalPath))
            }
        }
        var restored: [Entry] = []
        for entry in record.entries {
            do {
                try POSIXFile.renameNoReplace(entry.trashedPath, entry.originalPath)
                restored.append(entry)
            } catch {
                // Files that cannot go back into the trash stay restored; the error names them (their .trashinfo
                // files are kept, so the trash still lists the whole group).
                var stranded: [IncompleteRollback.StrandedFile] = []
                for done in restored.reversed() {
                    IncompleteRollback.moveBack(done.originalPath, to: done.trashedPath, noting: &stranded)
                }
                throw IncompleteRollback.error(error, stranded: stranded)
            }
        }
        for entry in record.entries { _ = PathBytes.unlink(entry.infoPath) }
        return record.entries.map(\.originalPath)
    }

    // MARK: where the trash is

    /// The trash directory (with `files/` and `info/` created, mode 0700) that takes `path` by rename.
    public func trashDirectory(for path: String, forceVolume: Bool = false) throws -> String {
        let parent = POSIXFile.directory(of: POSIXFile.absolute(path))
        guard let fileDevice = POSIXFile.device(parent) else {
            throw FileOperationError.system(operation: "stat", path: parent, errno: errno)
        }
        if !forceVolume {
            try FreedesktopTrash.makeTrash(homeTrash, parentsToo: true)
            if POSIXFile.device(homeTrash) == fileDevice { return homeTrash }
        }
        return try volumeTrash(topdir: FreedesktopTrash.mountTop(of: parent))
    }

    /// `$topdir/.Trash/$uid` when the admin prepared `$topdir/.Trash` (a real directory, sticky, not a
    /// symlink), else `$topdir/.Trash-$uid`.
    public func volumeTrash(topdir: String) throws -> String {
        let shared = POSIXFile.join(topdir, ".Trash")
        var st = stat()
        if lstat(shared, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, (st.st_mode & S_ISVTX) != 0 {
            let mine = shared + "/\(uid)"
            if (try? FreedesktopTrash.makeTrash(mine, parentsToo: false)) != nil { return mine }   // try?: else the home trash
        }
        let own = POSIXFile.join(topdir, ".Trash-\(uid)")
        do {
            try FreedesktopTrash.makeTrash(own, parentsToo: false)
        } catch {
            throw FileOperationError.noTrash(topdir, "\(error)")
        }
        return own
    }

    /// The mount point holding `path`: walk up while the parent is on the same device.
    public static func mountTop(of path: String) -> String {
        var current = POSIXFile.absolute(path)
        guard let device = POSIXFile.device(current) else { return current }
        while current != "/" {
            let parent = POSIXFile.directory(of: current)
            guard POSIXFile.device(parent) == device else { break }
            current = parent
        }
        return current
    }

    /// Creates `dir`, `dir/files` and `dir/info` (0700) unless present; refuses a symlinked trash.
    static func makeTrash(_ dir: String, parentsToo: Bool) throws {
        if parentsToo {
            // mkdir -p in the system's words: FileManager's error printed as "Error Domain=NSCocoaErrorDomain …".
            let parents = POSIXFile.directory(of: dir)
            var path = parents.hasPrefix("/") ? "" : "."
            for part in parents.split(separator: "/") {
                path += "/" + part
                guard mkdir(path, 0o777) == 0 || errno == EEXIST else {
                    throw FileOperationError.system(operation: "mkdir", path: path, errno: errno)
                }
            }
        }
        for d in [dir, dir + "/files", dir + "/info"] {
            var st = stat()
            if lstat(d, &st) == 0 {
                guard (st.st_mode & S_IFMT) == S_IFDIR else { throw FileOperationError.notADirectory(d) }
                continue
            }
            guard mkdir(d, 0o700) == 0 || errno == EEXIST else {
                throw FileOperationError.system(operation: "mkdir", path: d, errno: errno)
            }
        }
    }
}
