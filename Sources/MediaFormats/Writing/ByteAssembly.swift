/// A file to write, described as new bytes and ranges copied from a source file: how writers rewrite a
/// 1 GB movie without loading it (a moov patch plus the untouched mdat range) and without touching the source.
public struct ByteAssembly: Sendable {
    public enum Part: Sendable {
        case bytes([UInt8])
        case source(ByteRange)
    }
    public var parts: [Part] = []
    public init(_ parts: [Part] = []) { self.parts = parts }

    public mutating func append(_ bytes: [UInt8]) {
        if !bytes.isEmpty { parts.append(.bytes(bytes)) }
    }
    public mutating func append(range: ByteRange) {
        if range.length > 0 { parts.append(.source(range)) }
    }

    public var totalLength: UInt64 {
        parts.reduce(0) { sum, part in
            switch part {
            case .bytes(let b): return sum + UInt64(b.count)
            case .source(let r): return sum + r.length
            }
        }
    }

    /// Streams the assembly to `sink` in chunks of at most `chunkSize` bytes, reading source ranges as it goes.
    public func stream(from source: any ByteSource, chunkSize: Int = 1 << 20,
                       into sink: ([UInt8]) throws -> Void) throws {
        for part in parts {
            switch part {
            case .bytes(let b):
                try sink(b)
            case .source(let range):
                guard range.fits(in: source.size) else {
                    throw MediaError.invalid("range \(range) outside a source of \(source.size) bytes")
                }
                var offset = range.offset
                while offset < range.end {
                    let n = Int(min(UInt64(chunkSize), range.end - offset))
                    let chunk = try source.readExactly(at: offset, count: n)
                    try sink(chunk)
                    offset += UInt64(n)
                }
            }
        }
    }

    /// The whole output in memory (small files and tests).
    public func materialize(from source: any ByteSource) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Int(min(totalLength, 256 << 20)))
        try stream(from: source) { out += $0 }
        return out
    }
}

extension ByteAssembly {
    /// `materialize` with a typed error, for writers that chain (a still rewritten twice in memory).
    func bytes(from source: any ByteSource) throws(MediaError) -> [UInt8] {
        do {
            return try materialize(from: source)
        } catch let error as MediaError {
            throw error
        } catch {
            throw MediaError.invalid("\(error)")
        }
    }
}
