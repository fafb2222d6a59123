/// Something wrong with a file that did not stop the parse: a broken optional box never hides the photo.
public struct ParseProblem: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable, Comparable {
        case info, warning, error
        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
        /// A switch, not an array lookup: this runs for every problem of every file of a scan.
        private var rank: Int {
            switch self {
            case .info: return 0
            case .warning: return 1
            case .error: return 2
            }
        }
    }
    public var severity: Severity
    /// Where: "jpeg/APP1", "heif/iloc", "exif/IFD0", "quicktime/moov/trak[1]"...
    public var context: String
    public var message: String

    public init(_ severity: Severity, _ context: String, _ message: String) {
        self.severity = severity
        self.context = context
        self.message = message
    }
    public var description: String { "\(severity.rawValue): \(context): \(message)" }
}
