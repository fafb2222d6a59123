import BrowserCore
import BrowserRuntime
import CNCurses
import Concurrent
import LivePairing
import MediaFormats
import TerminalGraphics

/// Draws a `BrowserState` into curses: header, grid (or list, or viewer), status bar, overlays. It asks the
/// thumbnail provider for pictures of what it draws and reports which keys it needs, so the app can cancel
/// the rest.
final class BrowserRenderer {
    var badge: BadgePainter
    let keymap: Keymap
    /// Keys of the pictures the last frame wanted, most wanted first.
    private(set) var wantedPictures: [(key: ThumbnailKey, item: LibraryItem, priority: Urgency)] = []
    /// Playback hooks: the movie frame to draw instead of the key photo, and why an item shows LIVE OFF.
    var livePicture: ((LibraryItem, CellRect) -> (image: RenderedImage, serial: Int)?)?
    var liveOffReason: ((LibraryItem) -> String?)?
    /// The export dialog's effect preview (loop, bounce, GIF, long exposure) for an area, when one is shown.
    var effectPreview: ((CellRect) -> (image: RenderedImage, serial: Int)?)?
    /// Where every picture goes (one type per protocol, chosen once by the app); symbol cells through the
    /// painter until the app hands its own.
    var output: any PictureOutput = SymbolCellsOutput(direct: nil, window: nil)
    /// The panels drawn over the grid in the last frame (pictures under them are not shown).
    private(set) var overlays: [CellRect] = []

    var triagePainter: TriagePainter { TriagePainter(badge: badge) }

    init(badge: BadgePainter, keymap: Keymap) {
        self.badge = badge
        self.keymap = keymap
    }

    func draw(_ state: BrowserState, provider: ThumbnailProvider, painter: ScreenPainter) {
        wantedPictures.removeAll(keepingCapacity: true)
        overlays.removeAll(keepingCapacity: true)
        painter.surface.clear()
        drawHeader(state, painter: painter)
        if let dialog = state.triage.exportDialog {
            triagePainter.drawExportDialog(dialog, in: state.layout.content, painter: painter)
            if let preview = dialog.preview { drawEffectPreview(preview, in: state.layout.content, painter: painter) }
        } else {
        switch state.mode == .help ? state.modeBeforeHelp : state.mode {
        case .viewer: drawViewer(state, provider: provider, painter: painter)
        default: drawGrid(state, provider: provider, painter: painter)
        }
        }
        if state.showsInfo, state.mode == .grid, state.triage.exportDialog == nil, let item = state.selectedItem {
            let layout = state.layout
            let width = min(48, max(20, layout.content.width / 2))
            drawInfo(item, in: CellRect(x: layout.content.width - width, y: layout.content.y, width: width,
                                        height: layout.content.height), 
                     lines: state.infoPanelLines(for: item) + (provider.pictureNote(for: item.id)?.infoLines ?? []),
                     painter: painter)
        }
        if let remote = state.remote, remote.showsActivityPanel, state.mode != .help {
            RemoteOverlayPainter.drawActivityPanel(state, remote: remote, painter: painter)
        }
        if state.mode == .help { drawHelp(state, painter: painter) }
        drawStatus(state, provider: provider, painter: painter)
        painter.surface.commit()
    }

    // MARK: header and status

    private func drawHeader(_ state: BrowserState, painter: ScreenPainter) {
        var right = "\(state.items.count) item\(state.items.count == 1 ? "" : "s") · \(state.liveCount) live"
        if state.items.count != state.allItems.count { right += " of \(state.allItems.count)" }
        let folderCells = state.folderCellCount
        if folderCells > 0 {
            let photos = state.items.count - folderCells
            right = "\(photos) item\(photos == 1 ? "" : "s") · \(folderCells) folder\(folderCells == 1 ? "" : "s") · \(state.liveCount) live"
        }
        if let remote = state.remote { right = RemoteOverlayPainter.headerCounts(state, remote: remote) }
        if state.isScanning {
            // The whole library is on screen from the index; the scan is making sure no file changed.
            right = (state.showsIndexedView ? "checking… " : "scanning… ")
                + (state.scanListedFiles.map { "\($0) files · " } ?? "") + right
        }
        var left = " livegrid  \(state.breadcrumb)"
        if state.isEditingFilter || !state.filter.isEmpty {
            left += "   /\(state.filter)\(state.isEditingFilter ? "▏" : "")"
        }
        if let jump = state.dateJumpText { left += "   jump to date (2023-07-14): \(jump)▏" }
        if state.sortOrder != .name || state.grouping != .none {
            right = "\(state.grouping == .date ? "timeline" : state.grouping == .folder ? "folders" : "all")"
                + " · by \(state.sortOrder.rawValue) · " + right
        }
        drawBar(left: left, right: right + " ", y: 0, color: .header, painter: painter)
    }

    private func drawStatus(_ state: BrowserState, provider: ThumbnailProvider, painter: ScreenPainter) {
        let y = painter.size.rows - 1
        guard y > 0 else { return }
        var left: String
        if let triageText = triagePainter.statusText(state.triage) {
            left = triageText
        } else if let message = state.message {
            left = " " + message
        } else if state.showsScanFailure, let failure = state.scanError {
            left = " scan failed: \(failure)"
        } else if let item = state.selectedItem, item.isFolderEntry, state.remote == nil {
            left = " \(state.selection + 1)/\(state.items.count) \(VisibleText.escaped(item.displayName))/ · folder · Enter opens"
        } else if let item = state.selectedItem {
            left = " \(state.selection + 1)/\(state.items.count) \(item.displayName) · \(ItemDescription.kindName(item.kind))"
            let warnings = item.warnings.count + item.files.reduce(0) { $0 + $1.info.problems.count }
            if warnings > 0 { left += " · \(warnings) warning\(warnings == 1 ? "" : "s")" }
            // Zoomed, where the crop is comes first: it is what a narrow status bar must keep.
            if let zoom = state.viewerZoomStatus { left = " \(state.selection + 1)/\(state.items.count) · \(zoom) · \(item.displayName)" }
        } else {
            left = state.isScanning ? " scanning…" : " no photos here"
        }
        if state.remote?.pendingPlayID == nil, let note = state.playback.statusNote { left += " · " + note }
        if let note = state.playback.linkNote { left += " · " + note }
        let mode = state.mode == .viewer && state.showsInfo ? "viewer+info" : state.mode.rawValue
        // A prompt gets the whole line: its question must be readable.
        var right = state.triage.prompt != nil ? " "
            : triagePainter.statusRight(state.triage) + "\(mode) · \(provider.modeDescription) · ? help "
        if let remote = state.remote, state.triage.prompt == nil {
            (left, right) = RemoteOverlayPainter.status(state, remote: remote, left: left, right: right,
                                                        pictureMode: provider.modeDescription)
        }
        // A message (a confirmation, a warning with its fix) is what the user must read: it keeps its width and
        // the mode summary on the right is shortened instead.
        let messageShown = triagePainter.statusText(state.triage) != nil || state.message != nil
            || (state.showsScanFailure && state.scanError != nil)
        drawBar(left: left, right: right, y: y, color: .status, painter: painter, keepLeft: messageShown)
        triagePainter.drawPromptSelection(state.triage, y: y, painter: painter)
    }

    /// One full-width bar: `left` shortened first so `right` stays readable, or with `keepLeft` the other way
    /// round (at least 12 columns stay for `right`).
    private func drawBar(left: String, right: String, y: Int, color: UIColor, painter: ScreenPainter,
                         keepLeft: Bool = false) {
        let width = painter.size.columns
        let rightWidth = keepLeft ? max(min(DisplayWidth.of(right), 12), width - DisplayWidth.of(left) - 1)
            : min(DisplayWidth.of(right), max(0, width - 12))
        let leftWidth = max(0, width - rightWidth)
        painter.text(left, x: 0, y: y, width: leftWidth, color: color)
        painter.text(right, x: leftWidth, y: y, width: rightWidth, color: color)
    }

    // MARK: grid

    private func drawGrid(_ state: BrowserState, provider: ThumbnailProvider, painter: ScreenPainter) {
        let layout = state.layout
        let visible = layout.visibleIndices(scrollRow: state.scrollRow, itemCount: state.items.count)
        if state.items.isEmpty {
            let message = state.remote.flatMap { RemoteOverlayPainter.emptyGridMessage($0, rootPath: state.rootPath) }
                ?? (state.isScanning ? "Scanning \(state.breadcrumb)…"
                    : state.scanError.map { "Scan failed: \($0)" } ?? "No photos, videos or folders in \(state.breadcrumb)")
            painter.text(message, x: 2, y: layout.content.y + 1, width: layout.content.width - 4, color: .dimText)
            return
        }
        if let grid = state.sectionedGrid {
            drawSectionedGrid(state, grid: grid, provider: provider, painter: painter)
            return
        }
        for index in visible {
            let item = state.items[index]
            guard let cell = layout.cellRect(index: index, scrollRow: state.scrollRow) else { continue }
            let selected = index == state.selection
            if layout.isList {
                drawListRow(item, in: cell, selected: selected, painter: painter)
                continue
            }
            guard let pictureRect = layout.pictureRect(index: index, scrollRow: state.scrollRow) else { continue }
            drawCell(item, cell: cell, pictureRect: pictureRect, selected: selected, state: state, provider: provider,
                     painter: painter)
        }
        // The next page is prefetched at low priority so paging feels instant.
        if !layout.isList {
            let next = visible.upperBound..<min(state.items.count, visible.upperBound + layout.itemsPerPage)
            for index in next {
                let key = ThumbnailKey(itemID: state.items[index].id, width: layout.cellWidth,
                                       height: layout.pictureHeight)
                wantedPictures.append((key, state.items[index], .prefetch))
            }
        }
    }

    /// One grid cell, in the plain and the grouped grid alike: picture, triage mark, caption, remote overlay.
    private func drawCell(_ item: LibraryItem, cell: CellRect, pictureRect: CellRect, selected: Bool,
                          state: BrowserState, provider: ThumbnailProvider, painter: ScreenPainter) {
        if item.isFolderEntry, state.remote == nil {
            drawFolderCell(item, cell: cell, pictureRect: pictureRect, selected: selected, painter: painter)
            return
        }
        let textBadge = badgeDrawnAsText(for: item, state: state)
        let placed = drawPicture(item, in: pictureRect, priority: selected ? .selected : .visible,
                                 provider: provider, painter: painter, badged: textBadge == nil)
        let marked = state.triage.marks.contains(item.id)
        if marked { triagePainter.drawMark(in: placed, painter: painter) }
        triagePainter.drawCaption(item, selected: selected, marked: marked, session: state.triage, x: cell.x,
                                  y: cell.y + pictureRect.height, width: cell.width, painter: painter)
        if pictureRect.y + pictureRect.height < cell.y + cell.height {
            drawSoundMark(for: item, state: state, rightEdge: cell.x + cell.width, y: pictureRect.y + pictureRect.height,
                          painter: painter)
        }
        if let remote = state.remote {
            RemoteOverlayPainter.drawCell(item, remote: remote, pictureRect: pictureRect, provider: provider,
                                          badge: badge, textBadge: textBadge, painter: painter)
        }
    }

    /// The badge a remote item's symbol picture is drawn without, for `RemoteOverlayPainter` to draw as text
    /// with the cell's download line, so the two change in the same curses update. Composited into the
    /// picture's cells, the badge reached the terminal after curses' text (`DirectCellOutput` writes the
    /// picture cells after `doupdate`): a cell could say "✓ playable" under the outlined "not playable yet"
    /// badge (badge34). nil: the picture carries its own badge (local items, pixel protocols).
    private func badgeDrawnAsText(for item: LibraryItem, state: BrowserState) -> LiveBadge? {
        guard output.showsTextOverPictures, state.remote?.itemsByID[item.id] != nil else { return nil }
        return badge.badge(for: item, liveOff: liveOffReason?(item) != nil)
    }

    /// The small sound mark of a hold that plays (issue 29): "♪" (or "♪ muted") at the right end of the row
    /// under the picture, in every graphics mode (text over a pixel picture would be covered).
    private func drawSoundMark(for item: LibraryItem, state: BrowserState, rightEdge: Int, y: Int, painter: ScreenPainter) {
        guard let mark = state.playback.soundMark(for: item.id) else { return }
        let text = " \(mark) "
        let width = DisplayWidth.of(text)
        painter.text(text, x: max(0, rightEdge - width), y: y, width: width, attributes: lg_a_bold(), color: .badgeLive)
    }

    /// A local subfolder: a box with "▤ folder" and its name below (no picture is asked for).
    private func drawFolderCell(_ item: LibraryItem, cell: CellRect, pictureRect rect: CellRect, selected: Bool,
                                painter: ScreenPainter) {
        if rect.height >= 3 { painter.box(rect, color: selected ? .selection : .placeholder) }
        let label = "▤ folder · Enter"
        let width = min(rect.width, DisplayWidth.of(label))
        painter.text(label, x: rect.x + max(0, (rect.width - width) / 2), y: rect.y + rect.height / 2, width: width,
                     attributes: lg_a_bold(), color: .placeholder)
        // The name is data: escaped, so a hostile folder name shows as `\e[2J`, never acts on the terminal.
        painter.text((selected ? "▸" : " ") + VisibleText.escaped(item.displayName) + "/", x: cell.x, y: cell.y + rect.height,
                     width: cell.width, attributes: selected ? lg_a_bold() : 0, color: selected ? .selection : nil)
    }

    /// The grouped grid: header rows (folder, year, month) between rows of cells.
    private func drawSectionedGrid(_ state: BrowserState, grid: SectionedGrid, provider: ThumbnailProvider,
                                   painter: ScreenPainter) {
        let layout = grid.layout
        for visible in grid.visibleRows(scrollRow: state.scrollRow) {
            switch visible.row {
            case .header(let section):
                let title = grid.sections[section].title
                let yearOnly = grid.sections[section].range.isEmpty
                painter.text((yearOnly ? "━━ " : "── ") + title + " ", x: 0, y: visible.y, width: layout.content.width,
                             color: yearOnly ? .header : .dimText)
            case .items(let range):
                for index in range {
                    let item = state.items[index]
                    guard let cell = grid.cellRect(index: index, scrollRow: state.scrollRow) else { continue }
                    let selected = index == state.selection
                    if layout.isList {
                        drawListRow(item, in: cell, selected: selected, painter: painter)
                        continue
                    }
                    guard let pictureRect = grid.pictureRect(index: index, scrollRow: state.scrollRow) else { continue }
                    drawCell(item, cell: cell, pictureRect: pictureRect, selected: selected, state: state,
                             provider: provider, painter: painter)
                }
            }
        }
        guard !layout.isList else { return }
        let shown = grid.visibleItems(scrollRow: state.scrollRow)
        for index in shown.upperBound..<min(state.items.count, shown.upperBound + layout.itemsPerPage) {
            let key = ThumbnailKey(itemID: state.items[index].id, width: layout.cellWidth, height: layout.pictureHeight)
            wantedPictures.append((key, state.items[index], .prefetch))
        }
    }

    private func drawListRow(_ item: LibraryItem, in rect: CellRect, selected: Bool, painter: ScreenPainter) {
        // The same marks as on pictures, in a fixed column so they line up.
        let mark = badge.label(for: item, liveOff: liveOffReason?(item) != nil, fitting: 8) ?? ""
        let name = item.isFolderEntry ? VisibleText.escaped(item.displayName) + "/" : item.displayName
        painter.text((selected ? "▸" : " ") + DisplayWidth.pad(item.isFolderEntry ? "▤" : mark, width: 8) + name,
                     x: rect.x, y: rect.y, width: rect.width, attributes: selected ? lg_a_bold() : 0,
                     color: selected ? .selection : nil)
    }

    /// The item's picture (with its badge, unless `badged` is false: the caller draws it as text) when the
    /// provider has it, else a placeholder with the badge in the same corner; queues the request either way.
    /// Returns where the picture went (its badge's and mark's corners), or `rect` for a placeholder.
    @discardableResult
    private func drawPicture(_ item: LibraryItem, in rect: CellRect, priority: Urgency,
                             provider: ThumbnailProvider, painter: ScreenPainter, badged: Bool = true) -> CellRect {
        let key = ThumbnailKey(itemID: item.id, width: rect.width, height: rect.height)
        wantedPictures.append((key, item, priority))
        let liveOff = liveOffReason?(item) != nil
        if let (frame, serial) = livePicture?(item, rect), frame.rows > 0 {
            // A playing movie: each frame is its own picture, replacing the key photo in place. The badge is
            // composited into symbol cells here unless the caller draws it as text (pixel frames carry it in
            // their pixels already).
            let frameKey = ThumbnailKey(itemID: item.id, width: rect.width, height: rect.height, variant: .movieFrame(serial))
            return output.show(badged ? badge.badged(frame, item: item, liveOff: liveOff) : frame, key: frameKey, in: rect,
                               painter: painter)
        } else if var picture = provider.picture(for: key), picture.rows > 0 {
            let note = provider.pictureNote(for: item.id).flatMap { $0.shownInPart ? $0 : nil }
            var box = rect, shownKey = key
            if note != nil, !output.showsTextOverPictures, picture.rows >= rect.height, rect.height > 2 {
                // Pixel pictures cover text drawn under them, so the mark needs a row the picture leaves free.
                // One that fills its box (a portrait photo in a grid cell) is asked for one row shorter; until
                // that one is decoded the tall one stays, its mark on its last row (issue 31.7.2, found in
                // xterm with sixel: the mark of a damaged portrait JPEG was under its picture).
                let shorter = CellRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height - 1)
                let shorterKey = ThumbnailKey(itemID: item.id, width: shorter.width, height: shorter.height)
                wantedPictures.append((shorterKey, item, priority))
                if let smaller = provider.picture(for: shorterKey), smaller.rows > 0 {
                    picture = smaller
                    box = shorter
                    shownKey = shorterKey
                }
            }
            let placement = output.show(badged ? badge.badged(picture, item: item, liveOff: liveOff) : picture, key: shownKey, in: box,
                                        painter: painter)
            if let note {
                if output.showsTextOverPictures {
                    drawDamagedMark(note, in: placement, painter: painter)
                } else {
                    // The row below the picture, inside its cell when the picture leaves one free, else the
                    // picture's last row (covered until the shorter picture is there).
                    let below = placement.y + placement.height
                    let row = below < rect.y + rect.height ? below : placement.y + placement.height - 1
                    drawDamagedMark(note, in: CellRect(x: placement.x, y: row, width: placement.width, height: 1), painter: painter)
                }
            }
            return placement
        } else {
            drawPlaceholder(item, in: rect, failed: provider.hasFailed(key), note: provider.pictureNote(for: item.id),
                            painter: painter)
            badge.drawOnPlaceholder(item: item, liveOff: liveOff, in: rect, painter: painter)
            return rect
        }
    }

    /// "! damaged" in the bottom-left corner of a picture that shows only part of a damaged file (the info
    /// panel says what is wrong).
    private func drawDamagedMark(_ note: PictureNote, in rect: CellRect, painter: ScreenPainter) {
        guard rect.height > 0, rect.width >= 3 else { return }
        let label = rect.width >= note.shortLabel.count + 4 ? " ! \(note.shortLabel) " : " ! "
        painter.text(label, x: rect.x, y: rect.y + rect.height - 1, width: min(rect.width, DisplayWidth.of(label)),
                     attributes: lg_a_bold(), color: .warning)
    }

    private func drawPlaceholder(_ item: LibraryItem, in rect: CellRect, failed: Bool, note: PictureNote? = nil,
                                 painter: ScreenPainter) {
        // Corner marks and a label: cheap to send (the blank middle costs almost nothing) and clearly
        // "not loaded yet" rather than a broken picture.
        if rect.width >= 2, rect.height >= 2 {
            let gap = String(repeating: " ", count: rect.width - 2)
            painter.text("┌" + gap + "┐", x: rect.x, y: rect.y, width: rect.width, attributes: lg_a_dim(), color: .placeholder)
            painter.text("└" + gap + "┘", x: rect.x, y: rect.y + rect.height - 1, width: rect.width,
                         attributes: lg_a_dim(), color: .placeholder)
        }
        let hasErrors = failed || item.files.contains { file in file.info.problems.contains { $0.severity == .error } }
        let fileType = item.primary.fileName.split(separator: ".").last.map { String($0).lowercased() } ?? ""
        let label = hasErrors ? "! " + (failed ? (note?.shortLabel ?? "cannot show") : fileType) : fileType
        guard rect.height > 0 else { return }
        let width = min(rect.width, DisplayWidth.of(label) + 2)
        painter.text(" \(label) ", x: rect.x + (rect.width - width) / 2, y: rect.y + rect.height / 2, width: width,
                     color: hasErrors ? .warning : .placeholder)
    }

    // MARK: viewer

    private func drawViewer(_ state: BrowserState, provider: ThumbnailProvider, painter: ScreenPainter) {
        let content = state.layout.content
        guard let item = state.selectedItem, content.height >= 2 else { return }
        let infoWidth = state.showsInfo ? min(48, max(20, content.width / 2)) : 0
        guard let pictureRect = state.viewerPictureRect else { return }
        // The zoomed crop wears no badge; a remote item's fitted picture wears it as text (`badgeDrawnAsText`).
        let textBadge = state.zoomedViewer == nil ? badgeDrawnAsText(for: item, state: state) : nil
        if let zoom = state.zoomedViewer {
            drawZoomed(item, zoom: ZoomedPicture(zoom, cell: state.zoomCellPixels), in: state.viewerZoomRect ?? pictureRect,
                       fittedIn: pictureRect, provider: provider,
                       painter: painter)
        } else {
            drawPicture(item, in: pictureRect, priority: .selected, provider: provider, painter: painter,
                        badged: textBadge == nil)
        }
        if let remote = state.remote {
            RemoteOverlayPainter.drawCell(item, remote: remote, pictureRect: pictureRect, provider: provider,
                                          badge: badge, textBadge: textBadge, painter: painter)
        }
        let caption = "\(item.displayName) · \(ItemDescription.kindName(item.kind)) · \(state.selection + 1)/\(state.items.count)  ←/→ next · z 100 % · i info · Esc back"
            + (state.keyPhoto != nil ? "" : item.kind == .live ? " · K key photo" : "")
        let zoomCaption = "\(item.displayName) · 100 %: hjkl/arrows/wheel pan · z or Esc fits"
        let shownCaption = state.zoomedViewer != nil ? zoomCaption : state.keyPhoto == nil ? caption
            : "\(item.displayName) · choosing the key photo: ←/→ frame · Enter writes a new Live Photo beside it · Esc leaves"
        painter.text(shownCaption, x: content.x, y: content.y + content.height - 1, width: content.width, color: .dimText)
        drawSoundMark(for: item, state: state, rightEdge: pictureRect.x + pictureRect.width, y: content.y + content.height - 1,
                      painter: painter)
        if infoWidth > 0 {
            drawInfo(item, in: CellRect(x: content.x + content.width - infoWidth, y: content.y, width: infoWidth,
                                        height: content.height), 
                     lines: state.infoPanelLines(for: item) + (provider.pictureNote(for: item.id)?.infoLines ?? []),
                     painter: painter)
        }
        // Neighbours are prefetched at the viewer size: stepping through feels immediate.
        for neighbour in [state.selection + 1, state.selection - 1] where state.items.indices.contains(neighbour) {
            let key = ThumbnailKey(itemID: state.items[neighbour].id, width: pictureRect.width, height: pictureRect.height)
            wantedPictures.append((key, state.items[neighbour], .prefetch))
        }
    }

    /// The viewer at 100 % (issue 31.3): the crop of the full-size image; the fitted picture stays until the
    /// crop is ready (the first zoom into a photo decodes all of it). `rect` is the crop's cells (within a
    /// sixel terminal's size limit), `fitted` the whole picture area, where the fitted picture already is.
    private func drawZoomed(_ item: LibraryItem, zoom: ZoomedPicture, in rect: CellRect, fittedIn fitted: CellRect,
                            provider: ThumbnailProvider, painter: ScreenPainter) {
        let key = ThumbnailKey(itemID: item.id, width: rect.width, height: rect.height, variant: .zoom(zoom))
        wantedPictures.append((key, item, .selected))
        if let picture = provider.picture(for: key), picture.rows > 0 {
            output.show(picture, key: key, in: rect, painter: painter)
        } else {
            drawPicture(item, in: fitted, priority: .selected, provider: provider, painter: painter)
        }
    }

    /// The effect preview in the right half of the export dialog (over the end of the list's rows).
    private func drawEffectPreview(_ preview: EffectPreview, in content: CellRect, painter: ScreenPainter) {
        // Right of the list's "Export as" column (it starts ~70 columns in) when the terminal is wide enough.
        let width = max(24, min(content.width * 9 / 20, content.width - 92)), height = content.height - 7
        guard width >= 12, height >= 4 else { return }
        let frame = CellRect(x: content.x + content.width - width - 2, y: content.y + 1, width: width, height: height + 2)
        painter.fill(frame)
        painter.box(frame, color: .panel)
        let title = " Preview: \(preview.effect.name) "
        painter.text(title, x: frame.x + 2, y: frame.y, width: min(width - 4, DisplayWidth.of(title)), attributes: lg_a_bold(), color: .panel)
        let rect = CellRect(x: frame.x + 1, y: frame.y + 1, width: width - 2, height: height)
        switch preview.phase {
        case .rendering:
            painter.text("rendering…", x: rect.x + 1, y: rect.y + rect.height / 2, width: rect.width - 2, color: .dimText)
        case .failed(let failure):
            painter.text(failure.description, x: rect.x + 1, y: rect.y + rect.height / 2, width: rect.width - 2, color: .warning)
        case .showing:
            guard let (image, serial) = effectPreview?(rect), image.rows > 0 else { return }
            let key = ThumbnailKey(itemID: preview.itemID, width: rect.width, height: rect.height,
                                   variant: .effectPreviewFrame(serial))
            output.show(image, key: key, in: rect, painter: painter)
        }
    }

    // MARK: panels

    private func drawInfo(_ item: LibraryItem, in rect: CellRect, lines: [(label: String, value: String)],
                          painter: ScreenPainter) {
        overlays.append(rect)
        painter.box(rect, color: .panel)
        painter.text(" Info ", x: rect.x + 2, y: rect.y, width: 6, attributes: lg_a_bold(), color: .panel)
        let labelWidth = 11
        var y = rect.y + 1
        let valueWidth = rect.width - 4 - labelWidth
        let lastRow = rect.y + rect.height - 1
        // Long values (paths, identifiers, warnings) wrap onto further rows instead of being cut; a value
        // takes at most 4 rows so one long warning cannot push everything else out of the panel.
        for line in lines {
            guard y < lastRow else { break }
            let color: UIColor = line.label == "Warning" ? .warning : .panel
            painter.text(line.label, x: rect.x + 2, y: y, width: labelWidth, attributes: lg_a_bold(), color: color)
            let rows = DisplayWidth.wrap(line.value, width: valueWidth, maxLines: min(4, lastRow - y))
            for row in rows.isEmpty ? [""] : rows {
                painter.text(row, x: rect.x + 2 + labelWidth, y: y, width: valueWidth, color: color)
                y += 1
            }
        }
    }

    private func drawHelp(_ state: BrowserState, painter: ScreenPainter) {
        var lines = HelpScreen.lines(keymap: keymap)
        // Too many lines for the screen: two columns side by side when the width allows.
        let columnWidth = 42
        if lines.count + 4 > painter.size.rows - 2, painter.size.columns - 2 >= 2 * columnWidth + 6 {
            let half = (lines.count + 1) / 2
            lines = (0..<half).map { row in
                DisplayWidth.pad(lines[row], width: columnWidth + 2) + (row + half < lines.count ? lines[row + half] : "")
            }
        }
        let widest = lines.map { DisplayWidth.of($0) }.max() ?? 0
        let width = min(painter.size.columns - 2, max(46, widest + 4))
        let height = min(painter.size.rows - 2, lines.count + 4)
        guard width > 10, height > 3 else { return }
        let rect = CellRect(x: (painter.size.columns - width) / 2, y: (painter.size.rows - height) / 2,
                            width: width, height: height)
        overlays.append(rect)
        painter.box(rect, color: .panel)
        painter.text(" Help — livegrid ", x: rect.x + 2, y: rect.y, width: 17, attributes: lg_a_bold(), color: .panel)
        for (offset, line) in lines.prefix(height - 4).enumerated() {
            painter.text(line, x: rect.x + 2, y: rect.y + 1 + offset, width: width - 4, color: .panel)
        }
        painter.text("Esc or ? closes · q in the grid quits", x: rect.x + 2, y: rect.y + height - 2,
                     width: width - 4, color: .panel)
    }
}
