import Foundation
import MediaFormats

/// A group operation (a move, a trash, a restore) failed, and undoing the part already done failed too: some
/// files stay where the operation put them. Thrown instead of the first failure, so the user learns both what
/// went wrong and where each stranded file is now; nothing was deleted or overwritten.
public struct IncompleteRollback: Error, CustomStringConvertible {
    /// One file the undo could not deal with.
    public struct StrandedFile: Sendable, Equatable {
        public enum Undo: Sendable, Equatable {
            /// The file was to go back to this path.
            case moveBack(to: String)
            /// The file is a copy (of a cross-device move) or a second name (a hard link made by the rename)
            /// that was to be removed; its original is untouched.
            case removeCopy(original: String)
        }
        /// Where the file is now.
        public var path: String
        public var undo: Undo
        /// Why the undo failed.
        public var problem: FileOperationError

        public init(path: String, undo: Undo, problem: FileOperationError) {
            self.path = path
            self.undo = undo
            self.problem = problem
        }

        var sentence: String {
            switch undo {
            case .moveBack(let intended): return "\(path) could not go back to \(intended) (\(problem))"
            case .removeCopy(let original): return "the copy \(path) of \(original) could not be removed (\(problem))"
            }
        }
    }

    /// The failure that stopped the operation.
    public var cause: any Error
    public var stranded: [StrandedFile]

    public init(cause: any Error, stranded: [StrandedFile]) {
        self.cause = cause
        self.stranded = stranded
    }

    public var description: String {
        "\(cause); undoing it failed too: " + stranded.map(\.sentence).joined(separator: "; ")
    }

    /// `cause` alone when every undo step worked, else the cause with the files left behind; a cause that is
    /// itself an incomplete rollback (a rename that left a second name) is merged, not nested.
    public static func error(_ cause: any Error, stranded: [StrandedFile]) -> any Error {
        if let inner = cause as? IncompleteRollback {
            return IncompleteRollback(cause: inner.cause, stranded: inner.stranded + stranded)
        }
        return stranded.isEmpty ? cause : IncompleteRollback(cause: cause, stranded: stranded)
    }

    /// One undo rename; a failure is noted in `stranded`, not thrown, so the rest of the undo still runs.
    static func moveBack(_ path: String, to intendedPath: String, noting stranded: inout [StrandedFile]) {
        do {
            try POSIXFile.renameNoReplace(path, intendedPath)
        } catch let rollback as IncompleteRollback {
            stranded += rollback.stranded
            let problem = rollback.cause as? FileOperationError ?? .system(operation: "rename", path: path, errno: EIO)
            stranded.append(StrandedFile(path: path, undo: .moveBack(to: intendedPath), problem: problem))
        } catch {
            // renameNoReplace throws FileOperationError otherwise; the fallback keeps the type total.
            let problem = error as? FileOperationError ?? .system(operation: "rename", path: path, errno: EIO)
            stranded.append(StrandedFile(path: path, undo: .moveBack(to: intendedPath), problem: problem))
        }
    }

    /// One undo removal of a copy; a failure is noted in `stranded`.
    static func removeCopy(_ path: String, original: String, noting stranded: inout [StrandedFile]) {
        guard PathBytes.unlink(path) != 0 else { return }
        stranded.append(StrandedFile(path: path, undo: .removeCopy(original: original),
                                     problem: .system(operation: "unlink", path: path, errno: errno)))
    }
}
