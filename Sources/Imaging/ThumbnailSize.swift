/// The freedesktop thumbnail sizes and their directory names.
public enum ThumbnailSize: String, Sendable, CaseIterable, Hashable {
    case normal
    case large
    case xLarge = "x-large"
    case xxLarge = "xx-large"

    /// The square box a thumbnail of this size fits in.
    public var pixels: Int {
        switch self {
        case .normal: return 128
        case .large: return 256
        case .xLarge: return 512
        case .xxLarge: return 1024
        }
    }

    public var directoryName: String { rawValue }

    /// The smallest size whose box covers `pixels` (the largest when none does).
    public static func covering(_ pixels: Int) -> ThumbnailSize {
        allCases.first { $0.pixels >= pixels } ?? .xxLarge
    }
}
