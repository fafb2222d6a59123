import Library
import LivePairing
import LiveStudio

extension StudioExport {
    /// One line per item; throws when any item failed (after trying them all).
    func run(_ items: [LibraryItem]) -> (lines: [String], failed: Bool) {
        var lines: [String] = []
        var failed = false
        for item in items {
            do {
                lines.append(contentsOf: try export(item))
            } catch {
                HumanOutput.error("\(item.displayName): \(error)")
                failed = true
            }
        }
        return (lines, failed)
    }

}
