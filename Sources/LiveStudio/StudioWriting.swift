import Foundation
import MediaFormats

/// What the studio's writers share with `make-live`, `convert` and `extract`: failures as one plain
/// sentence, names that collide with nothing, and a pair written as one (all or none). Moved out of the
/// executable so the browser's services write through the very same code as `livegrid edit`.
public enum StudioWriting {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// Prefixes a writer's error with the file it concerns.
    public static func labelled<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw Failure("\(path): \(error)") }
    }

    /// The photo's identifier, else the movie's, else a new one (upper-cased), and a note when the halves
    /// disagree (the caller decides where the note goes: stderr for the CLI, the status bar for the browser).
    public static func identifier(photo: String?, movie: String?) -> (identifier: String, note: String?) {
        var note: String?
        if let photo, let movie, photo.uppercased() != movie.uppercased() {
            note = "the photo's identifier \(photo) differs from the movie's \(movie); using the photo's"
        }
        return ((photo ?? movie)?.uppercased() ?? MediaWriting.newContentIdentifier(), note)
    }

    public static func baseName(_ path: String) -> String {
        ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    /// `base.ext` for every extension, or `base-2.ext`... : the first name under which no file exists
    /// (compared case-insensitively, since Live Photo pairs are matched that way).
    public static func freeNames(directory: String, base: String, extensions: [String]) throws -> [String] {
        // try?: an unreadable folder has no names to avoid; the write into it then fails with the reason.
        let existing = Set(((try? PathBytes.entries(of: directory)) ?? []).map { $0.name.lowercased() })
        for n in 1...1000 {
            let stem = n == 1 ? base : "\(base)-\(n)"
            let names = extensions.map { "\(stem).\($0)" }
            if names.allSatisfy({ !existing.contains($0.lowercased()) }) {
                return names.map { (directory as NSString).appendingPathComponent($0) }
            }
        }
        throw Failure("\(directory): no free file name for \(base)")
    }

    /// Writes each assembly to a temporary under fresh names, then commits them as a group with the first
    /// (the still) last: a visible still always has its movie. On any error, or SIGINT/SIGTERM/SIGHUP, no
    /// file is left behind (`AtomicFileWriter.commitGroup`).
    public static func writePair(directory: String, base: String, extensions: [String],
                                 files: [(ByteAssembly, any ByteSource)]) throws -> [String] {
        guard PathBytes.isDirectory(directory) else {
            throw Failure("\(directory): no such directory")
        }
        TemporaryFileRegistry.installSignalCleanup()
        let paths = try freeNames(directory: directory, base: base, extensions: extensions)
        var writers: [AtomicFileWriter] = []
        do {
            for (index, (assembly, source)) in files.enumerated() {
                let writer = try AtomicFileWriter(destination: paths[index])
                writers.append(writer)
                try assembly.stream(from: source) { try writer.write($0) }
            }
            guard let primary = writers.first else { return [] }
            try AtomicFileWriter.commitGroup(primary: primary, companions: Array(writers.dropFirst()))
        } catch {
            writers.forEach { $0.abort() }
            throw error
        }
        return paths
    }
}
