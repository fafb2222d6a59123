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
}
