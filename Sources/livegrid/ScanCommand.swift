import ArgumentParser
import Foundation
import Library

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "List a directory's items: Live Photos, Motion Photos, stills and videos, with warnings.",
        discussion: """
        Live Photos are paired by content identifier (Apple MakerNote 0x0011 in the still, \
        com.apple.quicktime.content.identifier in the movie); a pair by file name alone is reported as \
        "probableByName". A file that cannot be read is listed with a warning; the exit status is non-zero \
        only when the directory itself cannot be scanned.
        """
    )

    @Argument(help: "The directory to scan.", completion: .directory)
    var path: String

    @Flag(name: .shortAndLong, help: "Descend into subdirectories.")
    var recursive = false

    @Flag(help: "Print stable JSON (kind, files, identifier, still-image time, dimensions, duration, rotation, embedded movie range, warnings).")
    var json = false

    func run() throws {
        let scan: LibraryScan
        do {
            scan = try LibraryScanner.scan(directory: path, recursive: recursive)
        } catch let error as LibraryScanError {
            FileHandle.standardError.write(Data("livegrid: \(error.description)\n".utf8))
            throw ExitCode(1)
        }
        let report = ScanReport(scan)
        print(json ? try report.json() : report.table())
    }
}
