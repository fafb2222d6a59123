import Foundation
import LivePairing

extension ItemFileOperations {
    /// What a copy or move did, kept for `u`: per item, where each file came from and went, and the copy's
    /// identity (device, inode, size, modification time) right after it was made.
    public struct TransferUndo: Sendable, Hashable, Codable {
        public struct Placed: Sendable, Hashable, Codable {
            public var source: String
            public var destination: String
            /// The destination as it was right after the transfer; a copy that differs now was changed by
            /// someone since and is kept.
            public var identity: FileIdentity?
            public init(source: String, destination: String, identity: FileIdentity?) {
                self.source = source
                self.destination = destination
                self.identity = identity
            }
        }
        public var isMove: Bool
        /// One group per item: its files go back (or away) together.
        public var items: [[Placed]]
        public init(isMove: Bool, items: [[Placed]]) {
            self.isMove = isMove
            self.items = items
        }
        public var isEmpty: Bool { items.isEmpty }
        public var fileCount: Int { items.reduce(0) { $0 + $1.count } }
    }

    /// Device, inode, size and modification time (nanoseconds) of a file: enough to tell "untouched since".
    public struct FileIdentity: Sendable, Hashable, Codable {
        public var device: UInt64
        public var inode: UInt64
        public var size: Int64
        public var modificationSeconds: Int
        public var modificationNanoseconds: Int

        public init?(path: String) {
            var st = stat()
            guard lstat(path, &st) == 0 else { return nil }
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
            size = Int64(st.st_size)
            modificationSeconds = st.st_mtim.tv_sec
            modificationNanoseconds = st.st_mtim.tv_nsec
        }
    }

    /// The undo of a finished `transfer`: every item that went, with its files' identities now.
    public static func transferUndo(_ outcomes: [ItemOutcome<[FileGroupTransfer.Placement]>], move: Bool) -> TransferUndo {
        // try?: only the items that went can be undone; the failed ones were reported with the transfer.
        let groups = outcomes.compactMap { try? $0.result.get() }.filter { !$0.isEmpty }.map { placements in
            placements.map { TransferUndo.Placed(source: $0.source, destination: $0.destination,
                                                 identity: FileIdentity(path: $0.destination)) }
        }
        return TransferUndo(isMove: move, items: groups)
    }

    /// Why an item of a transfer could not be undone.
    public enum UndoError: Error, CustomStringConvertible, Equatable {
        /// A copy was changed (or replaced) after it was made: it is kept.
        case changedSince(String)
        /// A copy or moved file is no longer where it was put.
        case missing(String)

        public var description: String {
            switch self {
            case .changedSince(let path): return "\(path) changed since it was copied; kept"
            case .missing(let path): return "\(path) is gone"
            }
        }
    }

    /// Undoes a copy (removes the copies, only those unchanged since) or a move (moves every file back to
    /// its old path, refusing when something new is there). Each item is all or nothing.
    public static func undoTransfer(_ undo: TransferUndo, transfer: FileGroupTransfer = FileGroupTransfer())
        -> [ItemOutcome<[String]>] {
        undo.items.map { group in
            let id = ItemID(group.first?.source ?? "")
            return ItemOutcome(itemID: id, result: Result {
                undo.isMove ? try moveBack(group, transfer: transfer) : try removeCopies(group)
            })
        }
    }

    private static func removeCopies(_ group: [TransferUndo.Placed]) throws -> [String] {
        for placed in group {
            guard let now = FileIdentity(path: placed.destination) else { throw UndoError.missing(placed.destination) }
            guard now == placed.identity else { throw UndoError.changedSince(placed.destination) }
        }
        // Every copy is tried; one that cannot be removed is reported (its original is untouched either way).
        var failure: FileOperationError?
        for placed in group where unlink(placed.destination) != 0 && failure == nil {
            failure = .system(operation: "unlink", path: placed.destination, errno: errno)
        }
        if let failure { throw failure }
        return group.map(\.destination)
    }

    private static func moveBack(_ group: [TransferUndo.Placed], transfer: FileGroupTransfer) throws -> [String] {
        for placed in group {
            guard FileIdentity(path: placed.destination) != nil else { throw UndoError.missing(placed.destination) }
            // The old path taken by something new in the meantime: never overwrite it.
            if FileIdentity(path: placed.source) != nil { throw FileOperationError.wouldOverwrite(placed.source) }
        }
        // Files of one directory go back as one group (rolled back together on failure); the transfer picks
        // the plain names, which were just checked to be free. The item is all or nothing across directories
        // too: when one directory fails, the files already back return to where the move had put them.
        var moved: [(now: String, undoDestination: String)] = []
        let byDirectory = Dictionary(grouping: group) { ($0.source as NSString).deletingLastPathComponent }
        do {
            for (directory, files) in byDirectory.sorted(by: { $0.key < $1.key }) {
                let placements = try transfer.transfer(files.map(\.destination), to: directory.isEmpty ? "." : directory,
                                                       mode: .move, names: files.map { ($0.source as NSString).lastPathComponent })
                moved += zip(placements, files).map { ($0.destination, $1.destination) }
                // Someone took a name between the check and the move: the file went under another number.
                if let taken = zip(placements, files).first(where: { $0.destination != $1.source }) {
                    throw FileOperationError.wouldOverwrite(taken.1.source)
                }
            }
        } catch {
            let stranded = moved.reversed().flatMap { putBack($0.now, to: $0.undoDestination, transfer: transfer) }
            throw IncompleteRollback.error(error, stranded: stranded)
        }
        return moved.map(\.now)
    }

    /// Moves a file that went back during a failed undo to where the move had put it; the files left behind,
    /// if that fails (or lands under another name), so the error can say where they are.
    private static func putBack(_ path: String, to intended: String,
                                transfer: FileGroupTransfer) -> [IncompleteRollback.StrandedFile] {
        var stranded: [IncompleteRollback.StrandedFile] = []
        let problem: FileOperationError
        do {
            let placed = try transfer.transfer([path], to: (intended as NSString).deletingLastPathComponent, mode: .move,
                                               names: [(intended as NSString).lastPathComponent])
            guard let actual = placed.first?.destination, actual != intended else { return [] }
            return [.init(path: actual, undo: .moveBack(to: intended), problem: .wouldOverwrite(intended))]
        } catch let error as FileOperationError {
            problem = error
        } catch let rollback as IncompleteRollback {
            stranded = rollback.stranded
            problem = rollback.cause as? FileOperationError ?? .system(operation: "rename", path: path, errno: EIO)
        } catch {
            problem = .system(operation: "rename", path: path, errno: EIO)
        }
        return stranded + [.init(path: path, undo: .moveBack(to: intended), problem: problem)]
    }
}
