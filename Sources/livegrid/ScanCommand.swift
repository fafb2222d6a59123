import ArgumentParser
import BrowserCore
import BrowserRuntime
import Foundation
import Imaging
import Library
import LibraryCore
import LibraryIndex
import LibrarySources
import LivePairing

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "List a directory's items: Live Photos, Motion Photos, stills and videos, with warnings.",
        usage: "livegrid scan <path> [<options>]",   // the full synopsis is wider than 80 columns
        discussion: """
        Live Photos are paired by content identifier (Apple MakerNote 0x0011 in the still, \
        com.apple.quicktime.content.identifier in the movie); a pair by file name alone is reported as \
        "probableByName". A file that cannot be read is listed with a warning; the exit status is non-zero \
        only when the directory itself cannot be scanned.
        """
    )

    @Argument(help: "The directory to scan, or a remote directory URL (http(s)://, dav(s)://, sftp://, ssh://, s3://, host:path).",
              completion: .directory)
    var path: String

    @Flag(name: .shortAndLong, help: "Descend into subdirectories.")
    var recursive = false

    @Flag(help: "Print stable JSON (kind, files, identifier, still-image time, dimensions, duration, rotation, embedded movie range, warnings, rating and flag; the exact bytes of a name that is not UTF-8 in nameBase64 and pathBase64).")
    var json = false

    @Flag(help: "Print timing and I/O figures to standard error (files, reads, bytes read per file).")
    var stats = false

    @Flag(help: ArgumentHelp("Decode every local photo to find damage inside its picture data (a corrupt marker), as the browser, show and thumbnail do.",
                             discussion: "A scan reads headers and the end of each file, so it finds a file cut short but not a broken picture inside a whole one; --check reads every byte of every photo (slow on a large library; remote photos are not downloaded for it)."))
    var check = false

    @Option(help: "Remote folders: entries kept from one listing (default 200000).")
    var maxEntries = RemoteListingParser.defaultMaxEntries

    @Flag(help: "Probe every file; neither read nor update the library index ($XDG_CACHE_HOME/livegrid/library-index.sqlite).")
    var noIndex = false

    @Option(help: "Order of the items: name (the default), date (capture date, undated last) or size (largest first).")
    var sort: LibrarySortOrder = .name

    @Option(help: "Sections with header lines: none (the default), folder, or timeline (by month of capture date, undated last).")
    var group: LibraryGrouping = .none

    @OptionGroup var diagnostics: DiagnosticOptions

    @OptionGroup(title: "S3 (s3://BUCKET/PREFIX/)") var s3: S3Options

    func run() throws {
        let started = DispatchTime.now().uptimeNanoseconds
        let startedCPU = Self.processCPUSeconds()
        var scan: LibraryScan
        // Opened only when used (a remote scan reads ratings from it; `--no-index` reads sidecars only).
        let indexPath = LibraryIndex.defaultPath(environment: LaunchEnvironment.current.variables)
        let index = noIndex ? nil : LazyLibraryIndex(path: indexPath)
        let isRemote = RemoteBrowseArgument.url(path) != nil
        do {
            if let url = RemoteBrowseArgument.url(path) {
                let client = RemoteHTTPClient(configuration: try RemoteCommandSupport.configuration(interactive: true, for: url, s3: s3))
                try RemoteCommandSupport.prepare(url, client: client)
                guard maxEntries >= 1 else { throw ValidationError("--max-entries must be 1 or more (got \(maxEntries))") }
                scan = try RemoteCommandSupport.scan(url, client: client, recursive: recursive, maxEntries: maxEntries,
                                                     probeMemory: index.map { RemoteProbeMemory(index: $0) })
            } else {
                scan = try LibraryScanner.scan(directory: path, recursive: recursive, index: index?.value)
            }
        } catch let error as RemoteError {
            HumanOutput.error("\(RemoteBrowseArgument.url(path).map(BrowserState.displayString) ?? path): \(error.description)")
            throw ExitCode(1)
        } catch let error as LibraryScanError {
            HumanOutput.error(error.description)
            throw ExitCode(1)
        }
        let scanned = DispatchTime.now().uptimeNanoseconds
        let scanCPU = Self.processCPUSeconds() - startedCPU
        // The same order and sections as the browser's `--sort` and `--group` (BrowserCore/Views).
        var sections: [ViewSection] = []
        if sort != .name || group != .none {
            (scan.items, sections) = LibraryArrangement.arrange(scan.items, order: sort, grouping: group)
        }
        // Ratings and flags: sidecars, and the index where the folder cannot be written (issue 31.5).
        let store = TriageStore(index: { index?.value })
        // A remote scan keys every item by its URL to look ratings up: not made when the index holds none
        // (200,000 keys and their set were a whole-library transient at the end of a large scan).
        let hasRatings = index.map { $0.value.isUsable && $0.value.hasTriageRows } ?? false
        let triage = isRemote ? (hasRatings ? store.read(remote: TriageStore.remoteSubjects(ofScanned: scan.items)) : [:])
            : store.read(scan.items)
        var report = ScanReport(scan, triage: triage)
        if check, !isRemote { Self.addDecodingVerdicts(of: scan.items, to: &report) }
        // The report has what is printed; the scan's items (as many again) go before the table is made.
        let figures = (files: scan.fileCount, items: scan.items.count, reads: scan.reads, bytesRead: scan.bytesRead,
                       probed: scan.probedFiles)
        scan.items = []
        if group != .none {
            report.sections = sections.map {
                ScanReport.Section(title: $0.title, first: $0.range.lowerBound, count: $0.range.count)
            }
        }
        if json {
            print(try report.json())   // exact: the JSON encoder escapes control characters itself
        } else {
            // With -r each item says which folder it is in (the JSON has every file's path).
            HumanOutput.streamLines { line in report.writeTable(verbose: diagnostics.verbose, folders: recursive, line: line) }
        }
        if stats {
            let files = max(1, figures.files)
            let seconds = Double(scanned - started) / 1e9
            let line = String(format: "scan: %d files, %d items in %.3f s (%.0f files/s), %d reads, %.1f KiB read per file, %d probed (the rest from the index)",
                              figures.files, figures.items, seconds, Double(figures.files) / max(seconds, 1e-9),
                              figures.reads, Double(figures.bytesRead) / 1024 / Double(files), figures.probed)
            HumanOutput.note(line)
            HumanOutput.note(String(format: "scan CPU: %.3f s (%.1f µs per file, all threads)", scanCPU,
                                    scanCPU * 1e6 / Double(files)))
        }
    }

    /// `--check`: each local still decoded as the browser, `show` and `thumbnail` decode it (the picture data,
    /// not an embedded thumbnail, at a small size: libjpeg's DCT scaling still reads every entropy-coded byte),
    /// and its damage added to the item's warnings in the same words, unless the headers already said it is
    /// damaged (issue 31.7: one verdict in every mode and in `scan`).
    static func addDecodingVerdicts(of items: [LibraryItem], to report: inout ScanReport) {
        let options = DecodeOptions(useEmbeddedThumbnails: false)
        for (index, item) in items.enumerated() where report.items.indices.contains(index) {
            guard let still = item.still else { continue }
            let name = still.fileName
            if report.items[index].warnings.contains(where: { $0.hasPrefix("\(name): damaged ") }) { continue }
            do {
                let decoded = try ImageDecoder.decode(path: still.path, fitting: PixelSize(square: 64), options: options)
                if let damage = decoded.damage { report.items[index].warnings.append("\(name): \(damage.description)") }
            } catch {
                // A still that cannot be decoded at all says why, in `show`'s words.
                report.items[index].warnings.append("\(name): \(error.description)")
            }
        }
    }

    /// CPU time of every thread of the process so far (what "µs per file" means in the benchmarks).
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
