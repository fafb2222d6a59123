/// What a progressive scan knows before it has probed everything: the first screen's items.
public struct LibraryScanProgress: Sendable {
    /// Items of the first files in display order, paired among themselves (a half whose partner lies further
    /// on shows alone until the final scan).
    public var scan: LibraryScan
    /// Media files the listing found (what the final scan will look at); nil when the first screen came
    /// before the whole listing (a recursive scan lists only the first screen's folders before it).
    public var listedFiles: Int?
    /// Every file of the library is in `scan`, as the library index remembered the last scan (`ScanSnapshot`):
    /// what is left is the check that nothing changed since.
    public var fromIndex: Bool
    public init(scan: LibraryScan, listedFiles: Int?, fromIndex: Bool = false) {
        self.scan = scan
        self.listedFiles = listedFiles
        self.fromIndex = fromIndex
    }
}
