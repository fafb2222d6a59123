import MediaFormats

/// Pairs stills with movies into library items. (Stub: implemented next.)
public enum LivePairer {
    public static func pair(_ files: [MediaFile]) -> [LibraryItem] {
        files.map { file in
            file.info.format.isMovie ? LibraryItem(kind: .video, movie: file) : LibraryItem(kind: .still, still: file)
        }
    }
}
