import LibraryCore
import MediaFormats
import Foundation
import LibrarySources
import LivePairing

/// Reads and writes ratings and pick/reject flags in XMP sidecars, never in the photo itself.
///
/// Properties (chosen so other tools read them):
/// - `xmp:Rating` (`http://ns.adobe.com/xap/1.0/`): 0–5 stars; a reject is `-1`, the darktable and Lightroom
///   convention, so darktable shows it rejected.
/// - `digiKam:PickLabel` (`http://www.digikam.org/ns/1.0/`): 0 none, 1 rejected, 2 pending, 3 accepted —
///   digiKam's pick labels (exiftool knows it as XMP-digiKam:PickLabel). Lightroom keeps picks in its catalog
///   only and XMP has no standard pick property, so this is the one another tool reads. A pick is written
///   as 3, a reject as 1 (alongside Rating -1), and "none" as 0 only where a PickLabel was already present.
public enum SidecarTriageStore {
    public static let xmpNamespace = "http://ns.adobe.com/xap/1.0/"
    public static let digiKamNamespace = "http://www.digikam.org/ns/1.0/"

    /// Typed up to the edge: the path and the underlying error, rendered only in `description`.
    public enum StoreError: Error, CustomStringConvertible {
        case unreadable(path: String, MediaError)
        /// Over 16 MiB: no real sidecar is, and reading it whole would be the cost of a hostile file.
        case tooLarge(path: String, bytes: UInt64)
        case write(path: String, any Error)
        /// A symbolic link whose target is missing: a rating is never written through a broken link.
        case danglingLink(path: String, target: String)
        public var description: String {
            switch self {
            case .unreadable(let p, .io(_, let code)): return "\(p): cannot read sidecar: \(String(cString: strerror(code)))"
            case .unreadable(let p, let error): return "\(p): cannot read sidecar: \(error)"
            case .tooLarge(let p, let bytes): return "\(p): cannot read sidecar: \(bytes) bytes is too large for one"
            case .write(let p, let error): return "\(p): cannot write sidecar: \(error)"
            case .danglingLink(let p, let target):
                return "\(p) is a symbolic link to \(target), which does not exist: the rating was not saved"
            }
        }
    }

    /// The item's rating and flag; unrated when it has no sidecar.
    public static func read(for item: LibraryItem) throws -> TriageState {
        try read(forFile: item.primary.path)
    }

    /// The rating in the sidecar of the media file at `path`; unrated when it has none.
    public static func read(forFile path: String) throws -> TriageState {
        guard let sidecar = SidecarLocator.existingSidecars(for: path, includingLinks: true).first else { return .unrated }
        return try read(sidecar: sidecar)
    }

    public static func read(sidecar path: String) throws -> TriageState {
        // A missing file is an error here (the caller named it); `read(for:)` only names sidecars that exist.
        let target = try resolvedTarget(of: path) ?? path
        return state(of: XMPPacketText(bytes: try contents(of: target)))
    }

    /// The file a sidecar name stands for: the name itself, or, for a symbolic link, the file it points to (a
    /// linked sidecar is the user's arrangement: it is read and updated where it is, and stays a link). nil
    /// when nothing is there; throws for a broken link. (What is not a regular file is refused when read:
    /// `FileByteSource` opens without blocking and checks the type.)
    static func resolvedTarget(of path: String) throws(StoreError) -> String? {
        var st = StatBuffer()
        guard PathBytes.lstat(path, &st) == 0 else { return nil }
        var target = path
        if st.st_mode & S_IFMT == S_IFLNK {
            guard let resolved = PathBytes.withCString(path, { realpath($0, nil) }) else {
                throw .danglingLink(path: path, target: linkText(path))
            }
            target = PathBytes.string(cString: resolved)
            free(resolved)
        }
        return target
    }

    private static func linkText(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = PathBytes.withCString(path) { readlink($0, &buffer, buffer.count - 1) }
        guard n > 0 else { return "a missing file" }
        return PathBytes.string(from: buffer.prefix(n).map { UInt8(bitPattern: $0) })
    }

    /// A sidecar's bytes, read through the raw path (`PathBytes`: the photo's name may not be UTF-8).
    private static func contents(of path: String) throws(StoreError) -> [UInt8] {
        let source: FileByteSource
        do { source = try FileByteSource(path: path) } catch { throw .unreadable(path: path, error) }
        guard source.size < 16 << 20 else { throw .tooLarge(path: path, bytes: source.size) }
        do { return try source.readExactly(at: 0, count: Int(source.size)) } catch { throw .unreadable(path: path, error) }
    }

    /// Interprets an XMP packet's Rating and PickLabel.
    public static func state(of packet: XMPPacketText) -> TriageState {
        let rating = packet.value(namespace: xmpNamespace, name: "Rating")
            .flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.map { Int($0.rounded()) }
        let pick = packet.value(namespace: digiKamNamespace, name: "PickLabel")
            .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        if let r = rating, r < 0 { return TriageState(rating: 0, flag: .reject) }
        let flag: TriageFlag = pick == 1 ? .reject : pick == 3 ? .pick : .none
        return TriageState(rating: rating ?? 0, flag: flag)
    }

    /// Stores `state` in the item's sidecar: updates the existing one (atomically, keeping its permissions and
    /// every byte it does not change), or creates `STILL.EXT.xmp`. A sidecar that is a symbolic link is updated
    /// where it points (the new file is written beside the target and renamed over it), so the link stays.
    /// Unrating removes a sidecar that holds nothing but what livegrid itself wrote for the rating. Returns
    /// the sidecar's path.
    @discardableResult
    public static func write(_ state: TriageState, for item: LibraryItem) throws -> String {
        try write(state, forFile: item.primary.path)
    }

    /// `write(_:for:)` for the media file at `file` (the still of a Live Photo): an exported copy gets its
    /// sidecar this way.
    @discardableResult
    public static func write(_ state: TriageState, forFile file: String) throws -> String {
        let path = SidecarLocator.existingSidecars(for: file, includingLinks: true).first
            ?? SidecarLocator.preferredSidecar(for: file)
        let target = try resolvedTarget(of: path) ?? path
        var packet: XMPPacketText
        var permissions: mode_t = 0o644
        var st = StatBuffer()
        if PathBytes.stat(target, &st) == 0 {
            packet = XMPPacketText(bytes: try contents(of: target))
            permissions = st.st_mode & 0o7777
        } else {
            packet = .empty(toolkit: "livegrid")
        }
        do {
            try apply(state, to: &packet)
            if state == .unrated, target == path, isOnlyLivegridsUnrated(packet) {
                guard PathBytes.unlink(path) == 0 || errno == ENOENT else {
                    throw FileOperationError.system(operation: "unlink", path: path, errno: errno)
                }
                return path
            }
            try AtomicFileWriter.write(packet.bytes, to: target, permissions: permissions)
        } catch {
            throw StoreError.write(path: path, error)
        }
        return path
    }

    /// Whether `packet` (already set to unrated) is exactly a sidecar livegrid created for a rating or flag
    /// that is now gone: then it holds nothing anyone else wrote and is removed, not left as litter.
    static func isOnlyLivegridsUnrated(_ packet: XMPPacketText) -> Bool {
        var plain = XMPPacketText.empty(toolkit: "livegrid")
        var withPickLabel = plain
        // try?: the fresh packet has its rdf:Description, so neither can fail; a failure only means "no match".
        try? apply(.unrated, to: &plain)
        try? apply(TriageState(rating: 0, flag: .pick), to: &withPickLabel)
        try? apply(.unrated, to: &withPickLabel)   // try?: as above
        return packet.bytes == plain.bytes || packet.bytes == withPickLabel.bytes
    }

    /// Sets the properties for `state` on `packet`.
    public static func apply(_ state: TriageState, to packet: inout XMPPacketText) throws {
        let rating = state.flag == .reject ? -1 : state.rating
        try packet.set(namespace: xmpNamespace, preferredPrefix: "xmp", name: "Rating", value: String(rating))
        let label: Int = switch state.flag { case .none: 0; case .reject: 1; case .pick: 3 }
        if label != 0 || packet.value(namespace: digiKamNamespace, name: "PickLabel") != nil {
            try packet.set(namespace: digiKamNamespace, preferredPrefix: "digiKam", name: "PickLabel",
                           value: String(label))
        }
    }
}
