import ArgumentParser
import Imaging
import TerminalGraphics
import TerminalUI

@main
struct Livegrid: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "livegrid",
        abstract: "A full-screen terminal browser for photo libraries that understands Live Photos.",
        discussion: """
        Run `livegrid [PATH]` to browse a directory of photos (the current directory by default), \
        or `livegrid https://host/photos/` for a library served over HTTP or WebDAV.

        Live Photos (a still and its movie sharing one content identifier) and Motion Photos (a movie \
        embedded in the still) wear a LIVE badge; press and hold Space on one to play it.
        """,
        version: LivegridVersion.string,
        subcommands: [
            BrowseCommand.self, ScanCommand.self, ShowCommand.self, ThumbnailCommand.self, ExportCommand.self,
            MakeLiveCommand.self, ConvertCommand.self, ExtractCommand.self, PlayCommand.self, VersionCommand.self,
        ],
        defaultSubcommand: BrowseCommand.self
    )
}

enum LivegridVersion {
    static let string = "0.1.0"
}

struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Print livegrid's version and the versions of the libraries it is linked with."
    )

    func run() throws {
        print("livegrid \(LivegridVersion.string)")
        for (name, version) in ImagingLibraryVersions.all {
            print("  \(name) \(version)")
        }
        print("  chafa \(ChafaLibraryVersion.version)\(ChafaLibraryVersion.linked ? "" : " (not linked)")")
        print("  \(CursesLibraryVersion.version)")
    }
}
