/// The viewer's key-photo mode as a value (issue 20 item 1; not wired into the reducer yet: the event
/// loop is being restructured): the movie's frame times, the frame shown, stepping left/right, the line
/// the status bar shows, and the `livegrid edit` request the choice amounts to.
public struct KeyPhotoPicker: Sendable, Equatable {
    /// Presentation times of every frame, ascending (from `StudioRenderer.frameTimes`).
    public let frameTimes: [Double]
    /// The frame currently shown.
    public private(set) var index: Int
    /// The frame at the movie's current still-image time, when it has one.
    public let currentKeyIndex: Int?

    /// nil for a movie without frames. Starts on the current key photo (or the first frame).
    public init?(frameTimes: [Double], stillImageTime: Double?) {
        guard !frameTimes.isEmpty else { return nil }
        self.frameTimes = frameTimes
        // The frame shown at the still-image time: the last one starting at or before it.
        currentKeyIndex = stillImageTime.flatMap { time in frameTimes.lastIndex { $0 <= time + 0.0005 } ?? 0 }
        index = currentKeyIndex ?? 0
    }

    public var time: Double { frameTimes[index] }

    /// Moves by `frames` (negative = left), stopping at the first and last frame.
    public mutating func step(_ frames: Int) {
        index = min(max(0, index + frames), frameTimes.count - 1)
    }

    /// True when the chosen frame is already the key photo (choosing it would write nothing new).
    public var isUnchanged: Bool { index == currentKeyIndex }

    /// "frame 12/30  0.400 s  (key photo 0.500 s)" for the status bar.
    public var statusLine: String {
        var line = "frame \(index + 1)/\(frameTimes.count)  \(Self.seconds(time)) s"
        if let key = currentKeyIndex { line += isUnchanged ? "  (the key photo)" : "  (key photo \(Self.seconds(frameTimes[key])) s)" }
        return line
    }

    /// The edit this choice stands for: `livegrid edit ITEM --key-photo-at TIME -o DIR`.
    public func editArguments(item: String, outputDirectory: String) -> [String] {
        ["edit", item, "--key-photo-at", Self.seconds(time), "-o", outputDirectory]
    }

    /// Three decimals: enough to name one frame (the renderer allows half a millisecond of rounding).
    static func seconds(_ value: Double) -> String {
        let thousandths = Int((value * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
