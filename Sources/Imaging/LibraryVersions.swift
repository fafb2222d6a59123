import CFFmpeg
import CHeif
import CTurboJPEG

/// Versions of the C libraries linked into this build (shown by `livegrid --version --verbose`).
public enum ImagingLibraryVersions {
    public static var all: [(name: String, version: String)] {
        func av(_ v: UInt32) -> String { "\(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)" }
        // tjInitDecompress proves libturbojpeg links; it has no runtime version call.
        let tj: String = {
            guard let h = tjInitDecompress() else { return "unavailable" }
            tjDestroy(h)
            return "linked"
        }()
        // Asking the loaded libraries (opened here on demand) reports what actually runs, not the headers.
        let libav: [(String, String)] = CodecLibraries.libavProblem.map { problem in
            [("libav", "unavailable (\(problem))")]
        } ?? [
            ("libavformat", av(avformat_version())),
            ("libavcodec", av(avcodec_version())),
            ("libswscale", av(swscale_version())),
            ("libavutil", av(avutil_version())),
        ]
        let heif = CodecLibraries.heifProblem.map { "unavailable (\($0))" } ?? String(cString: heif_get_version())
        return libav + [("libheif", heif), ("libturbojpeg", tj)]
    }
}
