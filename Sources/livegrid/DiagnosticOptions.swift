import ArgumentParser
import Imaging

/// `--verbose`, shared by the commands that read pictures and movies: errors are one plain sentence
/// ("damaged JPEG: the file ends early"); with --verbose the technical detail follows in brackets
/// (libav's call, code and text; libjpeg-turbo's message), for bug reports.
struct DiagnosticOptions: ParsableArguments {
    @Flag(help: "Add the technical detail (the codec library's message and code) to error messages.")
    var verbose = false
}

/// The sentence for an error met while reading `file`: the user's terms, the detail only when asked for.
func plainMessage(_ error: any Error, of file: String?, verbose: Bool) -> String {
    let explained = ImagingError.explaining(error, path: file)
    return verbose ? explained.verboseDescription : explained.description
}
