/// How soon a piece of work is wanted: the one scale shared by picture requests, the picture scheduler and
/// downloads (issue 27 item 5; before it, three enums ran in opposite orders).
///
/// Ordered from least to most urgent: `a < b` means `b` is wanted sooner, and `max()` is the most urgent.
/// A consumer that tells fewer levels apart merges neighbours (the picture scheduler runs `selected` with
/// `visible`; a picture's download never ranks above `visible`) and says so where it does.
public enum Urgency: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// Off screen: the next page's pictures, downloads made ahead of the user.
    case prefetch = 0
    /// On screen.
    case visible = 1
    /// The picture the user looks at: the selected cell, the viewer's picture.
    case selected = 2
    /// The user asked for this file (to play it, or to export it): downloads go to the front of the queue and may
    /// exceed the size cap of automatic downloads.
    case play = 3
    /// The first screen while the library scan runs: the picture scheduler's `cancelAll` keeps these jobs (the
    /// loop cancels what left the screen on every frame, and during the scan nothing is on screen yet).
    case firstScreen = 4

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch self {
        case .prefetch: return "prefetch"
        case .visible: return "visible"
        case .selected: return "selected"
        case .play: return "play"
        case .firstScreen: return "first screen"
        }
    }
}
