import LivePairing
import MediaFormats

/// Library items made in memory, so the state machine is tested without files.
enum TestItems {
    static func file(_ name: String, format: ContainerFormat = .jpeg) -> MediaFile {
        var info = MediaInfo(format: format)
        info.pixelWidth = 4032
        info.pixelHeight = 3024
        return MediaFile(path: "/photos/\(name)", size: 1000, modificationTime: 0, info: info)
    }

    static func still(_ name: String) -> LibraryItem { LibraryItem(kind: .still, still: file(name)) }

    static func live(_ name: String) -> LibraryItem {
        LibraryItem(kind: .live, still: file(name + ".HEIC", format: .heif),
                    movie: file(name + ".MOV", format: .quickTime),
                    contentIdentifier: "ABCD-1234", pairing: .contentIdentifier)
    }

    static func video(_ name: String) -> LibraryItem { LibraryItem(kind: .video, movie: file(name, format: .quickTime)) }

    /// `count` stills named IMG_0000.JPG...
    static func stills(_ count: Int) -> [LibraryItem] {
        (0..<count).map { still("IMG_\(String(1000 + $0).suffix(4)).JPG") }
    }
}
