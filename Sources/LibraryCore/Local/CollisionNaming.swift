/// Free names for a group of files that must keep matching names (a Live Photo's still, movie and sidecar):
/// every file of the group gets the same number, so `IMG_1.JPG` + `IMG_1.MOV` become `IMG_1 (2).JPG` +
/// `IMG_1 (2).MOV`, never `IMG_1 (2).JPG` + `IMG_1 (3).MOV`.
public enum CollisionNaming: Sendable {
    /// `IMG_1 (2).JPG`: what file managers do for copies.
    case parenthesized
    /// `IMG_1.2.JPG`: what the freedesktop trash implementations (GIO, KIO) do inside `Trash/files`.
    case dotted

    /// The `number`-th candidate for `name`; number 1 is the name itself.
    public func name(_ name: String, number: Int) -> String {
        guard number > 1 else { return name }
        let (stem, suffix) = CollisionNaming.split(name)
        switch self {
        case .parenthesized: return "\(stem) (\(number))\(suffix)"
        case .dotted: return "\(stem).\(number)\(suffix)"
        }
    }

    /// Splits a name into the part that gets numbered and the extension part it keeps. A sidecar keeps both
    /// extensions (`IMG_1.JPG.xmp` -> `IMG_1` + `.JPG.xmp`) so it still names its photo after renaming.
    static func split(_ name: String) -> (stem: Substring, suffix: Substring) {
        var cut = name.lastIndex(of: ".")
        if let dot = cut, name[name.index(after: dot)...].lowercased() == "xmp",
           let inner = name[..<dot].lastIndex(of: ".") {
            cut = inner
        }
        guard let dot = cut, dot != name.startIndex else { return (name[...], "") }
        return (name[..<dot], name[dot...])
    }

    /// The first number from `start` whose names are all free according to `isFree`; nil after `limit` tries.
    public func firstFreeNumber(for names: [String], startingAt start: Int = 1, limit: Int = 10_000,
                                isFree: (_ index: Int, _ candidate: String) -> Bool) -> Int? {
        let first = max(1, start)
        for number in first..<(first + max(1, limit)) {
            if names.enumerated().allSatisfy({ isFree($0.offset, name($0.element, number: number)) }) {
                return number
            }
        }
        return nil
    }
}
