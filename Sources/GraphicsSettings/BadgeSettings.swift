/// Which corner every badge sits in (one corner for all items, so the eye learns where to look).
/// The raw values are the words of config.toml's `[badge] corner`.
public enum BadgeCorner: String, Sendable, CaseIterable, Hashable {
    case topLeft = "top-left"
    case topRight = "top-right"
    case bottomLeft = "bottom-left"
    case bottomRight = "bottom-right"
    public var isTop: Bool { self == .topLeft || self == .topRight }
    public var isLeft: Bool { self == .topLeft || self == .bottomLeft }
}

/// How a badge is drawn (`LiveBadge.Style`). The raw values are the words of config.toml's `[badge] style`.
public enum BadgeStyle: String, Sendable, CaseIterable, Hashable {
    /// Over the picture, with a darkened backing so it reads on any photo.
    case overlay
    /// An opaque label.
    case solid
}
