// libFuzzer entry point for the whole decode path: the bytes go through MediaProbe, then ImageDecoder
// (JPEG through TurboJPEG, HEIC through libavcodec tile by tile and libheif, PNG/GIF/WebP/TIFF/BMP through
// libav), or, for a movie, MovieDecoder's first frame. Not a SwiftPM target: Benchmarks/fuzz.sh compiles
// MediaFormats and Imaging as modules with `swiftc -sanitize=fuzzer,address` and links this file against
// them, so every Swift line on the path is instrumented (libav/libheif/libjpeg-turbo are not).
import Imaging
import MediaFormats

/// Small boxes keep each execution fast (DCT scaling and tile scaling make the output, not the input, the
/// cost); two sizes so that the scaled and the embedded-thumbnail paths both run.
private let boxes = [PixelSize(width: 48, height: 32), PixelSize(width: 160, height: 120)]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let source = MemoryByteSource(bytes)
    let info = MediaProbe.probe(source)
    // The input's length picks the box and the options, so one corpus explores them all without a
    // selector byte that would break the seeds' magic numbers.
    let box = boxes[size % boxes.count]
    var options = DecodeOptions.default
    if size % 3 == 0 { options.useEmbeddedThumbnails = false }
    if info.format.isMovie {
        firstMovieFrame(source, box: box)
    } else {
        // A Motion Photo's movie is decoded in place from its byte range, as playback does.
        if let embedded = info.embeddedMovie { firstMovieFrame(SliceByteSource(base: source, range: embedded.range), box: box) }
        if let decoded = try? ImageDecoder.decode(source: source, info: info, fitting: box, options: options) {
            // A picture must have the pixels it claims: a short buffer would be read out of bounds by chafa.
            precondition(decoded.frame.rgba.count == decoded.frame.width * decoded.frame.height * 4)
        }
    }
    return 0
}

private func firstMovieFrame(_ source: any ByteSource, box: PixelSize) {
    guard let movie = try? MovieDecoder(source: source, threadCount: 1) else { return }
    if let frame = try? movie.nextFrame(fitting: box) {
        precondition(frame.pixels.rgba.count == frame.pixels.width * frame.pixels.height * 4)
    }
}
