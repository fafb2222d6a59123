import ArgumentParser
import Concurrent
import Foundation
import Imaging
import MediaFormats
import TerminalGraphics
import TerminalProtocol

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print pictures in the terminal (like chafa or timg), upright, with a LIVE badge on live items.",
        usage: "livegrid show <files> ... [<options>]",   // the full synopsis is wider than 80 columns
        discussion: """
        The graphics mode is detected as the browser detects it: the environment (TERM, COLORTERM, TMUX, \
        TERM_PROGRAM, ...) and the terminal's answers to a short probe on the tty; force one with --format or \
        LIVEGRID_GRAPHICS=symbols|sixels|kitty|iterm. In a locale that is not UTF-8, pictures are drawn with ASCII. Live Photo and Motion Photo stills wear \
        "◎ LIVE"; movies show their poster frame with "▣ VIDEO".

        A fresh thumbnail already in the freedesktop.org cache ($XDG_CACHE_HOME/thumbnails, written by the \
        browser, `livegrid thumbnail --cache` or a file manager) is used when it is big enough; show never \
        writes to the cache. --no-cache decodes every file.
        """
    )

    @Argument(help: "Pictures (or movies) to show, or their remote URLs (sftp://host/dir/IMG_1.JPG, https://…, s3://…).",
              completion: .file())
    var files: [String]

    @OptionGroup var output: TerminalAreaOptions

    @OptionGroup var diagnostics: DiagnosticOptions

    @Flag(help: "Print which graphics mode and colours were chosen, and why, on stderr.")
    var why = false

    @Flag(help: "Decode every file, ignoring thumbnails in the freedesktop cache.")
    var noCache = false

    @OptionGroup(title: "S3 (s3://BUCKET/PREFIX/NAME)") var s3: S3Options

    func run() throws {
        let (area, capabilities) = output.resolve(probe: true)
        if why { HumanOutput.error(capabilities.why) }
        if why, let notice = TerminalTextEncoding.current.notice { HumanOutput.error(notice) }

        // Decode and render on every core (one renderer per worker: chafa objects are not shared across
        // threads), then print in the order given.
        let files = self.files
        // Remote files are downloaded (with a Live Photo's movie, for the badge) into a temporary folder and
        // shown from there, as `export` does; a download's failure is that file's failure.
        var paths = files, stagingFailures: [Int: Error] = [:], stagings: [RemoteExportStaging] = []
        defer { stagings.forEach { $0.remove() } }
        for (index, file) in files.enumerated() where RemoteExportStaging.isRemote(file) {
            do {
                let staging = try RemoteExportStaging.stage([file], s3: s3, triage: .sidecarsOnly)   // `show` writes no sidecar
                stagings.append(staging)
                paths[index] = staging.paths.first ?? file
            } catch {
                stagingFailures[index] = error
            }
        }
        let localPaths = paths, failedDownloads = Set(stagingFailures.keys)
        let mode = capabilities.graphicsMode, depth = capabilities.colorDepth, cell = capabilities.cellPixelSize
        let sixelLimit = capabilities.maxSixelSize
        let cache = noCache ? nil : ThumbnailCache(version: LivegridVersion.string, environment: LaunchEnvironment.current.variables)
        let results = Parallel.map(count: files.count, makeWorker: {
            ChafaRenderer(mode: mode, colorDepth: depth, cellPixelSize: cell, maxSixelSize: sixelLimit)
        }, { renderer, index -> Result<ShownPicture, Error> in
            if failedDownloads.contains(index) { return .failure(CancellationError()) }   // said below, with its reason
            return Result<ShownPicture, Error> {
                try Self.render(file: localPaths[index], area: area, renderer: renderer, cell: cell, cache: cache)
            }
        })
        let output = FileHandle.standardOutput
        var failures = 0
        for (index, file) in files.enumerated() {
            if let failure = stagingFailures[index] {
                failures += 1
                HumanOutput.error("\(file): \(failure)")   // a RemoteError's sentence, not a decoder's
                continue
            }
            switch results[index] {
            case .success(let shown)?:
                do {
                    try output.write(contentsOf: Self.terminalBytes(shown.rendered, insideTmux: capabilities.insideTmux))
                } catch {
                    // The terminal is gone (EIO) or the pipe closed: nobody sees the rest, so end as the browser
                    // does (issue 32.1). Foundation's `write(_: Data)` stopped the process with SIGILL here.
                    throw ExitCode(1)
                }
                if let damage = shown.damage {
                    // Shown, but only what decoded: say so (the exit status stays 0, the picture is there).
                    let note = diagnostics.verbose ? damage.verboseDescription : damage.description
                    HumanOutput.error("\(file): \(note) (shown as far as it decodes, the rest grey)")
                }
            case .failure(let error)?:
                failures += 1
                HumanOutput.error(describe(error, of: file, verbose: diagnostics.verbose))
            case nil:
                failures += 1
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// Decodes at the pixel size the cell area covers, badges, renders.
    static func render(file: String, area: (columns: Int, rows: Int), renderer: ChafaRenderer,
                       cell: PixelSizeInCells?, cache: ThumbnailCache? = nil) throws -> ShownPicture
    {
        let info = try MediaProbe.probe(path: file)
        let box: PixelSize
        var options = DecodeOptions.default
        if renderer.mode == .symbols {
            // Decode no more than the symbols can show: fit the picture into the cells first when its size is known.
            var cells = area
            if let shown = info.displaySize {
                cells = CellGeometry.fit(pictureWidth: shown.width, pictureHeight: shown.height,
                                         maxColumns: area.columns, maxRows: area.rows, cell: cell)
            }
            box = CellPictureResolution.decodeBox(mode: .symbols, columns: cells.columns, rows: cells.rows, cell: cell)
            // An embedded thumbnail serves when it has what the symbols can show (4 px per column, DECISIONS.md).
            options = CellPictureResolution.decodeOptions(mode: .symbols, columns: cells.columns, rows: cells.rows)
        } else {
            box = CellGeometry.pixelBox(columns: area.columns, rows: area.rows, cell: cell)
        }
        var frame: PixelFrame
        var damage: ImagingError?
        let badge: LiveBadge?
        if info.format.isMovie {
            let movie = try MovieDecoder(path: file)
            guard let poster = try movie.frame(at: info.stillImageTime ?? 0, fitting: box) else {
                throw ImagingError.cannotDecode("the movie has no frames")
            }
            frame = poster.pixels
            badge = LiveBadge(info.contentIdentifier != nil ? .live : .video)
        } else {
            if let cached = cachedThumbnail(of: file, shown: info.displaySize.map { PixelSize(width: $0.width, height: $0.height) },
                                            box: box, sufficient: options.embeddedThumbnailSufficientBox, cache: cache) {
                frame = cached
            } else {
                let decoded = try ImageDecoder.decode(path: file, info: info, fitting: box, options: options)
                frame = decoded.frame
                damage = decoded.damage
            }
            badge = ShowLiveBadge.variant(forStill: file, info: info).map { LiveBadge($0) }
        }
        if let badge, renderer.mode.isPixelProtocol { frame = frame.drawingBadge(badge) }
        var rendered = try renderer.render(frame, maxColumns: area.columns, maxRows: area.rows)
        if let badge, renderer.mode == .symbols { rendered = rendered.compositing(badge) }
        return ShownPicture(rendered: rendered, damage: damage)
    }

    /// A picture ready for the terminal, and the damage of a file shown only in part.
    struct ShownPicture {
        var rendered: RenderedImage
        var damage: ImagingError?
    }

    /// A fresh freedesktop thumbnail (already upright) of the smallest cached size that covers `box`, shrunk
    /// to fit it; nil when there is none, or when it is more than 10 % smaller than what decoding would give
    /// (the picture's upright size `shown` fitted into `box`) and smaller than the `sufficient` box (symbols).
    static func cachedThumbnail(of file: String, shown: PixelSize?, box: PixelSize, sufficient: PixelSize? = nil,
                                cache: ThumbnailCache?) -> PixelFrame? {
        guard let cache, let shown else { return nil }
        let wanted = shown.fittedDown(in: box)
        let enough = sufficient.map { shown.fittedDown(in: $0) } ?? wanted
        let smallest = ThumbnailSize.allCases.first { $0.pixels >= max(enough.width, enough.height) } ?? .xxLarge
        for size in ThumbnailSize.allCases where size.pixels >= smallest.pixels {
            guard let thumbnail = cache.cached(forFile: file, size: size) else { continue }
            let bigEnough = (thumbnail.width * 10 >= wanted.width * 9 && thumbnail.height * 10 >= wanted.height * 9)
                || (thumbnail.width >= enough.width && thumbnail.height >= enough.height)
            guard bigEnough else { continue }
            let fitted = PixelSize(width: thumbnail.width, height: thumbnail.height).fittedDown(in: box)
            return thumbnail.width > fitted.width ? thumbnail.resized(to: fitted) : thumbnail
        }
        return nil
    }

    static func terminalBytes(_ rendered: RenderedImage, insideTmux: Bool) -> Data {
        if rendered.mode == .symbols {
            return Data((rendered.ansiLines().joined(separator: "\n") + "\n").utf8)
        }
        // A pixel mode inside tmux was forced (detection prefers symbols there): pass it through.
        var data = Data(insideTmux ? rendered.bytesWrappedForTmux : rendered.bytes)
        data.append(0x0A)
        return data
    }

    static func parseCells(_ text: String) -> (columns: Int, rows: Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= 10_000, h <= 10_000
        else { return nil }
        return (w, h)
    }
}

/// The terminal's size from TIOCGWINSZ on stdout (nil when stdout is not a terminal).
struct TerminalWindow {
    var columns: Int
    var rows: Int
    var cellPixelSize: PixelSizeInCells?

    static func current() -> TerminalWindow? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        var ws = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 else { return nil }
        var cell: PixelSizeInCells?
        if ws.ws_xpixel > 0, ws.ws_ypixel > 0 {
            cell = PixelSizeInCells(width: Int(ws.ws_xpixel) / Int(ws.ws_col), height: Int(ws.ws_ypixel) / Int(ws.ws_row))
        }
        return TerminalWindow(columns: Int(ws.ws_col), rows: Int(ws.ws_row), cellPixelSize: cell)
    }
}
