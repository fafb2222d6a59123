import ArgumentParser
import Foundation
import Library
import LibrarySources
import LivePairing

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Copy items out of the library: Live Photos with both halves, or as stills.",
        discussion: """
        Each ITEM is the path of a still or a movie; a Live Photo's movie path stands for the whole Live \
        Photo. With --as live (the default) a Live Photo is exported as its still and its movie with their \
        content identifiers intact and their names kept paired; with --as still the still alone. Live Photos \
        whose movie is missing or unplayable are exported as stills. Nothing at the destination is ever \
        overwritten: `IMG_1.JPG` + `IMG_1.MOV` become `IMG_1 (2).JPG` + `IMG_1 (2).MOV`. Each file is written \
        to a temporary name and renamed when complete. XMP sidecars travel with their photos.
        """
    )

    enum Choice: String, ExpressibleByArgument, CaseIterable {
        case live, still
    }

    @Argument(help: "Paths of stills or movies to export.", completion: .file())
    var items: [String]

    @Option(name: .long, help: "The destination directory (must exist).", completion: .directory)
    var to: String

    @Option(name: .customLong("as"), help: "Export Live Photos as live (still + movie) or still.")
    var choice: Choice?

    func run() throws {
        let resolved: [LibraryItem]
        do {
            resolved = try ItemResolver.resolve(items)
        } catch {
            fail("\(error)")
        }
        let plan = ExportPlan(items: resolved, destination: to,
                              choiceForAll: choice.map { $0 == .live ? .livePhoto : .stillPhoto })
        let isTerminal = isatty(STDERR_FILENO) == 1
        let report: ExportReport
        do {
            report = try ExportRunner().run(plan) { progress in
                guard isTerminal else { return }
                let percent = Int(progress.fraction * 100)
                let name = (progress.currentFile as NSString).lastPathComponent
                FileHandle.standardError.write(Data("\r\u{1B}[K[\(progress.itemIndex + 1)/\(progress.itemCount)] \(percent)% \(name)".utf8))
            }
        } catch {
            fail("\(error)")
        }
        if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        print(report.summary)
        if report.failedCount > 0 { throw ExitCode(1) }
    }

    private func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("livegrid: \(message)\n".utf8))
        Self.exit(withError: ExitCode(1))
    }
}
