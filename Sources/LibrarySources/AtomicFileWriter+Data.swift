import Foundation
import MediaFormats

extension AtomicFileWriter {
    /// Foundation's `Data`, for callers that have it (the writer itself lives in the Foundation-free core).
    public func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write(raw: $0) }
    }
}
