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
        public var description: String {
            switch self {
            case .unreadable(let p, .io(_, let code)): return "\(p): cannot read sidecar: \(String(cString: strerror(code)))"
            case .unreadable(let p, let error): return "\(p): cannot read sidecar: \(error)"
            case .tooLarge(let p, let bytes): return "\(p): cannot read sidecar: \(bytes) bytes is too large for one"
            case .write(let p, let error): return "\(p): cannot write sidecar: \(error)"
            }
        }
    }

    /// The item's rating and flag; unrated when it has no sidecar.
    public static func read(for item: LibraryItem) throws -> TriageState {
        guard let sidecar = SidecarLocator.ratingSidecar(for: item) else { return .unrated }
        return try read(sidecar: sidecar)
    }

    public static func read(sidecar path: String) throws -> TriageState {
        let data = try contents(of: path)
        return state(of: XMPPacketText(String(decoding: data, as: UTF8.self)))
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

    /// Stores `state` in the item's sidecar: updates the existing one in place (atomically, keeping its
    /// permissions and everything else in it), or creates `STILL.EXT.xmp`. Returns the sidecar's path.
    @discardableResult
    public static func write(_ state: TriageState, for item: LibraryItem) throws -> String {
        let path = SidecarLocator.ratingSidecar(for: item) ?? SidecarLocator.preferredSidecar(for: item.primary.path)
        var packet: XMPPacketText
        var permissions: mode_t = 0o644
        var st = StatBuffer()
        if PathBytes.stat(path, &st) == 0 {
            let data = try contents(of: path)
            packet = XMPPacketText(String(decoding: data, as: UTF8.self))
            permissions = st.st_mode & 0o7777
        } else {
            packet = .empty(toolkit: "livegrid")
        }
        do {
            try apply(state, to: &packet)
            try AtomicFileWriter.write(Array(packet.text.utf8), to: path, permissions: permissions)
        } catch {
            throw StoreError.write(path: path, error)
        }
        return path
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
