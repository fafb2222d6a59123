import CCodecLoader
import CFFmpeg
import MediaFormats

/// What an audio sink plays: signed 16-bit samples, interleaved, at `sampleRate` with `channels` (1 or 2).
public struct AudioFormat: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    public var bytesPerFrame: Int { 2 * channels }
}

/// A run of decoded sound: `samples` interleaved in the decoder's `AudioFormat`, starting at movie time `pts`.
public struct AudioChunk: Sendable, Equatable {
    public var samples: [Int16]
    public var pts: Double
    public let channels: Int
    public let sampleRate: Int

    public init(samples: [Int16], pts: Double, format: AudioFormat) {
        self.samples = samples
        self.pts = pts
        channels = format.channels
        sampleRate = format.sampleRate
    }

    public var frameCount: Int { samples.count / max(1, channels) }
    public var duration: Double { Double(frameCount) / Double(max(1, sampleRate)) }
}

/// Decodes the audio track of a movie (AAC, LPCM, ALAC, Opus... whatever this libavcodec decodes) and resamples
/// it with libswresample to s16 interleaved, 1 or 2 channels, at the source rate when a sound server takes it
/// (8-192 kHz), else 48 kHz. Its own demuxer over the same bytes as the video decoder: the two tracks are read
/// on their own threads without sharing packets. One thread at a time.
// unchecked: libav C pointers (format, codec, resampler), used by one thread at a time.
public final class AudioDecoder: @unchecked Sendable {
    public let format: AudioFormat
    public let codecName: String
    private let input: LibavInput
    private let frames: LibavFrameSource
    private var resampler: OpaquePointer?
    private let timeBase: Double
    private let originTimestamp: Int64
    /// Movie time of the next sample when frames carry no timestamp.
    private var nextPTS: Double?
    /// After a seek: samples before this movie time are cut.
    private var seekTarget: Double?
    private var buffer: [Int16] = []

    /// Opens the best audio stream of `source`. Throws `.noVideoStream` (worded for audio) when there is none,
    /// `.unsupported` for a codec this libavcodec lacks or a header that makes no sense (no channels, 64 of
    /// them, a rate of 0 or 10 MHz): the movie then plays silent.
    public init(source: any ByteSource) throws(LibavError) {
        var message = [CChar](repeating: 0, count: 512)
        if lg_codecs_load_swresample(&message, message.count) != 0 {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw LibavError.unsupported("sound: \(text)")
        }
        input = try LibavInput(source: source, quickOpen: true)
        guard let context = input.format else { throw LibavError.noVideoStream("no sound track") }
        var decoder: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, &decoder, 0)
        if index == LibavErrorCodes.decoderNotFound { throw LibavError.unsupported("sound codec (no decoder in this libavcodec)") }
        guard index >= 0, let stream = input.stream(at: index), let decoder else { throw LibavError.noVideoStream("no sound track") }
        guard let parameters = stream.pointee.codecpar else { throw LibavError.unsupported("sound track without parameters") }
        let channels = Int(parameters.pointee.ch_layout.nb_channels)
        let rate = Int(parameters.pointee.sample_rate)
        guard (1...32).contains(channels) else { throw LibavError.unsupported("sound with \(channels) channels") }
        guard (1000...768_000).contains(rate) else { throw LibavError.unsupported("sound at \(rate) Hz") }
        let tb = stream.pointee.time_base
        guard tb.num > 0, tb.den > 0 else { throw LibavError.unsupported("sound time base \(tb.num)/\(tb.den)") }
        timeBase = Double(tb.num) / Double(tb.den)
        originTimestamp = stream.pointee.start_time == lg_av_nopts_value() ? 0 : stream.pointee.start_time
        codecName = String(cString: avcodec_get_name(parameters.pointee.codec_id))
        frames = try LibavFrameSource(input: input, stream: stream, decoder: decoder, threadCount: 1)
        format = AudioFormat(sampleRate: (8000...192_000).contains(rate) ? rate : 48000, channels: min(channels, 2))
    }

    deinit { swr_free(&resampler) }

    /// The next run of samples, or nil at the end of the track.
    public func nextChunk() throws(LibavError) -> AudioChunk? {
        while let frame = try frames.nextFrame() {
            guard frame.pointee.nb_samples > 0 else { continue }
            let stamp = frame.pointee.best_effort_timestamp != lg_av_nopts_value() ? frame.pointee.best_effort_timestamp : frame.pointee.pts
            let pts = stamp != lg_av_nopts_value() ? Double(stamp - originTimestamp) * timeBase : (nextPTS ?? 0)
            guard var samples = try convert(frame) else { continue }
            var start = pts
            let frameCount = samples.count / format.channels
            nextPTS = pts + Double(frameCount) / Double(format.sampleRate)
            if let target = seekTarget {
                let end = pts + Double(frameCount) / Double(format.sampleRate)
                if end <= target { continue }
                let cut = min(frameCount, max(0, Int(((target - pts) * Double(format.sampleRate)).rounded())))
                samples.removeFirst(cut * format.channels)
                start = pts + Double(cut) / Double(format.sampleRate)
                seekTarget = nil
            }
            if samples.isEmpty { continue }
            return AudioChunk(samples: samples, pts: start, format: format)
        }
        return nil
    }

    /// The next chunk starts with the sample heard at `seconds`.
    public func seek(to seconds: Double) throws(LibavError) {
        guard seconds.isFinite else { throw LibavError.invalidArgument("seek to \(seconds) s") }
        let target = max(0, seconds)
        guard target > 0 else { return }
        try frames.seek(toStreamTimestamp: originTimestamp + Int64((target / timeBase).rounded(.down)))
        swr_free(&resampler)
        seekTarget = target
        nextPTS = nil
    }

    /// The frame's samples in `format`; nil for a frame the resampler rejects (skipped, as a damaged packet is).
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws(LibavError) -> [Int16]? {
        if resampler == nil {
            var inLayout = AVChannelLayout()
            var outLayout = AVChannelLayout()
            defer { av_channel_layout_uninit(&inLayout); av_channel_layout_uninit(&outLayout) }
            guard lg_audio_input_layout(frame, &inLayout) >= 0 else { return nil }
            av_channel_layout_default(&outLayout, Int32(format.channels))
            let inRate = frame.pointee.sample_rate > 0 ? frame.pointee.sample_rate : Int32(format.sampleRate)
            var context: OpaquePointer?
            let made = swr_alloc_set_opts2(&context, &outLayout, AV_SAMPLE_FMT_S16, Int32(format.sampleRate),
                                           &inLayout, AVSampleFormat(frame.pointee.format), inRate, 0, nil)
            guard made >= 0, let context else { throw LibavError.library("swr_alloc_set_opts2", made) }
            let started = swr_init(context)
            guard started >= 0 else {
                var failed: OpaquePointer? = context
                swr_free(&failed)
                throw LibavError.library("swr_init", started)
            }
            resampler = context
        }
        guard let resampler else { return nil }
        let capacity = Int(swr_get_out_samples(resampler, frame.pointee.nb_samples))
        guard capacity > 0 else { return nil }
        if buffer.count < capacity * format.channels { buffer = [Int16](repeating: 0, count: capacity * format.channels) }
        let converted: Int32 = buffer.withUnsafeMutableBytes { raw in
            var out: UnsafeMutablePointer<UInt8>? = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return withUnsafeMutablePointer(to: &out) { outPointer in
                frame.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 1) { inPointer in
                    swr_convert(resampler, outPointer, Int32(capacity), inPointer, frame.pointee.nb_samples)
                }
            }
        }
        guard converted > 0 else { return nil }
        return Array(buffer.prefix(Int(converted) * format.channels))
    }
}
