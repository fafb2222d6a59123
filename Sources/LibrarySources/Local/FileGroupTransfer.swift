import Foundation

/// Moves or copies a group of files that belong together (a Live Photo's still, movie and sidecar) into one
/// directory as a unit: the same collision number for every name, nothing ever overwritten, and on any
/// failure the files already done are undone so the group is never split.
public struct FileGroupTransfer: Sendable {
    public enum Mode: Sendable { case copy, move }

    /// One file of the group: where it came from, where it went.
    public struct Placement: Sendable, Hashable {
        public var source: String
        public var destination: String
    }

    public var copier: FileCopier
    public var naming: CollisionNaming
    public init(copier: FileCopier = FileCopier(), naming: CollisionNaming = .parenthesized) {
        self.copier = copier
        self.naming = naming
    }

    /// Moves or copies `sources` into `directory`. Returns where each file went, in the order given.
    /// `names` overrides the destination names (same count as `sources`); collisions are still resolved.
    public func transfer(_ sources: [String], to directory: String, mode: Mode,
                         names: [String]? = nil) throws -> [Placement] {
        guard POSIXFile.isDirectory(directory) else { throw FileOperationError.notADirectory(directory) }
        guard POSIXFile.isWritableDirectory(directory) else { throw FileOperationError.notWritable(directory) }
        let wanted = names ?? sources.map(POSIXFile.name(of:))
        precondition(wanted.count == sources.count, "one name per source")
        // A name can be taken between the check and the write (another program): retry with the next number.
        var tries = 0
        var start = 1
        while true {
            guard let number = naming.firstFreeNumber(for: wanted, startingAt: start, isFree: { _, candidate in
                !POSIXFile.exists(POSIXFile.join(directory, candidate))
            }) else { throw FileOperationError.noFreeName(POSIXFile.join(directory, wanted.first ?? "")) }
            let placements = zip(sources, wanted).map {
                Placement(source: $0, destination: POSIXFile.join(directory, naming.name($1, number: number)))
            }
            do {
                try perform(placements, mode: mode)
                return placements
            } catch FileOperationError.wouldOverwrite(let path) {
                tries += 1
                if tries > 8 { throw FileOperationError.wouldOverwrite(path) }
                start = number + 1
            }
        }
    }

    private func perform(_ placements: [Placement], mode: Mode) throws {
        var done: [Placement] = []
        var copiedForMove: [Placement] = []
        do {
            for p in placements {
                switch mode {
                case .copy:
                    try copier.copy(p.source, to: p.destination)
                    done.append(p)
                case .move:
                    do {
                        try POSIXFile.renameNoReplace(p.source, p.destination)
                        done.append(p)
                    } catch FileOperationError.system(_, _, EXDEV) {
                        try copier.copy(p.source, to: p.destination)
                        copiedForMove.append(p)
                        guard try FileCopier.sameContents(p.source, p.destination) else {
                            throw FileOperationError.verificationFailed(source: p.source, copy: p.destination)
                        }
                    }
                }
            }
        } catch {
            rollBack(done: done, copiedForMove: copiedForMove, mode: mode)
            throw error
        }
        // Cross-device moves delete their sources only once every copy of the group is verified.
        for p in copiedForMove { unlink(p.source) }
    }

    private func rollBack(done: [Placement], copiedForMove: [Placement], mode: Mode) {
        for p in copiedForMove { unlink(p.destination) }
        for p in done.reversed() {
            switch mode {
            case .copy: unlink(p.destination)
            case .move: try? POSIXFile.renameNoReplace(p.destination, p.source)
            }
        }
    }
}
