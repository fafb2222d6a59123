import Foundation
import MediaFormats

/// What went wrong moving, copying or trashing files, with the path it happened to: the UI shows
/// `description` as is.
public enum FileOperationError: Error, CustomStringConvertible, Equatable {
    /// A system call failed on `path`.
    case system(operation: String, path: String, errno: Int32)
    /// Something new sits where a file should go back to; nothing was overwritten.
    case wouldOverwrite(String)
    /// The destination is not a directory (a file, a device).
    case notADirectory(String)
    /// The destination directory does not exist: livegrid never creates one the user did not ask for (a typo
    /// would scatter copies into a new folder).
    case missingDirectory(String)
    /// The destination cannot be written (read-only mount, permissions).
    case notWritable(String)
    /// A copy read back differently from its source (cross-device move): the source was kept.
    case verificationFailed(source: String, copy: String)
    /// No free name found after many tries (a directory full of `IMG_1 (n).JPG`).
    case noFreeName(String)
    /// No trash directory could be found or created for `path`.
    case noTrash(String, String)
    case cancelled

    public var description: String {
        switch self {
        case .system(let op, let path, let e): return "\(path): \(op) failed: \(String(cString: strerror(e)))"
        case .wouldOverwrite(let p): return "\(p): something new exists at this path; nothing was overwritten"
        case .notADirectory(let p): return "\(p): not a directory"
        case .missingDirectory(let p): return "\(p) does not exist: create the folder first (mkdir -p) or choose one that exists"
        case .notWritable(let p): return "\(p): destination is not writable (read-only or no permission)"
        case .verificationFailed(let s, let c): return "\(c): copy differs from \(s); the original was kept"
        case .noFreeName(let p): return "\(p): no free file name found"
        case .noTrash(let p, let why): return "\(p): no trash directory: \(why)"
        case .cancelled: return "cancelled"
        }
    }
}

/// Small POSIX helpers shared by the local file operations.
enum POSIXFile {
    static func exists(_ path: String) -> Bool {
        PathBytes.exists(path)
    }

    static func isDirectory(_ path: String) -> Bool {
        PathBytes.isDirectory(path)
    }

    static func device(_ path: String) -> dev_t? {
        var st = StatBuffer()
        return PathBytes.stat(path, &st) == 0 ? st.st_dev : nil
    }

    static func directory(of path: String) -> String {
        let dir = (path as NSString).deletingLastPathComponent
        return dir.isEmpty ? "." : dir
    }

    static func name(of path: String) -> String { (path as NSString).lastPathComponent }

    static func join(_ dir: String, _ name: String) -> String {
        dir.hasSuffix("/") ? dir + name : dir + "/" + name
    }

    /// `path` made absolute against the working directory, with `.`/`..` and duplicate slashes removed
    /// (symlinks are kept: the trash records the path the user knows).
    static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var parts: [Substring] = []
        for part in full.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Renames without ever replacing an existing `to`: a hard link then an unlink of `from` (link fails with
    /// EEXIST instead of clobbering). File systems without hard links fall back to check-then-rename.
    static func renameNoReplace(_ from: String, _ to: String) throws {
        if PathBytes.link(from, to) == 0 {
            if PathBytes.unlink(from) != 0 {
                let failure = FileOperationError.system(operation: "unlink", path: from, errno: errno)
                // The file has both names now: the new one goes again, or the error says it is there.
                if PathBytes.unlink(to) != 0 {
                    let problem = FileOperationError.system(operation: "unlink", path: to, errno: errno)
                    throw IncompleteRollback(cause: failure, stranded: [.init(path: to, undo: .removeCopy(original: from),
                                                                              problem: problem)])
                }
                throw failure
            }
            return
        }
        let e = errno
        switch e {
        case EEXIST:
            throw FileOperationError.wouldOverwrite(to)
        case EPERM, ENOTSUP, EOPNOTSUPP, EMLINK:
            // vfat/exfat/some FUSE: no hard links. Best effort: check, then rename.
            guard !exists(to) else { throw FileOperationError.wouldOverwrite(to) }
            guard PathBytes.rename(from, to) == 0 else {
                throw FileOperationError.system(operation: "rename", path: from, errno: errno)
            }
        default:
            throw FileOperationError.system(operation: "rename", path: from, errno: e)
        }
    }

    /// Whether `dir` accepts new files, tested the honest way (access() lies on read-only mounts for root).
    static func isWritableDirectory(_ dir: String) -> Bool {
        // Named like every livegrid temporary, so a kill -9 between open and unlink leaves nothing for good.
        let probe = join(dir, TemporaryFileName.make(for: "livegrid-probe"))
        let fd = PathBytes.open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        close(fd)
        _ = PathBytes.unlink(probe)
        return true
    }
}
