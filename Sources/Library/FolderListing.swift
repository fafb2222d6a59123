#if canImport(Glibc)
import Glibc
#endif
import LibraryCore
import LibraryIndex
import LivePairing
import MediaFormats

/// The media files of one folder, read with `readdir` as bytes: no `stat`, no Foundation, no `String` per
/// name that is not a media file. A 100,000-file folder is listed in about the time the kernel takes to hand
/// over its entries, so the first screen's names are known long before any file is looked at (issue 17).
///
/// Names are kept back to back in one byte array, as the UTF-8 of the string the rest of livegrid knows them
/// by (`PathBytes.string`: bytes that are not UTF-8 are escaped), so a path made from them is exactly the path
/// the old per-name `String` listing made.
struct FolderListing: Sendable {
    /// The folder as the scanner spells it: the root, or the root plus "/" plus the names below it.
    let directory: String
    /// The folder's own device and inode (0, 0 when `stat` failed): index rows are filed under it, and a
    /// renamed folder keeps it.
    let folder: FolderKey
    /// `directory` and "/", one shared object for every file of the folder (`MediaFile.folder`).
    let folderPrefix: FolderPrefix
    var prefix: String { folderPrefix.text }
    private(set) var nameBytes: [UInt8] = []
    private(set) var nameEnds: [Int] = []
    /// The paths of its subfolders (hidden ones and thumbnail caches left out), as the scanner spells them:
    /// the browser shows them as cells (issue 31.2).
    var subfolders: [String] = []

    init(directory: String, folder: FolderKey) {
        self.directory = directory
        self.folder = folder
        self.folderPrefix = FolderPrefix.shared(directory == "/" ? "/" : directory + "/")
    }

    var count: Int { nameEnds.count }

    func nameRange(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : nameEnds[index - 1])..<nameEnds[index]
    }

    /// The name as `String` (inline, no heap buffer, for names of at most 15 bytes).
    func name(_ index: Int) -> String {
        let range = nameRange(index)
        return nameBytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// `directory + "/" + name`, as `String`: made only where a path is needed (a probe's open).
    func path(_ index: Int) -> String {
        prefix + name(index)
    }

    /// The file as the scan keeps it: the shared prefix and its name, no full path string.
    func mediaFile(_ index: Int, size: UInt64, modificationTime: Double, info: MediaInfo) -> MediaFile {
        MediaFile(folder: folderPrefix, name: name(index), size: size, modificationTime: modificationTime, info: info)
    }

    mutating func append<Bytes: Sequence>(name: Bytes) where Bytes.Element == UInt8 {
        nameBytes.append(contentsOf: name)
        nameEnds.append(nameBytes.count)
    }
}

/// A folder's identity for the index: its device and inode.
typealias FolderKey = InodeKey

extension LibraryScanner {
    /// The media files below `root`, one listing per folder, in the order folders are visited. Hidden
    /// entries and thumbnail caches are skipped. Each entry is typed (d_type, else lstat) before its name is
    /// looked at: a folder named `trip.jpg/` or `heic/` is a folder, descended into with `recursive`.
    /// Symbolic links to folders are not followed, and a folder reached twice (bind mounts) is read once, so
    /// there is no loop.
    static func listFolders(root: String, recursive: Bool, warnings: inout [String]) throws -> [FolderListing] {
        var result: [FolderListing] = []
        var pending = [root]
        var isRoot = true
        var visited = Set<FolderKey>()
        while let dir = pending.popLast() {
            guard let folder = firstVisit(dir, visited: &visited) else { continue }
            var listing = FolderListing(directory: dir, folder: folder)
            var subfolders: [String] = []
            do throws(DirectoryError) {
                try readMediaNames(of: dir, into: &listing) { name in
                    if !name.elementsEqual("thumbnails".utf8) {
                        let sub = PathBytes.string(from: name)
                        subfolders.append(dir == "/" ? "/" + sub : dir + "/" + sub)
                    }
                }
            } catch {
                if isRoot { throw LibraryScanError.unreadable(dir, error.description) }
                warnings.append("\(dir): cannot read directory (\(error.description)), skipped")
                continue
            }
            isRoot = false
            listing.subfolders = subfolders
            if recursive { pending += subfolders }
            result.append(listing)
        }
        return result
    }

    /// `dir`'s device and inode (`.unknown` when it cannot be stat'ed), or nil when `visited` already holds
    /// them: a folder reached twice (a bind mount) is listed once, so a walk has no loop.
    static func firstVisit(_ dir: String, visited: inout Set<FolderKey>) -> FolderKey? {
        var st = StatBuffer()
        guard PathBytes.stat(dir, &st) == 0 else { return .unknown }
        let folder = FolderKey(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
        return visited.insert(folder).inserted ? folder : nil
    }

    /// Reads `directory` with readdir: media names go into `listing`, folder names to `folderFound`.
    static func readMediaNames(of directory: String, into listing: inout FolderListing,
                               folderFound: (UnsafeBufferPointer<UInt8>) -> Void) throws(DirectoryError) {
        guard let dir = PathBytes.withCString(directory, { opendir($0) }) else { throw DirectoryError(errno: errno) }
        defer { closedir(dir) }
        let descriptor = dirfd(dir)
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
        while let entry = readdir(dir) {
            let cName = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self)
            let name = UnsafeBufferPointer(start: UnsafeRawPointer(cName).assumingMemoryBound(to: UInt8.self),
                                           count: strlen(cName))
            // Hidden entries, "." and "..".
            guard let first = name.first, first != UInt8(ascii: ".") else { continue }
            var type = entry.pointee.d_type
            if type == UInt8(DT_UNKNOWN) {
                // The file system gives no type: lstat it (relative to the open folder).
                var st = StatBuffer()
                if fstatat(descriptor, cName, &st, AT_SYMLINK_NOFOLLOW) == 0 {
                    switch st.st_mode & S_IFMT {
                    case S_IFREG: type = UInt8(DT_REG)
                    case S_IFDIR: type = UInt8(DT_DIR)
                    case S_IFLNK: type = UInt8(DT_LNK)
                    default: type = UInt8(DT_FIFO)   // any other kind: not a file to probe
                    }
                }
            }
            switch type {
            case UInt8(DT_DIR):
                folderFound(name)
            case UInt8(DT_REG), UInt8(DT_LNK), UInt8(DT_UNKNOWN):
                // A link to a file counts (the probe follows it); a link to a folder is dropped by the probe.
                guard isMediaName(bytes: name) else { continue }
                if name.contains(where: { $0 >= 0x80 }) {
                    listing.append(name: PathBytes.string(from: name).utf8)
                } else {
                    listing.append(name: name)
                }
            default:
                break   // a FIFO or device named like a photo would block or mislead the probe
            }
        }
    }

    /// `isMediaName` on raw bytes: the 2 to 4 ASCII bytes after the last dot (not a leading one), lower-cased,
    /// packed into one integer and looked up in a set.
    static func isMediaName(bytes name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != 0 else { return false }
        let length = name.count - dot - 1
        guard (2...4).contains(length) else { return false }
        var packed: UInt32 = 0
        for byte in name[(dot + 1)...] {
            guard byte < 0x80 else { return false }
            packed = packed << 8 | UInt32(byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte)
        }
        return packedMediaExtensions.contains(packed)
    }

    private static let packedMediaExtensions: Set<UInt32> = Set(mediaExtensions.map { ext in
        ext.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    })
}
