import CCodecLoader

/// libav* and libheif are opened on first use rather than at start-up (see CCodecLoader.h): these say
/// whether they could be opened, so a missing library is a "cannot decode" value instead of an abort.
enum CodecLibraries {
    /// nil when libavformat/libavcodec/libswscale/libavutil are loaded, else why not.
    static let libavProblem: String? = load(lg_codecs_load_libav)
    /// nil when libheif is loaded, else why not.
    static let heifProblem: String? = load(lg_codecs_load_heif)

    private static func load(_ loader: (UnsafeMutablePointer<CChar>?, Int) -> Int32) -> String? {
        var message = [CChar](repeating: 0, count: 512)
        guard loader(&message, message.count) != 0 else { return nil }
        return String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
