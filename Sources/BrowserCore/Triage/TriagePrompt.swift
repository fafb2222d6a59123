import Foundation
import LibraryCore
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
        /// `q` while a copy, move or export runs.
        case confirmQuitDuringTransfer
    }

    public var purpose: Purpose
    /// The question or label shown before the text.
    public var label: String
    /// What the user typed (directory prompts).
    public var text: String
    /// True while the prefilled text is selected, as in a GUI field: the first typed character replaces
    /// it, Backspace clears it, Right/End keep it and edit at its end.
    public var isTextSelected: Bool
    /// Tab completion: the candidates of the last Tab and which one the text shows (repeated Tab cycles).
    public var completions: [String] = []
    public var completionIndex: Int?
    /// A short note after the text (the completion candidates, "no match").
    public var note: String?

    public init(_ purpose: Purpose, label: String, text: String = "") {
        self.purpose = purpose
        self.label = label
        self.text = text
        isTextSelected = !text.isEmpty
    }

    /// Typing: replaces a selected prefill, else appends.
    public mutating func type(_ character: Character) {
        if isTextSelected { text = "" }
        text.append(character)
        edited()
    }

    public mutating func backspace() {
        if isTextSelected { text = "" } else if !text.isEmpty { text.removeLast() }
        edited()
    }

    public mutating func clear() {
        text = ""
        edited()
    }

    public mutating func keepText() {
        isTextSelected = false
    }

    private mutating func edited() {
        isTextSelected = false
        completions = []
        completionIndex = nil
        note = nil
    }

    /// The next candidate when a Tab already listed several and the text still shows one of them (or their
    /// common prefix); nil when a new listing is due.
    public mutating func cycleCompletion() -> Bool {
        guard completions.count > 1 else { return false }
        let current = completionIndex.map { completions[$0] }
        guard current == text || (completionIndex == nil && text == PathCompletion.commonPrefix(completions)) else {
            return false
        }
        let next = completionIndex.map { ($0 + 1) % completions.count } ?? 0
        completionIndex = next
        text = completions[next]
        return true
    }

    /// Applies the candidates a Tab found for `typed`: one → taken; several → their common prefix, listed
    /// in the note (the next Tab cycles); none → "no match".
    public mutating func applyCompletions(_ candidates: [String], for typed: String) {
        guard text == typed else { return }   // typed on meanwhile: stale
        isTextSelected = false
        completions = candidates
        completionIndex = nil
        switch candidates.count {
        case 0:
            note = "no matching directory"
        case 1:
            text = candidates[0]
            completions = []
            note = nil
        default:
            let prefix = PathCompletion.commonPrefix(candidates)
            if prefix.count > text.count { text = prefix }
            let names = candidates.prefix(8).map { PathCompletionText.lastComponent($0) }
            note = names.joined(separator: " ") + (candidates.count > 8 ? " … (\(candidates.count))" : "") + " · Tab cycles"
        }
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
        case .confirmTrash, .confirmRotate, .confirmStillCopy, .confirmQuitDuringTransfer: return true
        default: return false
        }
    }

    /// The full line: label, typed text and a cursor for text prompts (a hint while the prefill is selected).
    public var line: String {
        guard takesText else { return label }
        var line = label + text + "▏"
        if let note { line += "  " + note } else if isTextSelected { line += "  (type to replace · → keeps · Tab completes)" }
        return line
    }

    /// The typed path as meant: `~` expanded, and, as in Emacs, a `//` or `/~/` inside the text starts the
    /// path again there (an absolute path typed after an accepted prefill is taken as is).
    public static func typedPath(_ text: String, home: String?) -> String {
        var path = text.trimmingCharacters(in: .whitespaces)
        if let restart = path.range(of: "/~/", options: .backwards) {
            path = "~/" + path[restart.upperBound...]
        } else if path.hasSuffix("/~") {
            path = "~"
        }
        if let restart = path.range(of: "//", options: .backwards), restart.lowerBound != path.startIndex {
            path = "/" + path[restart.upperBound...]
        }
        return expandingTilde(path, home: home)
    }

    public static let filterMenuLabel =
        "Filter: 1-5 rating ≥ N · p picks · x rejects · l live only · s stills only · v videos only · a all · Esc"

    /// `~` and `~/x` from $HOME, as a shell would expand them; anything else as typed.
    public static func expandingTilde(_ path: String,
                                      home: String?) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home, !home.isEmpty else { return path }
        return home + path.dropFirst()
    }
}

/// How the prompt names a completion candidate.
enum PathCompletionText {
    /// `a/b/c/` → `c/`.
    static func lastComponent(_ path: String) -> String {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        let name = trimmed.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? trimmed
        return name + "/"
    }
}
