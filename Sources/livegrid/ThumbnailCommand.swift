import ArgumentParser
import Foundation
import Imaging
import MediaFormats

struct ThumbnailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Write an upright PNG thumbnail of a picture.",
        usage: "livegrid thumbnail <files> ... --output <output> [<options>]",   // the full synopsis is wider than 80 columns
        discussion: """
        With --cache the thumbnail goes through the freedesktop.org cache ($XDG_CACHE_HOME/thumbnails), shared \
        with file managers: a fresh cached thumbnail is reused, a stale one regenerated.

        With several FILEs, -o names a directory and each thumbnail is named after its file.
        """
    )

    @Argument(help: "The picture(s).", completion: .file())
    var files: [String]

    @Option(name: .shortAndLong, help: "Output PNG (or a directory with several files).")
    var output: String

    @Option(help: "The box the thumbnail fits in, in pixels.")
    var size: Int = 256

    @Flag(help: "Use the freedesktop thumbnail cache (normal 128, large 256, x-large 512, xx-large 1024).")
    var cache = false

    @Flag(help: "Replace an existing output file (without it, an existing file is never overwritten).")
    var force = false

    @Flag(help: "Benchmark baseline: never use embedded thumbnails.")
    var noEmbedded = false

    @Flag(help: "Benchmark baseline: decode the full image (no embedded thumbnail, no DCT scaling).")
    var fullDecode = false

    @OptionGroup var diagnostics: DiagnosticOptions

    func run() throws {
        guard size > 0, size <= 4096 else { throw ValidationError("--size must be 1...4096") }
        var options = DecodeOptions.default
        if noEmbedded { options.useEmbeddedThumbnails = false }
        if fullDecode { options = .fullDecode }
        let intoDirectory = files.count > 1
        let thumbnailCache = cache ? ThumbnailCache(version: LivegridVersion.string, environment: LaunchEnvironment.current.variables) : nil
        var failures = 0
        for file in files {
            let target = intoDirectory
                ? output + "/" + ((file as NSString).lastPathComponent as NSString).deletingPathExtension + ".png"
                : output
            if !force, PathBytes.exists(target) {
                failures += 1
                HumanOutput.error("\(target) already exists; add --force to replace it")
                continue
            }
            do {
                let frame: PixelFrame
                let damage: ImagingError?
                if let thumbnailCache {
                    let thumbnail = try thumbnailCache.thumbnail(forFile: file, size: ThumbnailSize.covering(size), options: options)
                    frame = thumbnail.frame.fitted(in: PixelSize(square: size))
                    damage = thumbnail.damage
                } else {
                    let decoded = try ImageDecoder.decode(path: file, fitting: PixelSize(square: size), options: options)
                    frame = decoded.frame
                    damage = decoded.damage
                }
                let png = try PNGCodec.encode(frame, text: [("Software", "livegrid \(LivegridVersion.string)")])
                // Without --force, link(2) refuses a file that appeared while decoding.
                try AtomicFileWriter.write(png, to: target, replace: force)
                if let damage {
                    // Written, but only what decoded: the same words as `show` (issue 31.7.2); exit status 0.
                    let note = diagnostics.verbose ? damage.verboseDescription : damage.description
                    HumanOutput.error("\(file): \(note) (shown as far as it decodes, the rest grey)")
                }
            } catch {
                failures += 1
                HumanOutput.error(describe(error, of: file, verbose: diagnostics.verbose))
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }
}

/// "FILE: why" in plain words ("damaged JPEG: the file ends early"); --verbose adds the codec's detail.
func describe(_ error: Error, of file: String, verbose: Bool = false) -> String {
    "\(file): \(plainMessage(error, of: file, verbose: verbose))"
}
