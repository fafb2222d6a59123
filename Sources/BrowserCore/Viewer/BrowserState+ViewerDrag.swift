import LivePairing

/// Panning the zoomed viewer with the mouse (issue 31.3): button 1 down on the picture, then every motion
/// report moves the picture with the pointer, as in every image viewer (dragging right shows more of the left
/// side). Each report moves the crop by what the pointer moved since the last one, so at an edge the picture
/// stays put and moves again as soon as the pointer turns back (no dead travel, as with the pan keys).
extension BrowserState {
    mutating func dragViewer(_ step: ViewerDragStep) {
        switch step {
        case .pressed(let x, let y):
            // Not under the help screen (the zoom stays on behind it).
            guard mode == .viewer, let zoom = zoomedViewer, let rect = viewerPictureRect, rect.contains(x: x, y: y) else {
                viewerDrag = nil
                return
            }
            viewerDrag = ViewerDragAnchor(itemID: zoom.itemID, x: x, y: y)
        case .moved(let x, let y):
            guard var zoom = zoomedViewer, let anchor = viewerDrag, anchor.itemID == zoom.itemID else { return }
            let visible = zoomVisibleFraction
            zoom.drag(columns: x - anchor.x, rows: y - anchor.y, cell: zoomCellPixels, imageSize: selectedItem?.uprightPixelSize,
                      visibleWidth: visible.width, visibleHeight: visible.height)
            viewerZoom = zoom
            viewerDrag = ViewerDragAnchor(itemID: anchor.itemID, x: x, y: y)
        case .released:
            viewerDrag = nil
        }
    }
}

/// One report of button 1 while the viewer is zoomed, at a screen cell.
public enum ViewerDragStep: Sendable, Hashable {
    case pressed(x: Int, y: Int)
    case moved(x: Int, y: Int)
    case released
}

/// The pointer's last cell during a drag of the zoomed picture.
public struct ViewerDragAnchor: Sendable, Hashable {
    public var itemID: ItemID
    public var x: Int
    public var y: Int
}
