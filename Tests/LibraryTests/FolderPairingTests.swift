@testable import Library
import LibraryIndex
import LivePairing
import MediaFormats
import TestSupport
import XCTest

/// `LibraryScanner.pairByFolder` pairs folder by folder in parallel and joins the folders' items; it must give
/// exactly `LivePairer.pair` of all files (items, order, warnings), on trees whose folders form runs of the
/// natural order (the parallel path) and on trees where they interleave (the single pass).
final class FolderPairingTests: XCTestCase {
    func testLeafFoldersArePairedInParallelAndEqualTheSinglePass() {
        // Files only in leaf folders, with names that sort by number ("2" before "10") and by case.
        let folders = ["/lib/2023/2/", "/lib/2023/10/", "/lib/2023/1/", "/lib/B/", "/lib/a/", "/lib/a b/", "/lib/x/deep/"]
        for seed in 1...25 {
            var random = SplitMix64(seed: UInt64(seed))
            let (probed, listings) = Self.library(folders: folders, random: &random)
            XCTAssertNotNil(LibraryScanner.joinableFolderOrder(groups: Self.groups(probed, listings), listings: listings),
                            "leaf folders never interleave")
            assertSameAsSinglePass(probed, listings: listings, "seed \(seed)")
        }
    }

    func testInterleavingFoldersTakeTheSinglePass() {
        // "/lib/a.jpg" < "/lib/a/x.jpg" < "/lib/b.jpg"; "/lib/2/" and "/lib/02/" have one key.
        for folders in [["/lib/", "/lib/a/"], ["/lib/2/", "/lib/02/"], ["/lib/a/", "/lib/a/b/", "/lib/c/"]] {
            for seed in 1...10 {
                var random = SplitMix64(seed: UInt64(seed))
                let (probed, listings) = Self.library(folders: folders, random: &random)
                let groups = Self.groups(probed, listings)
                if groups.filter({ !$0.isEmpty }).count == folders.count {
                    XCTAssertNil(LibraryScanner.joinableFolderOrder(groups: groups, listings: listings), "\(folders)")
                }
                assertSameAsSinglePass(probed, listings: listings, "\(folders) seed \(seed)")
            }
        }
    }

    private func assertSameAsSinglePass(_ probed: [LibraryScanner.Probed], listings: [FolderListing], _ label: String,
                                        file: StaticString = #filePath, line: UInt = #line) {
        let expected = LivePairer.pair(probed.reversed().map(\.file)).map(Self.describe)
        var rest = Array(probed.dropFirst(3))
        let head = Array(probed.prefix(3))
        let paired = LibraryScanner.pairByFolder(&rest, after: head, listings: listings).map(Self.describe)
        XCTAssertEqual(paired, expected, label, file: file, line: line)
        XCTAssertTrue(expected.contains { $0.hasPrefix("live") } && expected.contains { $0.hasPrefix("still") },
                      "the generated library pairs some files and leaves others alone", file: file, line: line)
        XCTAssertTrue(rest.isEmpty, "the probes are let go", file: file, line: line)
    }

    private static func describe(_ item: LibraryItem) -> String {
        "\(item.kind.rawValue) \(item.files.map(\.path)) \(item.pairing?.rawValue ?? "-") \(item.contentIdentifier ?? "-") "
            + "\(item.warnings) \(item.liveOffReason ?? "-")"
    }

    private static func groups(_ probed: [LibraryScanner.Probed], _ listings: [FolderListing]) -> [[MediaFile]] {
        var groups = [[MediaFile]](repeating: [], count: listings.count)
        for entry in probed { groups[entry.folder].append(entry.file) }
        return groups
    }

    /// Live pairs by identifier, copies sharing one, orphans, name-only pairs, videos, in random folders.
    private static func library(folders: [String], random: inout SplitMix64)
        -> (probed: [LibraryScanner.Probed], listings: [FolderListing]) {
        let listings = folders.enumerated().map { index, prefix in
            FolderListing(directory: String(prefix.dropLast()), folder: InodeKey(device: 1, inode: UInt64(index + 10)))
        }
        var probed: [LibraryScanner.Probed] = []
        func add(_ folder: Int, _ name: String, movie: Bool, id: String?, duration: Double? = nil) {
            var info = MediaInfo(format: movie ? .quickTime : .jpeg)
            info.contentIdentifier = id
            info.duration = duration ?? (movie ? 2.5 : nil)
            info.captureDate = "2023:07:14 10:22:33"
            let file = MediaFile(folder: listings[folder].folderPrefix, name: name, size: 100, modificationTime: 0, info: info)
            probed.append(LibraryScanner.Probed(file: file, stamp: nil, fresh: true, folder: folder))
        }
        for n in 0..<(20 + Int(random.next() % 60)) {
            let folder = Int(random.next() % UInt64(folders.count))
            let id = "ID-\(n % 7 == 0 ? 1 : n)"
            switch random.next() % 6 {
            case 0:
                add(folder, "IMG_\(n).JPG", movie: false, id: id)
                add(folder, "IMG_\(n).MOV", movie: true, id: id)
            case 1:
                add(folder, "img_\(n).jpg", movie: false, id: id)
                add(folder, "IMG_\(n) copy.JPG", movie: false, id: id)
                add(Int(random.next() % UInt64(folders.count)), "IMG_\(n).MOV", movie: true, id: id)
            case 2:
                add(folder, "IMG_\(n).JPG", movie: false, id: nil)
                add(folder, "IMG_\(n).MOV", movie: true, id: id)
            case 3:
                add(folder, "IMG_\(n).HEIC", movie: false, id: id)
            case 4:
                add(folder, "CLIP_\(n).MP4", movie: true, id: nil, duration: 30)
            default:
                add(folder, "\(n).jpg", movie: false, id: nil)
            }
        }
        // Shuffled: the pairer's result does not depend on the order files arrive in.
        for index in probed.indices.reversed() where index > 0 {
            probed.swapAt(index, Int(random.next() % UInt64(index + 1)))
        }
        return (probed, listings)
    }

}
