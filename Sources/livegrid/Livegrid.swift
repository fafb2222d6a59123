import ArgumentParser
import Foundation
import Imaging
import MediaFormats
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
            MakeLiveCommand.self, ConvertCommand.self, EditCommand.self, ExtractCommand.self, PlayCommand.self, KeysCommand.self,
            VersionCommand.self,
        ],
        defaultSubcommand: BrowseCommand.self
    )

    /// ArgumentParser's own `main()`, with two changes at the edges: arguments are read from the raw argv
    /// (`CommandLine.arguments` turns a byte like 0xFF of a file name into U+FFFD, and the file could then not
    /// be opened; `PathBytes` keeps it), and every message it prints passes `VisibleText` (an error that
    /// quotes a hostile argument must not become a terminal control sequence).
    static func main() {
        LaunchEnvironment.start()
        let arguments = (1..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map { PathBytes.string(cString: $0) }
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            finish(0)
        } catch {
            let code = exitCode(for: error)
            var message = fullMessage(for: error)
            // An error that quotes an argument holding a newline would print a forged second line: each such
            // argument is shown escaped before the message is split into lines.
            for argument in arguments where argument.unicodeScalars.contains(where: VisibleText.needsEscape) {
                message = message.replacingOccurrences(of: argument, with: VisibleText.escaped(argument))
            }
            if code == .success {
                // Help, version, completion scripts: the program's own text (a script may hold tabs).
                if !message.isEmpty { HumanOutput.write(Data((message + "\n").utf8), to: .standardOutput) }
            } else if !message.isEmpty {
                HumanOutput.write(Data((HumanOutput.block(message) + "\n").utf8), to: .standardError)
            }
            finish(code.rawValue)
        }
    }

    /// Ends the process without running C library destructors. Background threads (the curl worker,
    /// dispatch workers of the download manager) may still be winding down when a command returns, and
    /// `exit()`'s destructors (OpenSSL/libssh2/libcurl global state) then race them: `scan sftp://...` crashed
    /// in pthread_rwlock_wrlock(NULL) after printing its whole output, about one run in three. Every command
    /// has already restored the terminal, committed or removed its files and written its output; stdio is
    /// flushed here.
    static func finish(_ code: Int32) -> Never {
        fflush(nil)
        _exit(code)
    }
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
        HumanOutput.lines(["livegrid \(LivegridVersion.string)"]
                          + ImagingLibraryVersions.all.map { "  \($0.0) \($0.1)" }
                          + ["  chafa \(ChafaLibraryVersion.version)\(ChafaLibraryVersion.linked ? "" : " (not linked)")",
                             "  \(CursesLibraryVersion.version)"])
    }
}
