import Foundation

/// Tab completion of a directory typed in a prompt (copy, move, export destinations): the directories
/// whose names start with the last part of the typed path, written the way the user typed it (`~/` kept).
public enum PathCompletion {
    /// At most this many candidates are listed (a huge directory must not stall the prompt).
    public static let limit = 500

    /// Directories completing `typed`, each ending in `/`, sorted; hidden ones only when the typed name
    /// starts with a dot. Relative paths complete against `workingDirectory`.
    public static func candidates(for typed: String, home: String?,
                                  workingDirectory: String = FileManager.default.currentDirectoryPath) -> [String] {
        let (directoryPart, namePrefix) = split(typed)
        var directory = directoryPart.isEmpty ? "." : directoryPart
        if directory == "~" || directory.hasPrefix("~/"), let home, !home.isEmpty {
            directory = home + directory.dropFirst()
        }
        if !directory.hasPrefix("/") { directory = workingDirectory + "/" + directory }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }   // try?: no completion
        var found: [String] = []
        for name in names.sorted() where name.hasPrefix(namePrefix) {
            if name.hasPrefix("."), !namePrefix.hasPrefix(".") { continue }
            var isDirectory: ObjCBool = false
            let full = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            found.append(directoryPart + name + "/")
            if found.count >= limit { break }
        }
        return found
    }

    /// `~/Pic` → ("~/", "Pic"); `~` → ("~/", "") so Tab on `~` lists the home directory; `Pic` → ("", "Pic").
    static func split(_ typed: String) -> (directory: String, name: String) {
        if typed == "~" { return ("~/", "") }
        guard let slash = typed.lastIndex(of: "/") else { return ("", typed) }
        return (String(typed[...slash]), String(typed[typed.index(after: slash)...]))
    }

    /// The longest common prefix of `strings` (by characters).
    public static func commonPrefix(_ strings: [String]) -> String {
        guard var prefix = strings.first else { return "" }
        for string in strings.dropFirst() {
            while !string.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }
}
