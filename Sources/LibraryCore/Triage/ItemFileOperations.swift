import Foundation
import LivePairing

/// Trash, move and copy whole library items: a Live Photo's still, its movie and the sidecars go together,
/// or not at all.
public enum ItemFileOperations {
    /// Every file the item is made of on disk, still first, then movie, then sidecars.
    public static func paths(of item: LibraryItem) -> [String] {
        item.files.map(\.path) + SidecarLocator.sidecarsTravelling(with: item)
    }

    /// The outcome of one item in a batch.
    public struct ItemOutcome<Value: Sendable>: Sendable {
        public var itemID: ItemID
        public var result: Result<Value, any Error>
        public var error: (any Error)? { if case .failure(let e) = result { return e } else { return nil } }
    }

    /// What `trash` did; hand it back to `restore` for undo.
    public struct TrashUndo: Sendable, Hashable, Codable {
        public var records: [FreedesktopTrash.Record]
        public init(records: [FreedesktopTrash.Record] = []) { self.records = records }
        public var isEmpty: Bool { records.isEmpty }
    }

    /// Trashes each item as one operation (all its files or none). Returns the undo for those that went,
    /// and one outcome per item.
    public static func trash(_ items: [LibraryItem], using trash: FreedesktopTrash)
        -> (undo: TrashUndo, outcomes: [ItemOutcome<FreedesktopTrash.Record>]) {
        var records: [FreedesktopTrash.Record] = []
        let outcomes = items.map { item in
            let result = Result { try trash.trash(paths(of: item)) }
            if case .success(let record) = result { records.append(record) }
            return ItemOutcome(itemID: item.id, result: result)
        }
        return (TrashUndo(records: records), outcomes)
    }

    /// Undo of `trash`: restores every record it can; those that would overwrite something new are reported
    /// and left in the trash.
    public static func restore(_ undo: TrashUndo, using trash: FreedesktopTrash)
        -> [ItemOutcome<[String]>] {
        undo.records.map { record in
            ItemOutcome(itemID: ItemID(record.entries.first?.originalPath ?? ""),
                        result: Result { try trash.restore(record) })
        }
    }

    /// Moves or copies each item into `directory`, its files keeping paired names (`IMG_1 (2).JPG` +
    /// `IMG_1 (2).MOV` + `IMG_1 (2).JPG.xmp`) and never overwriting anything. Each item is a group commit
    /// (copied to temporaries, the still committed last). `observe` sees each chunk copied and may throw
    /// (`FileOperationError.cancelled`) to cancel: the item being copied is rolled back, the ones not started
    /// are skipped with the same error, and the ones already done stay whole.
    public static func transfer(_ items: [LibraryItem], to directory: String, mode: FileGroupTransfer.Mode,
                                transfer: FileGroupTransfer = FileGroupTransfer(),
                                observe: ((_ source: String, _ bytesSoFar: UInt64) throws -> Void)? = nil)
        -> [ItemOutcome<[FileGroupTransfer.Placement]>] {
        var stopped: (any Error)?
        return items.map { item in
            if let stopped { return ItemOutcome(itemID: item.id, result: .failure(stopped)) }
            let result = Result { try transfer.transfer(paths(of: item), to: directory, mode: mode, observe: observe) }
            if case .failure(FileOperationError.cancelled) = result { stopped = FileOperationError.cancelled }
            return ItemOutcome(itemID: item.id, result: result)
        }
    }
}
