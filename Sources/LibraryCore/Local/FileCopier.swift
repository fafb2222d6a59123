import Foundation
import MediaFormats

/// Copies one file through `AtomicFileWriter`: streamed in chunks, never a half file under the final name,
/// never over an existing file, with the source's permission bits and modification time.
public struct FileCopier: Sendable {
    /// Called after every chunk with the bytes written so far for this file; throwing aborts the copy
    /// (cancellation, and the tests' injected failure mid-copy). The temporary file is removed.
    public typealias ChunkObserver = @Sendable (_ destination: String, _ bytesSoFar: UInt64) throws -> Void

    public var chunkSize: Int
    public var onChunk: ChunkObserver?

    public init(chunkSize: Int = 1 << 20, onChunk: ChunkObserver? = nil) {
        self.chunkSize = max(4096, chunkSize)
        self.onChunk = onChunk
    }

    /// Copies `source` to `destination` (which must not exist). Returns the bytes copied. `observe` sees the
    /// bytes written so far after each chunk (progress); throwing from it aborts like `onChunk`.
    @discardableResult
    public func copy(_ source: String, to destination: String,
                     observe: ((_ bytesSoFar: UInt64) throws -> Void)? = nil) throws -> UInt64 {
        let writer = try prepare(source, to: destination, observe: observe)
        do {
            try writer.commit(replace: false)
        } catch {
            writer.abort()
            throw FileCopier.translate(error, source: source)
        }
        return writer.bytesWritten
    }

    /// Copies `source` into a temporary beside `destination`, synced with the source's permission bits and
    /// times, not yet committed: the caller commits it (with its group: `AtomicFileWriter.commitGroup`) or
    /// aborts it.
    public func prepare(_ source: String, to destination: String,
                        observe: ((_ bytesSoFar: UInt64) throws -> Void)? = nil) throws -> AtomicFileWriter {
        var st = StatBuffer()
        guard PathBytes.stat(source, &st) == 0 else {
            throw FileOperationError.system(operation: "stat", path: source, errno: errno)
        }
        let input: FileByteSource
        do { input = try FileByteSource(path: source) } catch {
            throw FileOperationError.system(operation: "open", path: source, errno: error.errnoValue)
        }
        let writer: AtomicFileWriter
        do {
            writer = try AtomicFileWriter(destination: destination, permissions: st.st_mode & 0o777)
        } catch AtomicFileWriter.WriteError.create(_, let e) {
            throw (e == EROFS || e == EACCES || e == EPERM)
                ? FileOperationError.notWritable(POSIXFile.directory(of: destination))
                : FileOperationError.system(operation: "create", path: destination, errno: e)
        }
        do {
            var offset: UInt64 = 0
            while offset < input.size {
                let chunk = try input.readExactly(at: offset, count: Int(min(UInt64(chunkSize), input.size - offset)))
                try writer.write(chunk)
                offset += UInt64(chunk.count)
                try onChunk?(destination, offset)
                try observe?(offset)
            }
            writer.setTimes(access: st.st_atim, modification: st.st_mtim)
        } catch {
            writer.abort()
            throw FileCopier.translate(error, source: source)
        }
        return writer
    }

    static func translate(_ error: any Error, source: String) -> any Error {
        switch error {
        case AtomicFileWriter.WriteError.exists(let p): return FileOperationError.wouldOverwrite(p)
        case AtomicFileWriter.WriteError.write(let p, let e): return FileOperationError.system(operation: "write", path: p, errno: e)
        case AtomicFileWriter.WriteError.commit(let p, let e): return FileOperationError.system(operation: "rename", path: p, errno: e)
        case let e as MediaError: return FileOperationError.system(operation: "read", path: source, errno: e.errnoValue)
        default: return error
        }
    }

    /// Whether two files hold the same bytes (the verify step of a cross-device move).
    public static func sameContents(_ a: String, _ b: String, chunkSize: Int = 1 << 20) throws -> Bool {
        let x = try FileByteSource(path: a), y = try FileByteSource(path: b)
        guard x.size == y.size else { return false }
        var offset: UInt64 = 0
        while offset < x.size {
            let n = Int(min(UInt64(chunkSize), x.size - offset))
            guard try x.readExactly(at: offset, count: n) == y.readExactly(at: offset, count: n) else { return false }
            offset += UInt64(n)
        }
        return true
    }
}

extension MediaError {
    /// The errno inside an I/O error, or EIO for anything else (truncated while copying, ...).
    var errnoValue: Int32 {
        if case .io(_, let e) = self { return e }
        return EIO
    }
}
