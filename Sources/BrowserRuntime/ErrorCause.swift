import BrowserCore
import Foundation
import Imaging
import Library
import LibraryCore
import LibrarySources
import LiveStudio
import MediaFormats
import TerminalGraphics

/// The failing layer's own sentence for an error a worker caught, to go as the `cause` of a typed failure
/// (`StudioFailure`, `TriageFailure`, `PlaybackFailure`) into the state, where the status bar says it after
/// its own words (issue 27.6). Each typed error the workers meet says its sentence; anything else (a
/// Foundation error: a temporary folder that cannot be made) is printed as Swift does.
enum ErrorCause {
    static func of(_ error: any Error) -> String {
        switch error {
        case let error as LibavError: return error.description
        case let error as RenderError: return error.description
        case let error as ImagingError: return error.description
        case let error as MediaError: return error.description
        case let error as StudioWriting.Failure: return error.description
        case let error as PlaybackFailure: return error.description
        case let error as AdjustmentApplier.ApplyError: return error.description
        case let error as ExportError: return error.description
        case let error as FileOperationError: return error.description
        case let error as TriageStore.StoreError: return error.description
        default: return fileSystemSentence(error) ?? String(describing: error)
        }
    }

    /// Foundation's file errors (FileManager's createDirectory, linkItem, copyItem…) in the system's words,
    /// "<path>: Not a directory": printed as Swift prints them they read "Error Domain=NSCocoaErrorDomain Code=512 …".
    /// Nil for any other error.
    static func fileSystemSentence(_ error: any Error) -> String? {
        let error = error as NSError
        let code: Int32
        switch error.userInfo[NSUnderlyingErrorKey] {
        case let posix as POSIXError: code = posix.code.rawValue
        case let underlying as NSError where underlying.domain == NSPOSIXErrorDomain: code = Int32(underlying.code)
        default: return nil
        }
        let reason = String(cString: strerror(code))
        guard let path = error.userInfo[NSFilePathErrorKey] as? String else { return reason }
        return "\(path): \(reason)"
    }
}
