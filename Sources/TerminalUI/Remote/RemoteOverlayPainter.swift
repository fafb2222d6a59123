import BrowserCore
import BrowserRuntime
import CNCurses
import Foundation
import Library
import LibrarySources
import LivePairing
import TerminalGraphics

/// What a remote directory adds to the screen: folder cells, each item's download line, the LIVE badge drawn
/// outlined and dim until the item is playable (same corner, same width as the normal badge), the failure
/// reason and activity summary in the status bar, and the transfer panel (`a`).
enum RemoteOverlayPainter {
    /// Draws over a grid cell after the renderer drew its picture (or placeholder) and caption. `textBadge`:
    /// the badge the renderer left out of a symbol picture, drawn here as text in its corner (outlined while
    /// the item is not playable), so the badge and the download line change in the same curses update.
    static func drawCell(_ item: LibraryItem, remote: RemoteBrowseState, pictureRect rect: CellRect,
                         provider: ThumbnailProvider, badge: BadgePainter, textBadge: LiveBadge? = nil,
                         painter: ScreenPainter) {
        guard rect.width > 0, rect.height > 0 else { return }
        if remote.isDirectory(item.id) {
            drawFolder(isParent: item.id == RemoteBrowseState.parentID, in: rect, painter: painter)
            return
        }
        guard let remoteItem = remote.itemsByID[item.id] else { return }
        // Where the badge sits: the picture's own corner when there is one, else the cell's.
        var area = rect
        if let picture = provider.picture(for: ThumbnailKey(itemID: item.id, width: rect.width, height: rect.height)),
           picture.rows > 0 {
            // Pixel pictures are placed after curses and would cover (and be re-placed for) any text drawn here:
            // their state stays in the status bar and the transfer panel.
            guard picture.mode == .symbols else { return }
            area = ScreenPainter.placement(of: picture, in: rect)
        }
        if !remoteItem.isPlayable, let live = badge.badge(for: item.kind) {
            drawPendingBadge(live, in: area, painter: painter)
        } else if let textBadge {
            drawBadgeText(textBadge.text(fitting: area.width), of: textBadge, in: area, attributes: lg_a_bold(),
                          color: textBadge.variant == .video ? .badgeVideo : .badgeLive, painter: painter)
        }
        let state = TransferText.cellState(of: remoteItem)
        let line = TransferText.cellLine(state, width: area.width - 2)
        guard !line.isEmpty else { return }
        // The line goes on the edge the badge does not use.
        let badgeOnTop = badge.corner == .topLeft || badge.corner == .topRight
        let y = badgeOnTop || area.height == 1 ? area.y + area.height - 1 : area.y
        let color: UIColor
        switch state {
        case .failed: color = .warning
        case .downloaded: color = .badgeLive
        default: color = .placeholder
        }
        let text = " " + line + " "
        painter.text(text, x: area.x, y: y, width: min(area.width, DisplayWidth.of(text)), attributes: lg_a_bold(),
                     color: color)
    }

    /// The kind badge, outlined (◌ for the LIVE rings, □ for the video square) and dim: "not playable yet".
    private static func drawPendingBadge(_ live: LiveBadge, in area: CellRect, painter: ScreenPainter) {
        let scalars = live.text(fitting: area.width).map { $0 == live.icon ? pendingIcon(live.variant) : $0 }
        drawBadgeText(scalars, of: live, in: area, attributes: lg_a_dim(), color: .placeholder, painter: painter)
    }

    /// A badge's text (`scalars`) in the badge's corner of `area` (the normal one as on a placeholder: solid, bold).
    private static func drawBadgeText(_ scalars: [Unicode.Scalar], of badge: LiveBadge, in area: CellRect,
                                      attributes: attr_t, color: UIColor, painter: ScreenPainter) {
        let text = String(String.UnicodeScalarView(scalars))
        let width = DisplayWidth.of(text)
        guard width > 0 else { return }
        let isLeft = badge.corner == .topLeft || badge.corner == .bottomLeft
        let isTop = badge.corner == .topLeft || badge.corner == .topRight
        painter.text(text, x: isLeft ? area.x : area.x + area.width - width,
                     y: isTop ? area.y : area.y + area.height - 1, width: width, attributes: attributes, color: color)
    }

    static func pendingIcon(_ variant: LiveBadge.Variant) -> Unicode.Scalar {
        variant == .video ? "\u{25A1}" : "\u{25CC}"  // □ WHITE SQUARE, ◌ DOTTED CIRCLE
    }

    private static func drawFolder(isParent: Bool, in rect: CellRect, painter: ScreenPainter) {
        if rect.height >= 3 {
            painter.box(rect, color: .placeholder)
        } else {
            painter.fill(rect)
        }
        let label = isParent ? "↰ parent folder" : "▤ folder · Enter"
        let width = min(rect.width, DisplayWidth.of(label))
        painter.text(label, x: rect.x + max(0, (rect.width - width) / 2), y: rect.y + rect.height / 2, width: width,
                     attributes: lg_a_bold(), color: .placeholder)
    }

    /// The status bar with the remote additions: the selected item's failure (and `R`), the download
    /// progress of a held play, and the activity summary before the mode on the right.
    static func status(_ state: BrowserState, remote: RemoteBrowseState, left: String, right: String,
                       pictureMode: String, now: Date = Date()) -> (left: String, right: String) {
        var left = left, right = right
        if state.message == nil, let item = state.selectedItem, remote.isDirectory(item.id) {
            left = " \(state.selection + 1)/\(state.items.count) \(item.id) · folder · Enter opens"
                + (remote.depth > 0 ? " · Backspace goes up" : "")
        } else if state.message == nil, let item = state.selectedItem, let remoteItem = remote.itemsByID[item.id] {
            if let failure = remoteItem.failure {
                left = " ✗ \(item.displayName): \(failure.description) · R retries"
            } else if remote.pendingPlayID == item.id {
                let progress = remoteItem.fraction.map { " " + TransferText.percent($0) } ?? ""
                left += " · ◎ downloading to play\(progress)"
            } else if item.kind.isLive || item.kind == .video {
                left += remoteItem.isPlayable ? " · playable" : " · not playable yet"
            }
        }
        if let summary = TransferText.summary(remote.activity, now: now) {
            // The picture mode makes room for the summary while transfers run (the left side must stay readable).
            right = summary + " │ " + right.replacingOccurrences(of: " · " + pictureMode, with: "")
        }
        return (left, right)
    }

    /// The header's counts with folders apart: "2 items · 1 folder · 1 live".
    static func headerCounts(_ state: BrowserState, remote: RemoteBrowseState) -> String {
        let folders = state.items.reduce(0) { $0 + (remote.isDirectory($1.id) ? 1 : 0) }
        let items = state.items.count - folders
        var text = "\(items) item\(items == 1 ? "" : "s")"
        if folders > 0 { text += " · \(folders) folder\(folders == 1 ? "" : "s")" }
        text += " · \(state.liveCount) live"
        let allFolders = state.allItems.reduce(0) { $0 + (remote.isDirectory($1.id) ? 1 : 0) }
        if state.items.count != state.allItems.count { text += " of \(state.allItems.count - allFolders)" }
        return text
    }

    /// Shown in the empty grid when the directory could not be listed.
    static func emptyGridMessage(_ remote: RemoteBrowseState, rootPath: String) -> String? {
        remote.listingError.map { "Cannot list \(rootPath): \($0.description)" }
    }

    /// The transfer panel: one row per requested file (name, bar, %, rate or state), running ones first.
    static func drawActivityPanel(_ state: BrowserState, remote: RemoteBrowseState, painter: ScreenPainter) {
        let content = state.layout.content
        let transfers = TransferText.transfers(Array(remote.itemsByID.values))
        let height = min(max(4, content.height / 2), max(3, transfers.count + 2))
        guard content.width >= 24, content.height >= 4 else { return }
        let rect = CellRect(x: content.x, y: content.y + content.height - height, width: content.width, height: height)
        painter.box(rect, color: .panel)
        let title = " Transfers · " + (TransferText.summary(remote.activity, now: Date()) ?? "idle") + " · a closes "
        painter.text(title, x: rect.x + 2, y: rect.y, width: min(rect.width - 4, DisplayWidth.of(title)),
                     attributes: lg_a_bold(), color: .panel)
        let inner = rect.width - 4
        let nameWidth = min(32, inner / 3)
        let barWidth = max(4, min(24, inner - nameWidth - 20))
        if transfers.isEmpty {
            painter.text("nothing requested yet", x: rect.x + 2, y: rect.y + 1, width: inner, color: .panel)
        }
        for (row, transfer) in transfers.prefix(height - 2).enumerated() {
            let color: UIColor
            if case .failed = transfer.state { color = .warning } else { color = .panel }
            let line = DisplayWidth.pad(DisplayWidth.fit(transfer.name, width: nameWidth - 1), width: nameWidth)
                + TransferText.transferDetail(transfer.state, barWidth: barWidth)
            painter.text(line, x: rect.x + 2, y: rect.y + 1 + row, width: inner, color: color)
        }
        if transfers.count > height - 2 {
            painter.text(" +\(transfers.count - (height - 2)) more ", x: rect.x + rect.width - 12,
                         y: rect.y + height - 1, width: 10, color: .panel)
        }
    }
}
