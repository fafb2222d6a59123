import LivePairing

/// The viewer's 1:1 zoom and pan (issue 31.3): `z` zooms to 100 % around the last click in the picture (or the
/// centre), hjkl/arrows/the wheel pan, `z` or Esc fits again. Leaving the photo fits again.
extension BrowserState {
    /// True while the viewer shows the selected item at 100 %.
    public var isViewerZoomed: Bool { zoomedViewer != nil }

    /// The zoom of the item shown, nil when the viewer fits the picture.
    public var zoomedViewer: ViewerZoom? {
        guard let zoom = viewerZoom, mode == .viewer || (mode == .help && modeBeforeHelp == .viewer),
              zoom.itemID == selectedItem?.id else { return nil }
        return zoom
    }

    /// The part of the image (fractions of its width and height) the picture area shows at 100 %, when the
    /// item's pixel size is known.
    var zoomVisibleFraction: (width: Double?, height: Double?) {
        guard let size = selectedItem?.uprightPixelSize, let rect = viewerZoomRect else { return (nil, nil) }
        let crop = ViewerZoom.crop(centerX: 0.5, centerY: 0.5, imageWidth: size.width, imageHeight: size.height,
                                   columns: rect.width, rows: rect.height, cell: zoomCellPixels)
        return (Double(crop.width) / Double(size.width), Double(crop.height) / Double(size.height))
    }

    mutating func toggleViewerZoom() {
        guard mode == .viewer, let item = selectedItem else { return }
        if isViewerZoomed {
            viewerZoom = nil
            return
        }
        guard item.still != nil else {
            message = "1:1 zoom is for photos: a movie shows its frames fitted"
            return
        }
        let point = viewerClickPoint.flatMap { $0.itemID == item.id ? $0 : nil }
        var zoom = ViewerZoom(itemID: item.id, centerX: point?.x ?? 0.5, centerY: point?.y ?? 0.5)
        let visible = zoomVisibleFraction
        zoom.clamp(visibleWidth: visible.width, visibleHeight: visible.height)
        viewerZoom = zoom
    }

    mutating func panViewer(dx: Int, dy: Int) {
        guard var zoom = zoomedViewer else { return }
        let visible = zoomVisibleFraction
        zoom.pan(dx: dx, dy: dy, visibleWidth: visible.width, visibleHeight: visible.height)
        viewerZoom = zoom
    }

    /// A click in the fitted picture: the point (a fraction of the image) the next zoom centres on.
    mutating func recordViewerClick(x: Int, y: Int) {
        guard let item = selectedItem, let rect = viewerPictureRect, rect.contains(x: x, y: y) else { return }
        // The fitted picture is centred in the area; the cell's aspect is the zoom's (2:1 in both symbols and
        // the usual pixel cells), so the area's shape in image terms is columns x rows of those cells.
        let areaWidth = Double(rect.width * zoomCellPixels.width), areaHeight = Double(rect.height * zoomCellPixels.height)
        let pointX = (Double(x - rect.x) + 0.5) * Double(zoomCellPixels.width)
        let pointY = (Double(y - rect.y) + 0.5) * Double(zoomCellPixels.height)
        var shownWidth = areaWidth, shownHeight = areaHeight
        if let size = item.uprightPixelSize {
            let scale = min(areaWidth / Double(size.width), areaHeight / Double(size.height))
            shownWidth = Double(size.width) * scale
            shownHeight = Double(size.height) * scale
        }
        let fractionX = (pointX - (areaWidth - shownWidth) / 2) / shownWidth
        let fractionY = (pointY - (areaHeight - shownHeight) / 2) / shownHeight
        guard (0...1).contains(fractionX), (0...1).contains(fractionY) else { return }
        viewerClickPoint = ViewerClickPoint(itemID: item.id, x: fractionX, y: fractionY)
    }

    /// Fits again when the photo changed or the viewer closed.
    mutating func dropStaleViewerZoom() {
        if let zoom = viewerZoom, zoom.itemID != selectedItem?.id || (mode != .viewer && mode != .help) {
            viewerZoom = nil
        }
        if viewerDrag != nil, !isViewerZoomed { viewerDrag = nil }
        if let point = viewerClickPoint, point.itemID != selectedItem?.id { viewerClickPoint = nil }
    }

    /// "100 % · 1200,800 of 4032×3024" for the status bar; nil when not zoomed.
    public var viewerZoomStatus: String? {
        guard let zoom = zoomedViewer else { return nil }
        guard let size = selectedItem?.uprightPixelSize, let rect = viewerZoomRect else {
            return "100 % · at \(Int(zoom.centerX * 100)) %, \(Int(zoom.centerY * 100)) %"
        }
        let crop = zoom.crop(imageWidth: size.width, imageHeight: size.height, columns: rect.width, rows: rect.height,
                             cell: zoomCellPixels)
        return "100 % · \(crop.x),\(crop.y) \(crop.width)×\(crop.height) of \(size.width)×\(size.height)"
    }
}

/// Where the last click in the fitted viewer landed, as a fraction of the image.
public struct ViewerClickPoint: Sendable, Hashable {
    public var itemID: ItemID
    public var x: Double
    public var y: Double
}
