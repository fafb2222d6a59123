import Foundation

/// Writes a file the safe way: a temp file (mkstemp) in the target's directory with the wanted mode, then
/// rename(2) over the target, so readers see the old file or the new one, never half of one.
public enum AtomicFileWriter {
    public static func replace(_ bytes: [UInt8], to target: String, mode: mode_t = 0o644) throws(ImagingError) {
        var template = Array((target + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw ImagingError.io("cannot create a file next to \(target): \(errnoText())") }
        let tempPath = String(cString: template)
        fchmod(fd, mode)
        var done = 0
        var failure: String?
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                failure = "cannot write \(tempPath): \(errnoText())"
                break
            }
            done += n
        }
        if close(fd) != 0 && failure == nil { failure = "cannot write \(tempPath): \(errnoText())" }
        if failure == nil && rename(tempPath, target) != 0 { failure = "cannot rename into \(target): \(errnoText())" }
        if let failure {
            unlink(tempPath)
            throw ImagingError.io(failure)
        }
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
