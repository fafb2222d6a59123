import Foundation
import MediaFormats
import LivePairing

/// Where an item's XMP sidecars are. livegrid writes `IMG_1234.JPG.xmp` (full name + `.xmp`: what darktable
/// and digiKam write by default, and unambiguous when `IMG_1234.JPG` and `IMG_1234.PNG` share a folder); it
/// reads `IMG_1234.xmp` too (Lightroom, Capture One, digiKam's optional style), preferring the first when both
/// exist, as Immich does. For a Live Photo the sidecar belongs to the still.
public enum SidecarLocator {
    /// The sidecar livegrid writes for a file: `path + ".xmp"`.
    public static func preferredSidecar(for path: String) -> String { path + ".xmp" }

    /// Existing sidecars of one media file, preferred first: `name.ext.xmp`, then `name.xmp` (either
    /// extension case).
    /// `includingLinks`: a symbolic link at a sidecar's name counts too (the rating store follows it, or
    /// says why not); files that travel with the item never include links.
    public static func existingSidecars(for path: String, includingLinks: Bool = false) -> [String] {
        let dir = (path as NSString).deletingLastPathComponent
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let stemPath = dir.isEmpty ? base : dir + "/" + base
        let candidates = [path + ".xmp", path + ".XMP", stemPath + ".xmp", stemPath + ".XMP"]
        var seen = Set<String>()
        return candidates.filter { candidate in
            var st = StatBuffer()
            guard candidate != path, PathBytes.lstat(candidate, &st) == 0 else { return false }
            let type = st.st_mode & S_IFMT
            guard type == S_IFREG || (includingLinks && type == S_IFLNK) else { return false }
            if type == S_IFLNK, PathBytes.stat(candidate, &st) != 0 { return true }   // dangling: kept, so it is reported
            // Case-insensitive file systems answer both spellings with one file.
            return seen.insert("\(st.st_dev):\(st.st_ino)").inserted
        }
    }

    /// The sidecar that carries the item's rating: the primary file's (the still of a Live Photo).
    /// A symbolic link counts: the store updates the file it points to.
    public static func ratingSidecar(for item: LibraryItem) -> String? {
        existingSidecars(for: item.primary.path, includingLinks: true).first
    }

    /// Every sidecar that travels with the item when it is moved, copied or trashed: `name.ext.xmp` of each
    /// of its files, and `name.xmp` only when no other media file in the folder shares that base name (it
    /// would be that file's too).
    public static func sidecarsTravelling(with item: LibraryItem) -> [String] {
        var result: [String] = []
        let own = Set(item.files.map { ($0.path as NSString).lastPathComponent })
        for file in item.files {
            for sidecar in existingSidecars(for: file.path) where !result.contains(sidecar) {
                let sidecarName = (sidecar as NSString).lastPathComponent
                let isFullName = sidecarName.lowercased() == file.fileName.lowercased() + ".xmp"
                if isFullName || !sharedByOthers(stemOf: file.path, own: own) { result.append(sidecar) }
            }
        }
        return result
    }

    private static func sharedByOthers(stemOf path: String, own: Set<String>) -> Bool {
        let dir = (path as NSString).deletingLastPathComponent
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension.lowercased()
        // try?: an unreadable folder has no sidecar livegrid could read either.
        let names = ((try? PathBytes.entries(of: dir.isEmpty ? "." : dir)) ?? []).map(\.name)
        return names.contains { name in
            let ext = (name as NSString).pathExtension.lowercased()
            return !own.contains(name) && LibraryScan.mediaExtensions.contains(ext)
                && (name as NSString).deletingPathExtension.lowercased() == base
        }
    }
}
