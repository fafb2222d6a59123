import ArgumentParser
import BrowserCore
import GraphicsSettings
import TerminalGraphics
import TerminalProtocol

// The settings vocabulary (TerminalGraphics/GraphicsSettings.swift) on the command line: the same words as the
// config file and LIVEGRID_GRAPHICS, parsed by the same initialisers.

extension GraphicsModeSetting: ExpressibleByArgument {
    public init?(argument: String) { self.init(userName: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension GraphicsMode: ExpressibleByArgument {
    public init?(argument: String) { self.init(userName: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension ColorDepthSetting: ExpressibleByArgument {
    public init?(argument: String) { self.init(userName: argument) }
    public static var allValueStrings: [String] { ["auto"] + ColorDepth.allCases.map(\.rawValue) }
    public var defaultValueDescription: String {
        switch self {
        case .auto: return "auto"
        case .depth(let depth): return depth.rawValue
        }
    }
}

extension LibrarySortOrder: ExpressibleByArgument {
    public init?(argument: String) { self.init(userName: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension LibraryGrouping: ExpressibleByArgument {
    public init?(argument: String) { self.init(userName: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) + ["timeline"] }
}
