extension ColorDepth {
    /// How many colours: for comparing depths.
    public var colorCount: Int {
        switch self {
        case .truecolor: return 1 << 24
        case .indexed256: return 256
        case .indexed16: return 16
        case .indexed8: return 8
        }
    }

    /// "256 colours", "truecolour" (status bar, `--why`).
    public var displayName: String {
        switch self {
        case .truecolor: return "truecolour"
        case .indexed256: return "256 colours"
        case .indexed16: return "16 colours"
        case .indexed8: return "8 colours"
        }
    }

    /// The words `--colors` and the config's `colors` accept, for help and error messages.
    public static let userNames = "auto, full, 256, 16 or 8"
}
