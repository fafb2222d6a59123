import LivePairing

/// Which items to show: by rating, flag and kind. All criteria must hold; nil means "any".
public struct TriageFilter: Sendable, Hashable, Codable {
    public enum KindFilter: String, Sendable, Codable, CaseIterable {
        case all
        /// Live and Motion Photos (anything wearing the LIVE badge).
        case liveOnly
        /// Stills without movie (including Live Photos shown as stills because their movie is missing).
        case stillsOnly
        case videosOnly
    }

    /// Minimum stars (1...5); rejected items never pass a minimum rating.
    public var minimumRating: Int?
    public var flag: TriageFlag?
    public var kind: KindFilter

    public init(minimumRating: Int? = nil, flag: TriageFlag? = nil, kind: KindFilter = .all) {
        self.minimumRating = minimumRating
        self.flag = flag
        self.kind = kind
    }

    public static let everything = TriageFilter()

    public func matches(_ item: LibraryItem, state: TriageState) -> Bool {
        if let minimum = minimumRating, state.flag == .reject || state.rating < minimum { return false }
        if let flag, state.flag != flag { return false }
        switch kind {
        case .all: return true
        case .liveOnly: return item.kind.isLive && item.liveOffReason == nil
        case .stillsOnly: return item.kind == .still || (item.kind.isLive && item.liveOffReason != nil)
        case .videosOnly: return item.kind == .video
        }
    }

    /// The items that pass, in their order; `states` maps item ids to triage (missing = unrated).
    public func apply(to items: [LibraryItem], states: [ItemID: TriageState]) -> [LibraryItem] {
        items.filter { matches($0, state: states[$0.id] ?? .unrated) }
    }
}
