import ArgumentParser
import Imaging
import Foundation
import Library
import LibraryCore
import LibraryIndex
import LibrarySources
import LivePairing
import LiveStudio
import MediaFormats

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Copy items out of the library: Live Photos with both halves, or as stills.",
        usage: "livegrid export <items> ... --to <to> [<options>]",   // keeps within 80 columns as options are added
        discussion: """
        Each ITEM is the path of a still or a movie; a Live Photo's movie path stands for the whole Live \
        Photo. With --as live (the default) a Live Photo is exported as its still and its movie with their \
        content identifiers intact and their names kept paired; with --as still the still alone. Live Photos \
        whose movie is missing or unplayable are exported as stills. Nothing at the destination is ever \
        overwritten: `IMG_1.JPG` + `IMG_1.MOV` become `IMG_1 (2).JPG` + `IMG_1 (2).MOV`. Each file is written \
        to a temporary name and renamed when complete, the movie before the still; Ctrl-C, SIGTERM or \
        SIGHUP leave no temporary and no half pair. XMP sidecars travel with their photos. With --rotate \
        the exported copies (never the originals) are turned losslessly: a JPEG's Exif orientation and the \
        movie's display matrix together. With --strip-location the copies leave without their GPS position.
        """
    )

    enum Choice: String, ExpressibleByArgument, CaseIterable {
        case live, still
        case loop, bounce, gif
        case longExposure = "long-exposure"
    }

    enum Rotation: String, ExpressibleByArgument, CaseIterable {
        case left, right, flip
        var adjustment: Adjustment {
            switch self {
            case .left: return .rotateCounterclockwise
            case .right: return .rotateClockwise
            case .flip: return .flipHorizontal
            }
        }
    }

    @Argument(help: "Paths of stills or movies to export (or their remote URLs: s3://bucket/prefix/IMG_1.JPG, https://…).", completion: .file())
    var items: [String]

    @Option(name: .long, help: "The destination directory (must exist).", completion: .directory)
    var to: String

    @Option(name: .customLong("as"), help: ArgumentHelp("live (still + movie), still, or an effect: loop, bounce, gif, long-exposure.",
                                                       discussion: "loop: MP4 with a crossfade at the seam; bounce: MP4 forward then reversed; gif: palette-optimised, at most --max-size; long-exposure: JPEG averaging every frame (aligned first when the camera moved), with the original's Exif."))
    var choice: Choice?

    @Option(name: .customLong("max-size"), help: "Largest GIF in bytes (K/M suffixes; default 8M).")
    var maxSize: String?

    @Option(name: .long, help: "Turn the exported copies losslessly: left, right or flip (mirror).")
    var rotate: Rotation?

    @Flag(name: .long, help: ArgumentHelp("Remove the location (GPS) from the exported copies.",
                                          discussion: "Exif GPS, XMP exif:GPS*, QuickTime ©xyz and com.apple.quicktime.location.* are removed from the new stills, movies and XMP sidecars (JPEG, HEIC, QuickTime/MP4); pictures and sound are copied untouched and the originals never change. An item whose location cannot be removed fails instead of leaving with it."))
    var stripLocation = false

    @OptionGroup(title: "S3 (s3://BUCKET/PREFIX/NAME)") var s3: S3Options

    func run() throws {
        let resolved: [LibraryItem]
        // Remote items (s3://, https://, sftp://...) are downloaded to a temporary folder and exported from there.
        var staging: RemoteExportStaging?
        defer { staging?.remove() }
        // Ratings kept in the index (remote items, read-only folders) leave as sidecars beside the copies.
        let index = LazyLibraryIndex(path: LibraryIndex.defaultPath(environment: LaunchEnvironment.current.variables))
        let triage = TriageStore(index: { index.value })
        do {
            var paths = items
            if items.contains(where: RemoteExportStaging.isRemote) {
                staging = try RemoteExportStaging.stage(items, s3: s3, triage: triage)
                paths = staging?.paths ?? items
            }
            resolved = try ItemResolver.resolve(paths)
        } catch {
            fail("\(error)")
        }
        if let effect = choice.flatMap({ StudioEffect(rawValue: $0.rawValue) }) {
            try exportEffect(effect, resolved)
            return
        }
        if maxSize != nil { fail("--max-size is for --as gif") }
        var plan = ExportPlan(items: resolved, destination: to,
                              choiceForAll: choice.map { $0 == .still ? .stillPhoto : .livePhoto },
                              stripLocation: stripLocation)
        for item in resolved {
            let staged = staging.flatMap { $0.ratings[(item.primary.path as NSString).lastPathComponent] }
            if let state = staged ?? triage.indexedState(of: item) { plan.ratings[item.id] = state }
        }
        let isTerminal = isatty(STDERR_FILENO) == 1
        let report: ExportReport
        do {
            report = try ExportRunner().run(plan) { progress in
                guard isTerminal else { return }
                let percent = Int(progress.fraction * 100)
                let name = (progress.currentFile as NSString).lastPathComponent
                HumanOutput.write(Data("\r\u{1B}[K[\(progress.itemIndex + 1)/\(progress.itemCount)] \(percent)% \(VisibleText.escaped(name))".utf8),
                                  to: .standardError)   // never traps on a terminal that is gone (issue 32.1)
            }
        } catch {
            fail("\(error)")
        }
        if isTerminal { HumanOutput.write(Data("\r\u{1B}[K".utf8), to: .standardError) }
        // What was written goes to standard output (a script reads it); what failed goes to standard error.
        let lines = report.summaryLines
        HumanOutput.lines(lines.filter { !$0.hasPrefix(ExportReport.failurePrefix) })
        for failure in lines where failure.hasPrefix(ExportReport.failurePrefix) { HumanOutput.note(failure) }
        var failed = report.failedCount > 0
        if let rotate {
            for result in report.results where result.failure == nil {
                if let problem = rotateCopy(result.written, by: rotate.adjustment) {
                    HumanOutput.error("cannot rotate \(result.displayName): \(problem)")
                    failed = true
                }
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// Turns a freshly exported copy in place (still and movie together); nil when done, else why not.
    private func rotateCopy(_ written: [String], by adjustment: Adjustment) -> String? {
        guard let first = written.first else { return "nothing was written" }
        do {
            guard let item = try ItemResolver.resolve([first]).first else { return "not found after export" }
            switch try AdjustmentApplier(writer: MediaWritingOrientationWriter())
                .apply(adjustment, to: item, target: .inPlace(confirmed: true)) {
            case .applied: return nil
            case .offerConvertToStill(let why): return "\(why.description) (export it --as still to rotate the picture)"
            }
        } catch {
            return "\(error)"
        }
    }

    /// --as loop|bounce|gif|long-exposure (StudioExport).
    private func exportEffect(_ effect: StudioEffect, _ resolved: [LibraryItem]) throws {
        if rotate != nil || stripLocation { fail("--rotate and --strip-location apply to --as live and --as still") }
        var bound = StudioExport.defaultGIFBytes
        if let maxSize {
            guard effect == .gif else { fail("--max-size is for --as gif") }
            guard let bytes = StudioExport.byteCount(maxSize) else { fail("--max-size takes a size like 8M, 500K or 2000000, not \(maxSize)") }
            bound = bytes
        }
        let result = StudioExport(destination: to, effect: effect, maxBytes: bound).run(resolved)
        HumanOutput.lines(result.lines)
        if result.failed { throw ExitCode(1) }
    }

    private func fail(_ message: String) -> Never {
        HumanOutput.error(message)
        Self.exit(withError: ExitCode(1))
    }
}
