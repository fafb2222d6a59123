import BrowserCore
import BrowserRuntime
import CNCurses
import GraphicsSettings
import Library
import LibraryCore
import LivePairing
import TerminalGraphics

/// Draws triage onto the browser: the mark on marked cells (in the top corner the LIVE badge does not
/// use), stars and flags in captions, the prompt line, and the full-screen export dialog.
struct TriagePainter {
    /// The corner of the mark, derived from the badge's so the two never collide: the other side of the
    /// top edge when the badge is on top, else top-right.
    let markCorner: BadgeCorner
    let badge: BadgePainter

    init(badge: BadgePainter) {
        self.badge = badge
        markCorner = Self.markCorner(forBadge: badge.corner)
    }

    static func markCorner(forBadge corner: BadgeCorner) -> BadgeCorner {
        corner == .topRight ? .topLeft : .topRight
    }

    static let markLabel = " ✓ "

    /// The mark over a cell's picture (`rect` = where the picture is drawn).
    func drawMark(in rect: CellRect, painter: ScreenPainter) {
        let width = DisplayWidth.of(Self.markLabel)
        guard rect.width >= width, rect.height >= 1 else { return }
        let x = markCorner == .topLeft ? rect.x : rect.x + rect.width - width
        painter.text(Self.markLabel, x: x, y: rect.y, width: width, attributes: lg_a_bold(),
                     color: .selection)
    }

    /// The caption: name on the left, stars and flag on the right; rejected items dimmed.
    func drawCaption(_ item: LibraryItem, selected: Bool, marked: Bool, session: TriageSession, x: Int, y: Int,
                     width: Int, painter: ScreenPainter) {
        let marks = session.captionMarks(for: item.id)
        let rejected = session.state(of: item.id).flag == .reject
        let prefix = selected ? "▸" : marked ? "✓" : " "
        var attributes: attr_t = selected ? lg_a_bold() : 0
        if rejected { attributes |= lg_a_dim() }
        let marksWidth = marks.isEmpty ? 0 : min(DisplayWidth.of(marks) + 1, max(0, width - 4))
        painter.text(prefix + item.displayName, x: x, y: y, width: width - marksWidth, attributes: attributes,
                     color: selected ? .selection : nil)
        if marksWidth > 0 {
            painter.text(" " + marks, x: x + width - marksWidth, y: y, width: marksWidth, attributes: attributes,
                         color: rejected ? .dimText : nil)
        }
    }

    /// The status bar's left text while triage has something to say (prompt first), else nil.
    func statusText(_ session: TriageSession) -> String? {
        if let prompt = session.prompt { return " " + prompt.line }
        if let activity = session.activity { return " " + activity }
        return nil
    }

    /// A prefilled text that typing would replace is drawn selected (reverse video), as in a GUI field.
    func drawPromptSelection(_ session: TriageSession, y: Int, painter: ScreenPainter) {
        guard let prompt = session.prompt, prompt.takesText, prompt.isTextSelected, !prompt.text.isEmpty else { return }
        let x = 1 + DisplayWidth.of(prompt.label)
        let width = min(DisplayWidth.of(prompt.text), painter.size.columns - x)
        guard width > 0 else { return }
        painter.text(prompt.text, x: x, y: y, width: width, attributes: lg_a_reverse(), color: .status)
    }

    /// Extra words for the right of the status bar: marks and the triage filter.
    func statusRight(_ session: TriageSession) -> String {
        var parts: [String] = []
        if !session.marks.isEmpty { parts.append("\(session.marks.count) marked") }
        if let filter = session.filterDescription { parts.append(filter) }
        return parts.isEmpty ? "" : parts.joined(separator: " · ") + " · "
    }

    // MARK: export dialog

    func drawExportDialog(_ dialog: ExportDialog, in content: CellRect, painter: ScreenPainter) {
        painter.fill(content)
        guard content.height >= 4, content.width >= 20 else { return }
        painter.box(content, color: .panel)
        let title = " Export \(dialog.entries.count) item\(dialog.entries.count == 1 ? "" : "s") "
        painter.text(title, x: content.x + 2, y: content.y, width: DisplayWidth.of(title), attributes: lg_a_bold(),
                     color: .panel)
        let inner = content.width - 4
        let listTop = content.y + 2
        let listHeight = max(1, content.height - 6)
        let first = max(0, min(dialog.cursor - listHeight / 2, dialog.entries.count - listHeight))
        let nameWidth = min(40, max(12, inner / 3))
        let kindWidth = 14, badgeWidth = 12
        painter.text(DisplayWidth.pad("Picture", width: nameWidth + 2) + DisplayWidth.pad("Kind", width: kindWidth)
                     + DisplayWidth.pad("", width: badgeWidth) + "Export as",
                     x: content.x + 2, y: content.y + 1, width: inner, attributes: lg_a_bold(), color: .panel)
        for (row, index) in (first..<min(dialog.entries.count, first + listHeight)).enumerated() {
            let entry = dialog.entries[index]
            let selected = index == dialog.cursor
            let y = listTop + row
            var x = content.x + 2
            painter.text((selected ? "▸ " : "  ") + entry.item.displayName, x: x, y: y, width: nameWidth + 2,
                         attributes: selected ? lg_a_bold() : 0, color: selected ? .selection : .panel)
            x += nameWidth + 2
            painter.text(ItemDescription.kindName(entry.item.kind), x: x, y: y, width: kindWidth, color: .panel)
            x += kindWidth
            if let variant = Self.badgeVariant(entry) {
                let text = String(String.UnicodeScalarView(LiveBadge(variant, style: .solid).text(fitting: badgeWidth - 1)))
                painter.text(text, x: x, y: y, width: DisplayWidth.of(text), attributes: lg_a_bold(),
                             color: variant == .live ? .badgeLive : .dimText)
            }
            x += badgeWidth
            var choice = dialog.choiceName(for: entry)
            if let reason = entry.item.liveOffReason { choice += " — \(reason)" }
            painter.text(choice, x: x, y: y, width: content.x + content.width - 2 - x,
                         attributes: selected ? lg_a_bold() : 0, color: .panel)
        }
        let location = dialog.stripLocation ? "Location: removed from the copies (g keeps it)"
            : "Location: kept in the copies (g removes it)"
        painter.text(location, x: content.x + 2, y: content.y + content.height - 3, width: inner,
                     attributes: lg_a_bold(), color: .panel)
        let help = "↑/↓ item · l live · s still · L/S all · Tab toggle · e effect (loop, bounce, GIF, long exposure) · g location · hold Space preview · Enter destination… · Esc cancel"
        painter.text(help, x: content.x + 2, y: content.y + content.height - 2, width: inner, color: .dimText)
    }

    /// LIVE for an item leaving live, LIVE OFF for a live item leaving as a still (or whose movie is off).
    static func badgeVariant(_ entry: ExportPlan.Entry) -> LiveBadge.Variant? {
        switch entry.item.kind {
        case .live, .motion:
            return entry.choice == .livePhoto && entry.item.liveOffReason == nil ? .live : .liveOff
        case .video: return .video
        case .still: return nil
        }
    }
}
