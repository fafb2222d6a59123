import Foundation
import MediaFormats

/// Moves or copies a group of files that belong together (a Live Photo's still, movie and sidecar) into one
/// directory as a unit: the same collision number for every name, nothing ever overwritten, and on any
/// failure the files already done are undone so the group is never split. Copies commit the still last.
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
    /// `observe` sees each copied file's progress (source, bytes so far) and may throw to cancel.
    public func transfer(_ sources: [String], to directory: String, mode: Mode, names: [String]? = nil,
                         observe: ((_ source: String, _ bytesSoFar: UInt64) throws -> Void)? = nil) throws -> [Placement] {
        let wanted = names ?? sources.map(POSIXFile.name(of:))
        precondition(wanted.count == sources.count, "one name per source")
        let destinations = try placeGroup(wanted, in: directory) { destinations in
            try perform(zip(sources, destinations).map { Placement(source: $0, destination: $1) }, mode: mode,
                        observe: observe)
        }
        return zip(sources, destinations).map { Placement(source: $0, destination: $1) }
    }

    /// Writes a group of new files named `names` (paired collision numbers) into `directory`: `prepare`
    /// writes each to its temporary (an uncommitted `AtomicFileWriter`), then the group is committed with
    /// the first file (the still) last (`AtomicFileWriter.commitGroup`). If one write fails, nothing of the
    /// group is left. Returns the destinations.
    public func writeGroup(_ names: [String], in directory: String,
                           prepare: (_ index: Int, _ destination: String) throws -> AtomicFileWriter) throws -> [String] {
        try placeGroup(names, in: directory) { destinations in
            var writers: [AtomicFileWriter] = []
            do {
                for (i, destination) in destinations.enumerated() { writers.append(try prepare(i, destination)) }
                try FileGroupTransfer.commit(writers)
            } catch {
                writers.forEach { $0.abort() }
                throw error
            }
        }
    }

    /// Commits prepared files as a group, the first (the still) last; a name taken meanwhile becomes
    /// `wouldOverwrite`, so the group is placed again under the next collision number.
    static func commit(_ writers: [AtomicFileWriter]) throws {
        guard let primary = writers.first else { return }
        do {
            try AtomicFileWriter.commitGroup(primary: primary, companions: Array(writers.dropFirst()))
        } catch AtomicFileWriter.WriteError.exists(let path) {
            throw FileOperationError.wouldOverwrite(path)
        } catch AtomicFileWriter.WriteError.commit(let path, let e) {
            throw FileOperationError.system(operation: "rename", path: path, errno: e)
        }
    }

    /// Throws a clear error when `directory` is missing, not a directory, or cannot take new files
    /// (read-only mount, permissions; tested by creating a file, since access() says yes to root).
    public static func checkDestination(_ directory: String) throws {
        guard POSIXFile.exists(directory) else { throw FileOperationError.missingDirectory(directory) }
        guard POSIXFile.isDirectory(directory) else { throw FileOperationError.notADirectory(directory) }
        guard POSIXFile.isWritableDirectory(directory) else { throw FileOperationError.notWritable(directory) }
    }

    /// Picks the first collision number free for every name and runs `body` with the destinations; when a
    /// name was taken in the meantime (another program), retries with the next number.
    private func placeGroup(_ names: [String], in directory: String,
                            body: ([String]) throws -> Void) throws -> [String] {
        try FileGroupTransfer.checkDestination(directory)
        var start = 1
        for _ in 0..<8 {
            guard let number = naming.firstFreeNumber(for: names, startingAt: start, isFree: { _, candidate in
                !POSIXFile.exists(POSIXFile.join(directory, candidate))
            }) else { throw FileOperationError.noFreeName(POSIXFile.join(directory, names.first ?? "")) }
            let destinations = names.map { POSIXFile.join(directory, naming.name($0, number: number)) }
            do {
                try body(destinations)
                return destinations
            } catch FileOperationError.wouldOverwrite {
                start = number + 1
            }
        }
        throw FileOperationError.noFreeName(POSIXFile.join(directory, names.first ?? ""))
    }

    private func perform(_ placements: [Placement], mode: Mode,
                         observe: ((_ source: String, _ bytesSoFar: UInt64) throws -> Void)?) throws {
        if mode == .copy {
            // Every file to its temporary first, then the group committed with the still last: a visible
            // still always has its movie, and an interrupted copy leaves no final name at all.
            var writers: [AtomicFileWriter] = []
            do {
                for p in placements {
                    writers.append(try copier.prepare(p.source, to: p.destination) { try observe?(p.source, $0) })
                }
                try FileGroupTransfer.commit(writers)
            } catch {
                writers.forEach { $0.abort() }
                throw error
            }
            return
        }
        var done: [Placement] = []
        do {
            // The still last here too: the destination never shows it without its movie.
            for p in placements.dropFirst() + placements.prefix(1) {
                try POSIXFile.renameNoReplace(p.source, p.destination)
                done.append(p)
            }
            return
        } catch FileOperationError.system(let operation, let path, EXDEV) {
            // Another file system: whatever was renamed (sources spread over several) goes back first, then the
            // whole group is copied and committed as one, like a copy.
            let stranded = rollBackMove(done: done)
            if !stranded.isEmpty {
                throw IncompleteRollback(cause: FileOperationError.system(operation: operation, path: path, errno: EXDEV),
                                         stranded: stranded)
            }
        } catch {
            throw IncompleteRollback.error(error, stranded: rollBackMove(done: done))
        }
        try copyThenRemoveSources(placements, observe: observe)
    }

    /// A move across file systems as a group commit: every file copied to its temporary and verified against
    /// its source, then the group committed with the still last (`AtomicFileWriter.commitGroup`: a signal
    /// before the still is in place removes the movie already committed), and only then the sources deleted.
    /// Until the commit the destination holds no final name, and the sources are never touched.
    private func copyThenRemoveSources(_ placements: [Placement],
                                       observe: ((_ source: String, _ bytesSoFar: UInt64) throws -> Void)?) throws {
        var writers: [AtomicFileWriter] = []
        do {
            for p in placements {
                let writer = try copier.prepare(p.source, to: p.destination) { try observe?(p.source, $0) }
                writers.append(writer)
                guard try FileCopier.sameContents(p.source, writer.temporaryPath) else {
                    throw FileOperationError.verificationFailed(source: p.source, copy: p.destination)
                }
            }
            try FileGroupTransfer.commit(writers)
        } catch {
            writers.forEach { $0.abort() }
            throw error
        }
        // The companions' sources first and the still's last, so an interruption here leaves the source folder
        // showing the photo rather than a movie on its own. A source that cannot be deleted stays next to its
        // verified copy: nothing is lost, and the result already names the copy.
        for p in placements.dropFirst() + placements.prefix(1) { _ = PathBytes.unlink(p.source) }
    }

    /// Undoes the part of a move already done (copies removed, renamed files renamed back); returns the files
    /// that could not be undone, so the error says where they are instead of the group silently staying split.
    private func rollBackMove(done: [Placement]) -> [IncompleteRollback.StrandedFile] {
        var stranded: [IncompleteRollback.StrandedFile] = []
        for p in done.reversed() { IncompleteRollback.moveBack(p.destination, to: p.source, noting: &stranded) }
        return stranded
    }
}
