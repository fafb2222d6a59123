extension BrowserState {
    /// Where the selected item's picture is drawn: its grid cell, or the viewer's picture area (a movie plays
    /// there, sized to it). nil in the list layout.
    public var selectedPictureRect: CellRect? {
        switch mode == .help ? modeBeforeHelp : mode {
        case .viewer:
            return viewerPictureRect
        default:
            guard !layout.isList else { return nil }
            if let grid = sectionedGrid { return grid.pictureRect(index: selection, scrollRow: scrollRow) }
            return layout.pictureRect(index: selection, scrollRow: scrollRow)
        }
    }

    /// The viewer's picture area: the content minus the info panel and the caption line.
    public var viewerPictureRect: CellRect? {
        let content = layout.content
        guard content.height >= 2 else { return nil }
        let infoWidth = showsInfo ? min(48, max(20, content.width / 2)) : 0
        return CellRect(x: content.x, y: content.y, width: content.width - infoWidth, height: content.height - 1)
    }

    /// The cells the 1:1 zoom covers: the picture area, or its centre within the terminal's sixel size limit
    /// (a bigger sixel would show nothing), so the status bar and the pan's edges name the crop shown.
    public var viewerZoomRect: CellRect? {
        guard let rect = viewerPictureRect else { return nil }
        let width = min(rect.width, zoomCellPixels.maxColumns ?? rect.width)
        let height = min(rect.height, zoomCellPixels.maxRows ?? rect.height)
        return CellRect(x: rect.x + (rect.width - width) / 2, y: rect.y + (rect.height - height) / 2,
                        width: width, height: height)
    }
}
