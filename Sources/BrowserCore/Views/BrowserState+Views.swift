import LivePairing

/// What the library-view keys do.
public enum ViewAction: Sendable, Hashable {
    /// `s`: name → date → size → name.
    case cycleSort
    /// `t`: flat → by folder → timeline → flat.
    case cycleGrouping
    case setSort(LibrarySortOrder)
    case setGrouping(LibraryGrouping)
    /// `D`: opens the jump-to-date prompt.
    case beginDateJump
    case dateJumpInput(Character)
    case dateJumpBackspace
    case commitDateJump
    case cancelDateJump
    /// The `-r` key: every photo below the folder, or its own photos and subfolders (issue 31.2).
    case toggleRecursive
    /// Backspace in a local folder: its parent (above the top folder too, which then becomes the top).
    case parentFolder
}

extension BrowserState {
    mutating func reduceView(_ action: ViewAction) {
        switch action {
        case .cycleSort:
            setView(order: sortOrder.next, grouping: grouping)
            message = "sorted by \(sortOrder.rawValue)"
        case .cycleGrouping:
            setView(order: sortOrder, grouping: grouping.next)
            message = grouping == .none ? "no grouping" : grouping == .folder ? "grouped by folder" : "timeline by month"
        case .setSort(let order):
            setView(order: order, grouping: grouping)
        case .setGrouping(let newGrouping):
            setView(order: sortOrder, grouping: newGrouping)
        case .beginDateJump:
            guard mode == .grid || mode == .viewer else { break }
            dateJumpText = ""
        case .dateJumpInput(let character):
            dateJumpText?.append(character)
        case .dateJumpBackspace:
            if dateJumpText?.isEmpty == false { dateJumpText?.removeLast() }
        case .cancelDateJump:
            dateJumpText = nil
        case .toggleRecursive, .parentFolder:
            break   // reduced with their effects in `reduceAction` (they start a scan)
        case .commitDateJump:
            let text = dateJumpText ?? ""
            dateJumpText = nil
            jump(toDate: text)
        }
    }

    /// Applies a new order or grouping; the selected item stays selected wherever it lands.
    mutating func setView(order: LibrarySortOrder, grouping newGrouping: LibraryGrouping) {
        sortOrder = order
        grouping = newGrouping
        refilter()
    }

    /// Selects the item with the earliest capture date on or after `text` ("2023", "2023-07", "2023-07-14";
    /// `/` or `:` separators too), whatever the order; ties go to the first shown.
    mutating func jump(toDate text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let fields = trimmed.split(whereSeparator: { !$0.isNumber }).count
        let target = fields == 1 && trimmed.count == 4 && trimmed.allSatisfy(\.isNumber)
            ? CaptureDateKey.parse(trimmed + "-01", minimumFields: 2)
            : CaptureDateKey.parse(trimmed, minimumFields: 2)
        guard let target else {
            message = "type a date as 2023, 2023-07 or 2023-07-14"
            return
        }
        var best: (index: Int, key: UInt64)?
        for (index, item) in items.enumerated() {
            guard let key = CaptureDateKey(item: item).value, key >= target else { continue }
            if key < (best?.key ?? UInt64.max) { best = (index, key) }
        }
        guard let best else {
            message = "no photo taken on or after \(trimmed)"
            return
        }
        // No message: the status bar then shows the item it landed on (and its date is in the header above it).
        if mode == .grid || mode == .viewer { selectIndex(best.index) }
    }
}
