import Concurrent
import LibraryIndex
import LivePairing

/// Where a library's last scan is kept in the index (`ScanSnapshot`), and how a finished scan is remembered.
struct RememberedScan: Sendable {
    let index: LibraryIndex
    let root: String
    let recursive: Bool
    /// Stores on a thread of its own: encoding 100,000 files is ~100 ms the scan's result need not wait for.
    let inBackground: Bool

    var library: String { ScanSnapshot.library(root: root, recursive: recursive) }

    /// The last scan, when one is kept and reads back whole.
    func load(milestone: (String) -> Void = { _ in }) -> ScanSnapshot? {
        open().flatMap { decode($0, milestone: milestone) }
    }

    /// The last scan was confirmed: it counts as recently stored (only the last few libraries' are kept).
    func used() { files.touch(library: library) }

    /// The file of the last scan, when one is kept.
    func open() -> SnapshotFile? { files.load(library: library) }

    /// The last scan in `file`, when it reads back whole.
    func decode(_ file: SnapshotFile, milestone: (String) -> Void = { _ in }) -> ScanSnapshot? {
        ScanSnapshot.decode(root: root, recursive: recursive, milestone: milestone) { offset, count in
            file.read(offset: offset, count: count)
        }
    }

    var files: ScanSnapshotFiles { ScanSnapshotFiles(indexPath: index.path) }

    /// Each folder's files by name and stamp, or nil when some file is not known for sure: a `stat` that
    /// failed, or a probe that failed to read (not stored in the index, so tried again by every scan).
    static func stamps(of probes: [LibraryScanner.Probed], _ more: [LibraryScanner.Probed],
                       folders: Int) -> [[(name: String, stamp: FileStamp)]]? {
        var stamps = [[(name: String, stamp: FileStamp)]](repeating: [], count: folders)
        for list in [probes, more] {
            for probed in list {
                guard let stamp = probed.stamp, probed.fresh || probed.fromIndex else { return nil }
                stamps[probed.folder].append((probed.file.name, stamp))
            }
        }
        return stamps
    }

    /// Keeps this scan for the next one; without `stamps` (not all known), forgets the last one instead, so a
    /// view that no longer holds is not shown again.
    func remember(items: [LibraryItem], warnings: [String], listings: [FolderListing],
                  stamps: [[(name: String, stamp: FileStamp)]]?) {
        let work: @Sendable () -> Void = { [self] in
            guard let stamps else { return files.remove(library: library) }
            files.store(library: library) { output in
                try ScanSnapshot.encode(root: root, recursive: recursive, warnings: warnings, items: items,
                                        listings: listings, stamps: stamps, into: &output)
            }
        }
        if inBackground { NamedThread.start("livegrid-remember", work) } else { work() }
    }
}
