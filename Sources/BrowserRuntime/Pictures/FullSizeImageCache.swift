import Concurrent
import Imaging
import LivePairing

/// The full-size, upright image of the one photo the viewer zooms into: decoded on the first zoom and kept
/// until another photo is zoomed (one 12 MP photo is 48 MB of RGBA; more would not be looked at again soon).
final class FullSizeImageCache: Sendable {
    /// Larger than any still livegrid decodes (the decoders refuse bigger ones themselves).
    private static let unlimitedBox = PixelSize(width: 1 << 16, height: 1 << 16)
    private let kept = Locked<(itemID: ItemID, frame: PixelFrame)?>(nil)

    func frame(for item: LibraryItem) -> Result<PixelFrame, ImagingError> {
        if let frame = cached(item.id) { return .success(frame) }
        guard let still = item.still else { return .failure(.cannotDecode("a movie has no still to zoom into")) }
        // Not serialised (a lock must not wait on a decode): a pan queued while the first decode runs may decode
        // the photo again; the loop cancels the crops it no longer wants, so that is rare and bounded.
        do {
            let options = DecodeOptions(useEmbeddedThumbnails: false, useDCTScaling: false)
            let decoded = try ImageDecoder.decode(path: still.path, info: still.info, fitting: Self.unlimitedBox,
                                                  options: options)
            kept.withLockedValue { $0 = (item.id, decoded.frame) }
            return .success(decoded.frame)
        } catch {
            return .failure(ImagingError.explaining(error, path: still.path))
        }
    }

    private func cached(_ itemID: ItemID) -> PixelFrame? {
        kept.withLockedValue { $0?.itemID == itemID ? $0?.frame : nil }
    }
}
