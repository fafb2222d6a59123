extension BrowserState {
    /// Applies one action; returns the side effects the front end must carry out.
    @discardableResult
    public mutating func reduce(_ action: BrowserAction) -> [BrowserEffect] {
        let effects = reduceAction(action)
        keepViewerOffFolders()
        dropStaleViewerZoom()
        return effects + playbackFollowUp() + triageFollowUp()
    }

    private mutating func reduceAction(_ action: BrowserAction) -> [BrowserEffect] {
        switch action {
        case .filterInput, .filterBackspace, .view(.dateJumpInput), .view(.dateJumpBackspace), .showMessage, .scanStarted, .scanFinished, .scanProgress, .scanFailed, .triage(.result),
             .studio(.frameShown), .studio(.frameTimesLoaded), .studio(.failed), .studio(.written),
             .studio(.effectPreviewReady), .studio(.effectPreviewFailed), .studio(.effectsExported),
             .remote(.event), .playInput, .playbackTick, .playback: break
        default:
            clearMessage()
            showsScanFailure = false
        }
        switch action {
        case .move(let direction):
            if direction == .left, let parent = parentFromLeftEdge() { return parent }
            move(direction)
        case .pageUp:
            if let grid = sectionedGrid, mode == .grid { selectIndex(grid.item(from: selection, itemRows: -layout.visibleRows) ?? 0); break }
            moveSelection(by: -layout.itemsPerPage)
        case .pageDown:
            if let grid = sectionedGrid, mode == .grid {
                selectIndex(grid.item(from: selection, itemRows: layout.visibleRows) ?? items.count - 1)
                break
            }
            moveSelection(by: layout.itemsPerPage)
        case .first:
            selectIndex(0)
        case .last:
            selectIndex(items.count - 1)
        case .zoomIn:
            setZoom(zoom + 1)
        case .zoomOut:
            setZoom(zoom - 1)
        case .openViewer:
            if mode == .grid, let folder = openRemoteDirectoryIfSelected() ?? openLocalFolderIfSelected() { return folder }
            if mode == .grid, selectedItem != nil { mode = .viewer }
        case .toggleViewerZoom:
            toggleViewerZoom()
        case .viewerDrag(let step):
            dragViewer(step)
        case .toggleInfo:
            if mode == .help { mode = modeBeforeHelp }
            showsInfo.toggle()
        case .toggleSound:
            playback.soundEnabled.toggle()
            message = playback.soundEnabled ? "sound on: a held Live Photo plays its sound" : "sound off"
        case .toggleHelp:
            if mode == .help {
                mode = modeBeforeHelp
            } else {
                modeBeforeHelp = mode
                mode = .help
            }
        case .back:
            return back()
        case .studio(let studioAction):
            return reduceStudio(studioAction)
        case .quit:
            if let held = holdQuitForTransfer() { return held }
            wantsQuit = true
            return stopPlaybackIfNeeded() + [.quit]
        case .rescan:
            return [.startScan]
        case .redraw:
            return [.redrawAll]
        case .beginFilter:
            isEditingFilter = true
        case .filterInput(let character):
            setFilter(filter + String(character))
        case .filterBackspace:
            if !filter.isEmpty { setFilter(String(filter.dropLast())) }
        case .commitFilter:
            isEditingFilter = false
        case .cancelFilter:
            isEditingFilter = false
            setFilter("")
        case .resize(let size):
            terminal = size
            clampSelection()
        case .click(let x, let y):
            if mode == .viewer, !isViewerZoomed { recordViewerClick(x: x, y: y) }
            guard mode == .grid else { break }
            let hit = sectionedGrid.map { $0.index(atX: x, y: y, scrollRow: scrollRow) }
                ?? layout.index(atX: x, y: y, scrollRow: scrollRow, itemCount: items.count)
            if let index = hit {
                if index == selection, let folder = openRemoteDirectoryIfSelected() ?? openLocalFolderIfSelected() {
                    return folder
                }
                if index == selection { mode = .viewer } else { selectIndex(index) }
            }
        case .scroll(let rows):
            scroll(by: rows)
        case .select(let index):
            selectIndex(index)
        case .playPressed:
            if let effects = triagePlayPressed() { return effects }
            // A LIVE OFF item (a still whose movie is missing, a movie that failed) says why instead.
            if !isPlayPressed, let item = selectedItem, let reason = liveOffReason(for: item) {
                say("LIVE OFF: \(reason)", priority: .reason)
                break
            }
            guard let item = selectedItem, item.kind.isLive || item.kind == .video, !isPlayPressed else { break }
            return beginHold(item)
        case .playReleased:
            return stopPlaybackIfNeeded()
        case .playInput(let input, let time):
            return reducePlayInput(input, at: time)
        case .playbackTick(let time):
            return reducePlaybackTick(at: time)
        case .playback(let report):
            reducePlaybackReport(report)
        case .scanStarted:
            isScanning = true
        case .scanProgress(let progress):
            // Only the first scan of a folder shows partial items: a late report must not undo a finished scan,
            // and a rescan (`r`) keeps the full grid it has until its own result replaces it. The first scan's
            // later report (the whole view from the index) replaces its first screen.
            guard isScanning, allItems.isEmpty || showsPartialScan, folders.accepts(progress.scan) else { break }
            scanListedFiles = progress.listedFiles
            // Keeps the selected item by identity, wherever it lands.
            setItems(shownItems(of: progress.scan), partial: true, fromIndex: progress.fromIndex)
            selectAfterFolderScan(partial: true)
        case .scanFinished(let scan):
            // A scan of a folder the user has left since (or of the other `-r`) is not this view's.
            guard folders.accepts(scan) else { break }
            isScanning = false
            scanListedFiles = nil
            scanError = nil
            showsScanFailure = false
            scanWarnings = scan.warnings
            setItems(shownItems(of: scan))
            selectAfterFolderScan(partial: false)
            return triageAfterScan()
        case .showMessage(let text):
            message = text
        case .triage(let triageAction):
            if let refusal = refusalOnFolder(triageAction) {
                message = refusal
                break
            }
            let effects = reduceTriage(triageAction)
            dropFolderMarks()
            return effects
        case .scanFailed(let error):
            guard folders.awaited == nil || error.folder == nil || error.folder == folders.current else { break }
            isScanning = false
            scanListedFiles = nil
            scanError = error
            showsScanFailure = true
        case .remote(let remoteAction):
            return reduceRemote(remoteAction)
        case .view(.toggleRecursive):
            return toggleRecursive()
        case .view(.parentFolder):
            return openLocalParent(aboveTop: true) ?? []
        case .view(let viewAction):
            reduceView(viewAction)
        }
        return []
    }

    private mutating func back() -> [BrowserEffect] {
        if isEditingFilter {
            isEditingFilter = false
            setFilter("")
            return []
        }
        switch mode {
        case .help:
            mode = modeBeforeHelp
        case .viewer:
            if isViewerZoomed { viewerZoom = nil } else if showsInfo { showsInfo = false } else { mode = .grid }
        case .grid:
            if showsInfo {
                showsInfo = false
            } else if !filter.isEmpty {
                setFilter("")
            } else if let parent = openRemoteParent() {
                return stopPlaybackIfNeeded() + parent
            } else if let parent = openLocalParent(aboveTop: false) {
                return parent
            }
        }
        return stopPlaybackIfNeeded()
    }

    mutating func stopPlaybackIfNeeded() -> [BrowserEffect] {
        guard isPlayPressed else { return [] }
        return endHold()
    }

    private mutating func move(_ direction: MoveDirection) {
        // In the viewer left/right step through the items; up/down do nothing there.
        if isViewerZoomed, mode == .viewer {
            switch direction {
            case .left: panViewer(dx: -1, dy: 0)
            case .right: panViewer(dx: 1, dy: 0)
            case .up: panViewer(dx: 0, dy: -1)
            case .down: panViewer(dx: 0, dy: 1)
            }
            return
        }
        if mode == .viewer {
            switch direction {
            case .left, .up: moveSelection(by: -1)
            case .right, .down: moveSelection(by: 1)
            }
            return
        }
        if let grid = sectionedGrid {
            switch direction {
            case .left: moveSelection(by: -1)
            case .right: moveSelection(by: 1)
            case .up: if let above = grid.item(from: selection, itemRows: -1) { selectIndex(above) }
            case .down: if let below = grid.item(from: selection, itemRows: 1) { selectIndex(below) }
            }
            return
        }
        let columns = layout.columns
        switch direction {
        case .left: moveSelection(by: -1)
        case .right: moveSelection(by: 1)
        case .up: if selection - columns >= 0 { moveSelection(by: -columns) }
        case .down:
            if selection + columns < items.count {
                moveSelection(by: columns)
            } else if layout.row(of: selection) < layout.row(of: items.count - 1) {
                // Down from a row above a partial last row lands on the last item.
                selectIndex(items.count - 1)
            }
        }
    }

    private mutating func moveSelection(by delta: Int) {
        selectIndex(selection + delta)
    }

    mutating func selectIndex(_ index: Int) {
        guard !items.isEmpty else { return }
        selection = min(max(0, index), items.count - 1)
        scrollRow = keptScrollRow()
    }

    private mutating func setZoom(_ level: Int) {
        zoom = min(max(0, level), GridLayout.zoomWidths.count - 1)
        clampSelection()
    }

    /// Wheel scrolling moves the view; the selection follows only when it would leave the screen.
    private mutating func scroll(by rows: Int) {
        guard mode == .grid, !items.isEmpty else {
            if mode == .viewer, isViewerZoomed { panViewer(dx: 0, dy: rows > 0 ? 1 : -1); return }
            if mode == .viewer { moveSelection(by: rows > 0 ? 1 : -1) }
            return
        }
        if let grid = sectionedGrid {
            scrollRow = min(max(0, scrollRow + rows), grid.maxScrollRow())
            let visible = grid.visibleItems(scrollRow: scrollRow)
            if !visible.isEmpty, !visible.contains(selection) {
                selection = selection < visible.lowerBound ? visible.lowerBound : visible.upperBound - 1
            }
            return
        }
        let layout = self.layout
        scrollRow = min(max(0, scrollRow + rows), layout.maxScrollRow(itemCount: items.count))
        let visible = layout.visibleIndices(scrollRow: scrollRow, itemCount: items.count)
        if !visible.isEmpty, !visible.contains(selection) {
            let column = layout.column(of: selection)
            let target = selection < visible.lowerBound
                ? visible.lowerBound + column
                : visible.upperBound - layout.columns + column
            selection = min(max(visible.lowerBound, target), visible.upperBound - 1)
        }
    }
}
