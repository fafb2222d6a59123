import CFFmpeg
import MediaFormats

/// An `AVIOContext` that reads from any `ByteSource`: a file, a memory buffer, or a `SliceByteSource` over the
/// movie embedded in a Motion Photo, which libavformat then demuxes in place without extracting it.
///
/// Ownership: this object owns the AVIOContext and its buffer and frees both in `deinit`. The context's
/// opaque pointer is an *unretained* reference to `self`, valid because the context never outlives its owner.
/// Whoever hands `context` to an AVFormatContext must close that AVFormatContext first (MovieDecoder does).
final class ByteSourceIOContext {
    let source: any ByteSource
    private(set) var position: UInt64 = 0
    /// The last read error, kept so the caller can report it instead of libav's generic EIO.
    private(set) var lastError: MediaError?
    private(set) var context: UnsafeMutablePointer<AVIOContext>?

    /// 64 KiB: large enough that libavformat's probing and small reads cost few `pread`s.
    static let bufferSize: Int32 = 64 * 1024

    init(source: any ByteSource) throws(LibavError) {
        self.source = source
        guard let buffer = av_malloc(Int(Self.bufferSize)) else {
            throw LibavError.outOfMemory("AVIOContext buffer")
        }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        guard let ctx = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0, opaque,
                                           ioRead, nil, ioSeek) else {
            av_free(buffer)
            throw LibavError.outOfMemory("AVIOContext")
        }
        // The source is random-access: let libavformat seek instead of reading through.
        ctx.pointee.seekable = AVIO_SEEKABLE_NORMAL
        self.context = ctx
    }

    deinit {
        if let ctx = context {
            // avio may have replaced the buffer it was given; free whatever it holds now, then the context.
            av_freep(&ctx.pointee.buffer)
        }
        avio_context_free(&context)
    }

    fileprivate func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int32) -> Int32 {
        guard capacity > 0 else { return 0 }
        guard position < source.size else { return lg_averror_eof() }
        do {
            let bytes = try source.read(at: position, count: Int(capacity))
            if bytes.isEmpty { return lg_averror_eof() }
            bytes.withUnsafeBufferPointer { buf in
                if let base = buf.baseAddress { buffer.update(from: base, count: buf.count) }
            }
            position += UInt64(bytes.count)
            return Int32(bytes.count)
        } catch {
            lastError = error
            return lg_averror_from_errno(EIO)
        }
    }

    fileprivate func seek(offset: Int64, whence rawWhence: Int32) -> Int64 {
        let size = source.size
        if rawWhence & lg_seek_size() != 0 { return Int64(clamping: size) }
        // AVSEEK_FORCE is a hint only; strip it before reading the origin.
        let whence = rawWhence & ~AVSEEK_FORCE
        let origin: Int64
        switch whence {
        case SEEK_SET: origin = 0
        case SEEK_CUR: origin = Int64(clamping: position)
        case SEEK_END: origin = Int64(clamping: size)
        default: return Int64(lg_averror_from_errno(EINVAL))
        }
        let (target, overflow) = origin.addingReportingOverflow(offset)
        guard !overflow, target >= 0 else { return Int64(lg_averror_from_errno(EINVAL)) }
        // Seeking past the end is allowed (reads there return EOF), as with a file.
        position = UInt64(target)
        return target
    }
}

private func ioRead(_ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32) -> Int32 {
    guard let opaque, let buffer else { return lg_averror_from_errno(EINVAL) }
    let io = Unmanaged<ByteSourceIOContext>.fromOpaque(opaque).takeUnretainedValue()
    return io.read(into: buffer, capacity: size)
}

private func ioSeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
    guard let opaque else { return Int64(lg_averror_from_errno(EINVAL)) }
    let io = Unmanaged<ByteSourceIOContext>.fromOpaque(opaque).takeUnretainedValue()
    return io.seek(offset: offset, whence: whence)
}
