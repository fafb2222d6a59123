// TEMPORARY: the `video` helper owns PixelFrame+Transform.swift (applyingExifOrientation). Until it is merged,
// orientation is a no-op here; this file is deleted by the merge commit.
extension PixelFrame {
    func uprightForExifOrientation(_ orientation: Int?) -> PixelFrame {
        self
    }
}
