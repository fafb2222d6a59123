import ArgumentParser

struct BrowseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Open the full-screen browser on a directory (the default command)."
    )

    @Argument(help: "The directory to browse.", completion: .directory)
    var path: String = "."

    func run() throws {
        // The full-screen UI is built on top of the scan; until then browsing lists the library.
        let scan = try ScanCommand.parse([path])
        try scan.run()
    }
}
