import BrowserCore
import Foundation
import Imaging
import LiveStudio
import MediaFormats
import TerminalGraphics

extension StudioFailure {
    /// The failing library's own words for what the studio's steps throw: each typed error says its sentence;
    /// anything else (a Foundation error: a temporary folder that cannot be made) as Swift prints it.
    static func cause(_ error: any Error) -> String {
        switch error {
        case let error as LibavError: return error.description
        case let error as StudioWriting.Failure: return error.description
        case let error as RenderError: return error.description
        case let error as MediaError: return error.description
        case let error as PlaybackFailure: return error.description
        case let error as ImagingError: return error.description
        default: return String(describing: error)
        }
    }
}
