@testable import LivePairing
import MediaFormats

/// `LivePairer` as it was before its folders were paired with byte keys (main f633f7f, issue 17 item 3),
/// kept verbatim as the reference the byte-keyed pairer must equal on generated folders.
enum ReferencePairer {
    /// Longest movie a name-only pair accepts (Live Photo movies are about 3 s).
    static let maxProbableMovieSeconds = 6.0
    /// Largest difference of capture times a name-only pair accepts.
    static let maxProbableCaptureGapSeconds = 5.0

    /// The result depends only on the set of files, never on their order: the progressive scan, the index and
    /// the full scan hand them over in different orders and must show the same items.
    static func pair(_ files: [MediaFile]) -> [LibraryItem] {
        // One sort of the paths (keys per folder and per name, never a key per full path) gives each file its
        // rank; pairing identifies files by rank and the items are put in order by their primary file's rank,
        // so nothing is sorted or keyed by path strings a second time (issue 17 item 4).
        let ranked = RankedFiles(files: files, order: files.indices.sorted {
            NaturalOrder.less(files[$0].path, files[$1].path)
        })
        // Each folder is its files' ranks, not copies of the files: a flat folder of 100,000 held the files
        // five times over while it was paired (issue 17 item 4).
        var folderIndex: [String: Int] = [:]
        var folders: [[Int]] = []
        for rank in ranked.order.indices {
            let prefix = ranked[rank].folderPrefix
            if let known = folderIndex[prefix] {
                folders[known].append(rank)
            } else {
                folderIndex[prefix] = folders.count
                folders.append([rank])
            }
        }
        folderIndex = [:]
        var items: [LibraryItem] = []
        var ranks: [Int] = []
        items.reserveCapacity(files.count)
        ranks.reserveCapacity(files.count)
        var notes = LibraryItem.NotesSharing()
        for folder in folders.indices {
            pairFolder(folders[folder], of: ranked, into: &items, ranks: &ranks, notes: &notes)
            folders[folder] = []
        }
        // Put each item at its place by swaps (cycles of the permutation): sorting a copy kept two item arrays.
        var source = items.indices.sorted { ranks[$0] < ranks[$1] }
        for start in source.indices where source[start] != start {
            var current = start
            while source[current] != start {
                let next = source[current]
                items.swapAt(current, next)
                source[current] = current
                current = next
            }
            source[current] = current
        }
        return items
    }

    // MARK: one folder

    /// Appends the folder's items to `items` and the rank of each one's primary file to `ranks`. The folder's
    /// stills are handled as ranks (8 bytes each) into `files`: the lists of stills below were copies of the
    /// files (64 bytes each), four of them alive at once in a flat folder (issue 17 item 4).
    private static func pairFolder(_ folder: [Int], of files: RankedFiles, into items: inout [LibraryItem],
                                   ranks: inout [Int], notes: inout LibraryItem.NotesSharing) {
        func add(_ item: LibraryItem, primary: Int) {
            var item = item
            notes.share(&item)
            items.append(item)
            ranks.append(primary)
        }
        func entry(_ rank: Int) -> PairingEntry { PairingEntry(file: files[rank], rank: rank) }
        let stills = folder.filter { !files[$0].info.format.isMovie }
        let movies = folder.filter { files[$0].info.format.isMovie }.map(entry)
        var usedMovies = Set<Int>()
        var unpairedStills: [Int] = []

        // 1. By content identifier: within each identifier group, a still takes the movie of its own name,
        //    then the remaining stills take the remaining movies in name order.
        var stillsByID: [String: [Int]] = [:]
        // Identifier groups in order of their first still (a dictionary's order changes from run to run, and
        // it decides which leftover still gets a same-named movie).
        var idOrder: [String] = []
        for still in stills {
            guard let id = files[still].info.contentIdentifier.map(upper) else { continue }
            if stillsByID[id] == nil { idOrder.append(id) }
            stillsByID[id, default: []].append(still)
        }
        let moviesByID = Dictionary(grouping: movies.filter { $0.file.info.contentIdentifier != nil }) {
            upper($0.file.info.contentIdentifier!)
        }
        unpairedStills += stills.filter { files[$0].info.contentIdentifier == nil }
        for id in idOrder {
            guard let group = stillsByID[id] else { continue }
            // Ranks arrive in natural path order, and grouping keeps it.
            let groupStills = group
            var freeMovies = moviesByID[id] ?? []
            var assignment: [Int: PairingEntry] = [:]   // still rank -> movie
            if !freeMovies.isEmpty {
                var byName = NameMatch.index(freeMovies)
                var taken = Set<Int>()
                for still in groupStills {
                    for key in NameMatch.keys(for: files[still]) {
                        guard var list = byName[key], let movie = list.first else { continue }
                        list.removeFirst()
                        byName[key] = list
                        assignment[still] = movie
                        taken.insert(movie.rank)
                        break
                    }
                }
                freeMovies.removeAll { taken.contains($0.rank) }
                for still in groupStills where assignment[still] == nil && !freeMovies.isEmpty {
                    assignment[still] = freeMovies.removeFirst()
                }
            }
            for still in groupStills {
                guard let movie = assignment[still] else {
                    unpairedStills.append(still)
                    continue
                }
                usedMovies.insert(movie.rank)
                let stillFile = files[still]
                let shared = groupStills.count > 1
                    ? ["identifier \(id) is shared with " + namesOfOthers(groupStills, of: files, except: still)] : []
                add(LibraryItem(kind: .live, still: stillFile, movie: movie.file, contentIdentifier: id,
                                pairing: .contentIdentifier,
                                warnings: shared + problems(stillFile) + problems(movie.file)), primary: still)
            }
        }

        // 2. By name, when one side has no identifier. Movies are indexed by name so a folder of 10,000 files
        //    pairs in linear time.
        let moviesByName = NameMatch.index(movies)
        var stillsLeft: [Int] = []
        for still in unpairedStills {
            let stillFile = files[still]
            let candidates = NameMatch.candidates(for: stillFile, in: moviesByName).filter { !usedMovies.contains($0.rank) }
            if let movie = probableMovie(for: stillFile, among: candidates) {
                usedMovies.insert(movie.rank)
                add(LibraryItem(
                    kind: .live, still: stillFile, movie: movie.file,
                    contentIdentifier: stillFile.info.contentIdentifier ?? movie.file.info.contentIdentifier,
                    pairing: .probableByName,
                    warnings: ["paired by file name only (probable): one half has no content identifier"]
                        + problems(stillFile) + problems(movie.file)), primary: still)
            } else {
                stillsLeft.append(still)
            }
        }
        unpairedStills = []

        // 3. What is left stands alone, with warnings that say what is missing.
        for still in stillsLeft {
            add(standaloneStill(still, of: files, sameName: NameMatch.candidates(for: files[still], in: moviesByName),
                                stillsByID: stillsByID, moviesByID: moviesByID), primary: still)
        }
        for movie in movies where !usedMovies.contains(movie.rank) {
            add(standaloneMovie(movie.file, of: files, stillsByID: stillsByID), primary: movie.rank)
        }
    }

    private static func probableMovie(for still: MediaFile, among movies: [PairingEntry]) -> PairingEntry? {
        for entry in movies {
            let movie = entry.file
            let stillID = still.info.contentIdentifier.map(upper)
            let movieID = movie.info.contentIdentifier.map(upper)
            if let stillID, let movieID, stillID != movieID { continue }  // both known and different: never
            if stillID != nil && movieID != nil { continue }               // both known and equal: handled above
            guard let duration = movie.info.duration, duration <= maxProbableMovieSeconds else { continue }
            if let gap = CaptureTime.gapSeconds(still.info.captureDate, movie.info.captureDate),
               gap > maxProbableCaptureGapSeconds { continue }
            return entry
        }
        return nil
    }

    private static func standaloneStill(_ rank: Int, of files: RankedFiles, sameName: [PairingEntry],
                                        stillsByID: [String: [Int]],
                                        moviesByID: [String: [PairingEntry]]) -> LibraryItem {
        let still = files[rank]
        var warnings = problems(still)
        var liveOff: String?
        if still.info.embeddedMovie != nil {
            return LibraryItem(kind: .motion, still: still, contentIdentifier: still.info.contentIdentifier,
                               pairing: .embedded, warnings: warnings)
        }
        if still.info.problems.contains(where: { $0.message.hasPrefix("broken motion photo") }) {
            liveOff = "its embedded movie is broken"
        }
        if let id = still.info.contentIdentifier.map(upper) {
            let group = stillsByID[id] ?? []
            if group.count <= 1 {
                warnings.insert("Live Photo movie missing (identifier \(id))", at: 0)
                liveOff = "its movie is missing"
            } else if moviesByID[id]?.isEmpty ?? true {
                // Copies of one still and no movie with their identifier: each is a Live Photo without its movie.
                warnings.insert("Live Photo movie missing (identifier \(id), also in "
                                + namesOfOthers(group, of: files, except: rank) + ")", at: 0)
                liveOff = "its movie is missing"
            } else {
                warnings.insert("identifier \(id) is shared with " + namesOfOthers(group, of: files, except: rank)
                                + "; the movie is paired with another still", at: 0)
            }
        }
        for movie in sameName.lazy.map(\.file) {
            if let a = still.info.contentIdentifier.map(upper), let b = movie.info.contentIdentifier.map(upper),
               a != b {
                warnings.append("not paired with \(movie.fileName): content identifiers differ")
            }
        }
        return LibraryItem(kind: .still, still: still, contentIdentifier: still.info.contentIdentifier.map(upper),
                           warnings: warnings, liveOffReason: liveOff)
    }

    private static func standaloneMovie(_ movie: MediaFile, of files: RankedFiles, stillsByID: [String: [Int]]) -> LibraryItem {
        var warnings = problems(movie)
        if let id = movie.info.contentIdentifier.map(upper) {
            let sameID = stillsByID[id] ?? []
            if sameID.isEmpty {
                warnings.insert("Live Photo still missing (identifier \(id))", at: 0)
            } else {
                warnings.insert("another movie with identifier \(id) is already paired with "
                                + namesOfOthers(sameID, of: files, except: nil), at: 0)
            }
        }
        return LibraryItem(kind: .video, movie: movie, contentIdentifier: movie.info.contentIdentifier.map(upper),
                           warnings: warnings)
    }

    /// "a.jpg, b.jpg and 3 more": a folder of copies sharing one identifier must not make megabytes of warnings.
    /// `except`, when given, is a member of `files`. Stops after `limit` names: a group of thousands costs the
    /// same as a group of four.
    private static func namesOfOthers(_ ranks: [Int], of files: RankedFiles, except: Int?, limit: Int = 3) -> String {
        var names: [String] = []
        for rank in ranks where rank != except {
            names.append(files[rank].fileName)
            if names.count == limit { break }
        }
        let others = ranks.count - (except == nil ? 0 : 1)
        let more = others - names.count
        return names.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
    }

    /// `text` upper-cased, the same string (and heap buffer) when it already is, as Apple writes identifiers:
    /// `uppercased()` made a new 36-byte string for every item with an identifier.
    static func upper(_ text: String) -> String {
        text.utf8.contains { ($0 >= 0x61 && $0 <= 0x7A) || $0 >= 0x80 } ? text.uppercased() : text
    }

    /// Parse problems worth telling the user, prefixed with the file name, in plain words (each sentence
    /// once: a cut movie breaks several boxes). The parser's words stay in `MediaInfo.problems`.
    private static func problems(_ file: MediaFile) -> [String] {
        // Most files have nothing to say: no sets and arrays for them (this ran for every file of a scan).
        guard file.info.problems.contains(where: { $0.severity >= .warning }) else { return [] }
        var seen = Set<String>()
        let sentences = file.info.problems.filter { $0.severity >= .warning }
            .map { $0.plainSentence(format: file.info.format) }
            .filter { seen.insert($0).inserted }
        // A file cut short breaks whatever follows the cut: "ends early" says it all.
        let cut = sentences.first { $0.hasSuffix("the file ends early") }
        return (cut.map { [$0] + sentences.filter { !$0.hasPrefix("damaged ") } } ?? sentences)
            .map { "\(file.fileName): \($0)" }
    }
}

