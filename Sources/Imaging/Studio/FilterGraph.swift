import CFFmpeg

/// One libavfilter graph with a single video input (`buffer`) and a single output (`buffersink`), built
/// from a filter description such as `eq=contrast=1.2,format=yuv420p`. Frames go in with `push`, and
/// whatever the graph has ready comes out of `pull`; `finish()` signals the end so buffering filters
/// (reverse, palettegen, xfade) release their frames.
final class FilterGraph {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    private var output: UnsafeMutablePointer<AVFrame>?

    /// The time base of pulled frames.
    var outputTimeBase: AVRational { av_buffersink_get_time_base(sink) }
    var outputFrameRate: AVRational { av_buffersink_get_frame_rate(sink) }

    init(width: Int32, height: Int32, pixelFormat: Int32, timeBase: AVRational, frameRate: AVRational?,
         description: String) throws(LibavError) {
        try StudioLibraries.ensure()
        guard let graph = avfilter_graph_alloc() else { throw LibavError.outOfMemory("AVFilterGraph") }
        self.graph = graph
        var sourceContext: UnsafeMutablePointer<AVFilterContext>?
        var sinkContext: UnsafeMutablePointer<AVFilterContext>?
        var arguments = "video_size=\(width)x\(height):pix_fmt=\(pixelFormat):time_base=\(timeBase.num)/\(timeBase.den):pixel_aspect=1/1"
        if let frameRate, frameRate.num > 0, frameRate.den > 0 { arguments += ":frame_rate=\(frameRate.num)/\(frameRate.den)" }
        var result = avfilter_graph_create_filter(&sourceContext, avfilter_get_by_name("buffer"), "in", arguments, nil, graph)
        guard result >= 0, let sourceContext else { avfilter_graph_free(&self.graph); throw LibavError.library("avfilter buffer", result) }
        result = avfilter_graph_create_filter(&sinkContext, avfilter_get_by_name("buffersink"), "out", nil, nil, graph)
        guard result >= 0, let sinkContext else { avfilter_graph_free(&self.graph); throw LibavError.library("avfilter buffersink", result) }
        source = sourceContext
        sink = sinkContext

        // The description's unlabelled input is fed by "in", its output drains into "out".
        var outputsPointer = avfilter_inout_alloc()
        var inputsPointer = avfilter_inout_alloc()
        guard let outputs = outputsPointer, let inputs = inputsPointer else {
            avfilter_inout_free(&outputsPointer)
            avfilter_inout_free(&inputsPointer)
            avfilter_graph_free(&self.graph)
            throw LibavError.outOfMemory("AVFilterInOut")
        }
        outputs.pointee.name = av_strdup("in")
        outputs.pointee.filter_ctx = sourceContext
        outputs.pointee.pad_idx = 0
        outputs.pointee.next = nil
        inputs.pointee.name = av_strdup("out")
        inputs.pointee.filter_ctx = sinkContext
        inputs.pointee.pad_idx = 0
        inputs.pointee.next = nil
        result = avfilter_graph_parse_ptr(graph, description.isEmpty ? "null" : description, &inputsPointer, &outputsPointer, nil)
        // parse_ptr consumed both lists and left in the pointers only what it could not link.
        avfilter_inout_free(&inputsPointer)
        avfilter_inout_free(&outputsPointer)
        guard result >= 0 else { avfilter_graph_free(&self.graph); throw LibavError.library("avfilter_graph_parse (\(description))", result) }
        result = avfilter_graph_config(graph, nil)
        guard result >= 0 else { avfilter_graph_free(&self.graph); throw LibavError.library("avfilter_graph_config", result) }
        output = av_frame_alloc()
        guard output != nil else { avfilter_graph_free(&self.graph); throw LibavError.outOfMemory("AVFrame") }
    }

    deinit {
        av_frame_free(&output)
        avfilter_graph_free(&graph)
    }

    /// Sends a frame in (the caller keeps its own reference).
    func push(_ frame: UnsafeMutablePointer<AVFrame>) throws(LibavError) {
        let result = av_buffersrc_add_frame_flags(source, frame, lg_av_buffersrc_flag_keep_ref())
        guard result >= 0 else { throw LibavError.library("av_buffersrc_add_frame", result) }
    }

    /// Signals the end of the input.
    func finish() throws(LibavError) {
        let result = av_buffersrc_add_frame_flags(source, nil, 0)
        guard result >= 0 else { throw LibavError.library("av_buffersrc_add_frame (end)", result) }
    }

    /// Every frame the graph has ready, each handed to `body` (valid only during the call).
    func pull(_ body: (UnsafeMutablePointer<AVFrame>) throws(LibavError) -> Void) throws(LibavError) {
        guard let output else { return }
        while true {
            let result = av_buffersink_get_frame(sink, output)
            if result == lg_averror_eagain() || result == lg_averror_eof() { return }
            guard result >= 0 else { throw LibavError.library("av_buffersink_get_frame", result) }
            defer { av_frame_unref(output) }
            try body(output)
        }
    }
}
