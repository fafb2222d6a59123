import BrowserCore
import Foundation
import Library
import LibrarySources
import MediaFormats

extension TriageFailure {
    /// The failing layer's own words for what the triage steps throw: each typed error says its sentence;
    /// anything else (a Foundation error: a staging folder that cannot be made) as Swift prints it.
    static func cause(_ error: any Error) -> String {
        switch error {
        case let error as AdjustmentApplier.ApplyError: return error.description
        case let error as ExportError: return error.description
        case let error as FileOperationError: return error.description
        case let error as MediaError: return error.description
        case let error as TriageStore.StoreError: return error.description
        default: return String(describing: error)
        }
    }
}
