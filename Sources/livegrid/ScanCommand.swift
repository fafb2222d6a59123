import ArgumentParser

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "List a directory's items: Live Photos, Motion Photos, stills and videos, with warnings."
    )

    @Argument(help: "The directory to scan.", completion: .directory)
    var path: String

    @Flag(name: .shortAndLong, help: "Descend into subdirectories.")
    var recursive = false

    @Flag(help: "Print stable JSON instead of a table.")
    var json = false

    func run() throws {
        print("scan: not implemented yet")
    }
}
