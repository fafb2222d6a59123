import Foundation
import Library
import LivePairing

/// The one-line prompt over the status bar: a y/N question, a directory to type, or the filter menu.
public struct TriagePrompt: Sendable {
    public enum Purpose: Sendable {
        case confirmTrash([LibraryItem])
        case transferDestination([LibraryItem], move: Bool)
        case confirmRotate([LibraryItem], Adjustment)
        case confirmStillCopy(LibraryItem, Adjustment)
        case exportDestination
        case filterMenu
    }

    public var purpose: Purpose
    /// The question or label shown before the text.
    public var label: String
    /// What the user typed (directory prompts).
    public var text: String

    public init(_ purpose: Purpose, label: String, text: String = "") {
        self.purpose = purpose
        self.label = label
        self.text = text
    }

    /// True for prompts that take typed text; the others take one key.
    public var takesText: Bool {
        switch purpose {
        case .transferDestination, .exportDestination: return true
        default: return false
        }
    }

    public var isYesNo: Bool {
        switch purpose {
        case .confirmTrash, .confirmRotate, .confirmStillCopy: return true
        default: return false
        }
    }

    /// The full line: label, typed text and a cursor for text prompts.
    public var line: String { takesText ? label + text + "▏" : label }

    public static let filterMenuLabel =
        "Filter: 1-5 rating ≥ N · p picks · x rejects · l live only · s stills only · v videos only · a all · Esc"

    /// `~` and `~/x` from $HOME, as a shell would expand them; anything else as typed.
    public static func expandingTilde(_ path: String,
                                      home: String? = ProcessInfo.processInfo.environment["HOME"]) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home, !home.isEmpty else { return path }
        return home + path.dropFirst()
    }
}
