import CGLib

/// SHA-256 (FIPS 180-4), enough to name cache directories by URL, computed by GLib's GChecksum (Foundation on
/// Linux has no CryptoKit; GLib is loaded anyway, by chafa). See DECISIONS.md.
public enum SHA256 {
    /// Lowercase hex digest of the UTF-8 bytes of `text`.
    public static func hex(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let digest = bytes.withUnsafeBufferPointer { buffer in
            g_compute_checksum_for_data(G_CHECKSUM_SHA256, buffer.baseAddress, gsize(buffer.count))
        }
        guard let digest else { return "" }   // only for a checksum type GLib does not know
        defer { g_free(digest) }
        return String(cString: digest)
    }

    /// The 32-byte digest of `bytes` (SSH host-key fingerprints).
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        guard let checksum = g_checksum_new(G_CHECKSUM_SHA256) else { return [] }
        defer { g_checksum_free(checksum) }
        bytes.withUnsafeBufferPointer { g_checksum_update(checksum, $0.baseAddress, gssize($0.count)) }
        var out = [UInt8](repeating: 0, count: 32)
        var length = gsize(out.count)
        out.withUnsafeMutableBufferPointer { g_checksum_get_digest(checksum, $0.baseAddress, &length) }
        return Array(out.prefix(Int(length)))
    }
}
