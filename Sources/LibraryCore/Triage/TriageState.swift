/// A pick or reject decision, the way digiKam's pick labels and darktable's reject mean it.
public enum TriageFlag: String, Sendable, Codable, CaseIterable {
    case none, pick, reject
}

/// What the user decided about one item: 0–5 stars and a flag. Stored in the still's XMP sidecar
/// (see `SidecarTriageStore` for the exact properties).
public struct TriageState: Sendable, Hashable, Codable {
    /// 0 (unrated) to 5 stars.
    public var rating: Int {
        didSet { rating = TriageState.clamp(rating) }
    }
    public var flag: TriageFlag

    public init(rating: Int = 0, flag: TriageFlag = .none) {
        self.rating = TriageState.clamp(rating)
        self.flag = flag
    }

    public static let unrated = TriageState()

    static func clamp(_ r: Int) -> Int { min(5, max(0, r)) }
}
