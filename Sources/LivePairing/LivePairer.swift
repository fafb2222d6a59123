import MediaFormats

/// Pairs stills with movies into library items, the way the Photos app shows them: a Live Photo is one item.
///
/// Rules (see FIELD-NOTES.md, "Pairing Live Photos"):
/// - Pair by content identifier (still: Apple MakerNote 0x0011; movie: `com.apple.quicktime.content.identifier`),
///   and only within one folder, so deleting a pair never touches another folder's copy.
/// - Fall back to the base name only when one side has no identifier, and then only when the movie is short
///   and the capture times agree: such a pair is `probableByName`, never certain.
/// - Differing identifiers never pair, even with equal names. Every file stays visible: a half without its
///   partner, or a second still sharing an identifier, is its own item with a warning.
public enum LivePairer {
    /// Longest movie a name-only pair accepts (Live Photo movies are about 3 s).
    public static let maxProbableMovieSeconds = 6.0
    /// Largest difference of capture times a name-only pair accepts.
    public static let maxProbableCaptureGapSeconds = 5.0

    /// The result depends only on the set of files, never on their order: the progressive scan, the index and
    /// the full scan hand them over in different orders and must show the same items.
    public static func pair(_ files: [MediaFile]) -> [LibraryItem] {
        // One sort of the paths (keys per folder and per name, never a key per full path) gives each file its
        // rank; pairing identifies files by rank and the items are put in order by their primary file's rank,
        // so nothing is sorted or keyed by path strings a second time (issue 17 item 4).
        let ranked = RankedFiles(files: files, order: NaturalOrder.sortedIndices(files))
        // Each folder is its files' ranks, not copies of the files: a flat folder of 100,000 held the files
        // five times over while it was paired (issue 17 item 4). Ranks of one folder mostly follow each other:
        // the last folder is compared first (one shared prefix buffer: a pointer comparison), the table after.
        var folderIndex: [String: Int] = [:]
        var folders: [[Int]] = []
        var lastPrefix: String?
        var lastFolder = 0
        for rank in ranked.order.indices {
            let prefix = ranked.files[ranked.order[rank]].folderPrefix
            if let lastPrefix, lastPrefix == prefix {
                folders[lastFolder].append(rank)
                continue
            }
            if let known = folderIndex[prefix] {
                lastFolder = known
            } else {
                lastFolder = folders.count
                folderIndex[prefix] = folders.count
                folders.append([])
            }
            folders[lastFolder].append(rank)
            lastPrefix = prefix
        }
        folderIndex = [:]
        var items: [LibraryItem] = []
        var ranks: [Int] = []
        items.reserveCapacity(files.count)
        ranks.reserveCapacity(files.count)
        var notes = LibraryItem.NotesSharing()
        var scratch = FolderPairingScratch()
        for folder in folders.indices {
            if !pairFolderByBytes(folders[folder], of: ranked, into: &items, ranks: &ranks, notes: &notes,
                                  scratch: &scratch) {
                pairFolderByStrings(folders[folder], of: ranked, into: &items, ranks: &ranks, notes: &notes)
            }
            folders[folder] = []
        }
        // Put each item at its place by swaps (cycles of the permutation): sorting a copy kept two item arrays.
        // Every item has its own primary rank below `files.count`, so the permutation is a counting placement.
        var itemOfRank = [Int32](repeating: -1, count: files.count)
        for item in ranks.indices { itemOfRank[ranks[item]] = Int32(item) }
        var source: [Int] = []
        source.reserveCapacity(items.count)
        for item in itemOfRank where item >= 0 { source.append(Int(item)) }
        itemOfRank = []
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

    /// Appends the folder's items to `items` and the rank of each one's primary file to `ranks`, comparing names
    /// and identifiers as Strings: the path of folders with non-ASCII names or identifiers (the others take
    /// `pairFolderByBytes`, which decides the same way with byte keys). The folder's
    /// stills are handled as ranks (8 bytes each) into `files`: the lists of stills below were copies of the
    /// files (64 bytes each), four of them alive at once in a flat folder (issue 17 item 4).
    static func pairFolderByStrings(_ folder: [Int], of files: RankedFiles, into items: inout [LibraryItem],
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
                    ? ["identifier \(id) is shared with " + namesOfOthers(groupStills, count: groupStills.count, of: files, except: still)] : []
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
        var sentences = ProblemSentences()
        for still in stillsLeft {
            let stillFile = files[still]
            let id = stillFile.info.contentIdentifier.map(upper)
            let group = id.map { stillsByID[$0] ?? [] } ?? []
            var differing: [String] = []
            for movie in NameMatch.candidates(for: stillFile, in: moviesByName).lazy.map(\.file) {
                if let a = id, let b = movie.info.contentIdentifier.map(upper), a != b { differing.append(movie.fileName) }
            }
            add(standaloneStill(stillFile, groupSize: group.count,
                                groupHasMovies: !(id.flatMap { moviesByID[$0]?.isEmpty } ?? true),
                                others: { namesOfOthers(group, count: group.count, of: files, except: still) },
                                differingMovieNames: differing, sentences: &sentences), primary: still)
        }
        for movie in movies where !usedMovies.contains(movie.rank) {
            let sameID = movie.file.info.contentIdentifier.map(upper).map { stillsByID[$0] ?? [] } ?? []
            add(standaloneMovie(movie.file, hasStills: !sameID.isEmpty,
                                stillNames: { namesOfOthers(sameID, count: sameID.count, of: files, except: nil) },
                                sentences: &sentences),
                primary: movie.rank)
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

    /// A still without its movie: a Motion Photo, or a still whose warnings say what is missing. `groupSize`
    /// is the number of stills with its identifier (itself included), `others` their names but its own,
    /// `differingMovieNames` the movies of its name whose identifier differs from its own.
    static func standaloneStill(_ still: MediaFile, groupSize: Int, groupHasMovies: Bool, others: () -> String,
                                differingMovieNames: [String], sentences: inout ProblemSentences) -> LibraryItem {
        var warnings = problems(still, sentences: &sentences)
        var liveOff: String?
        if still.info.embeddedMovie != nil {
            return LibraryItem(kind: .motion, still: still, contentIdentifier: still.info.contentIdentifier,
                               pairing: .embedded, warnings: warnings)
        }
        if still.info.problems.contains(where: { $0.message.hasPrefix("broken motion photo") }) {
            liveOff = "its embedded movie is broken"
        }
        let id = still.info.contentIdentifier.map(upper)
        if let id {
            if groupSize <= 1 {
                warnings.insert("Live Photo movie missing (identifier \(id))", at: 0)
                liveOff = "its movie is missing"
            } else if !groupHasMovies {
                // Copies of one still and no movie with their identifier: each is a Live Photo without its movie.
                warnings.insert("Live Photo movie missing (identifier \(id), also in " + others() + ")", at: 0)
                liveOff = "its movie is missing"
            } else {
                warnings.insert("identifier \(id) is shared with " + others()
                                + "; the movie is paired with another still", at: 0)
            }
        }
        for name in differingMovieNames {
            warnings.append("not paired with \(name): content identifiers differ")
        }
        return LibraryItem(kind: .still, still: still, contentIdentifier: id, warnings: warnings, liveOffReason: liveOff)
    }

    /// A movie without its still; `stillNames` names the stills with its identifier when `hasStills`.
    static func standaloneMovie(_ movie: MediaFile, hasStills: Bool, stillNames: () -> String,
                                sentences: inout ProblemSentences) -> LibraryItem {
        var warnings = problems(movie, sentences: &sentences)
        let id = movie.info.contentIdentifier.map(upper)
        if let id {
            if !hasStills {
                warnings.insert("Live Photo still missing (identifier \(id))", at: 0)
            } else {
                warnings.insert("another movie with identifier \(id) is already paired with " + stillNames(), at: 0)
            }
        }
        return LibraryItem(kind: .video, movie: movie, contentIdentifier: id, warnings: warnings)
    }

    /// "a.jpg, b.jpg and 3 more": a folder of copies sharing one identifier must not make megabytes of warnings.
    /// `except`, when given, is a member of `files`. Stops after `limit` names: a group of thousands costs the
    /// same as a group of four.
    /// How many names `namesOfOthers` lists.
    static let othersListed = 3

    static func namesOfOthers(_ ranks: some Sequence<Int>, count: Int, of files: RankedFiles, except: Int?,
                              limit: Int = othersListed) -> String {
        var names: [String] = []
        for rank in ranks where rank != except {
            names.append(files[rank].fileName)
            if names.count == limit { break }
        }
        let others = count - (except == nil ? 0 : 1)
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
    static func problems(_ file: MediaFile) -> [String] {
        var sentences = ProblemSentences()
        return problems(file, sentences: &sentences)
    }

    static func problems(_ file: MediaFile, sentences memo: inout ProblemSentences) -> [String] {
        // Most files have nothing to say: no sets and arrays for them (this ran for every file of a scan).
        guard file.info.problems.contains(where: { $0.severity >= .warning }) else { return [] }
        // Each sentence once, in order of first saying (a file has a handful: a list beats a set).
        var sentences: [String] = []
        let format = file.info.format
        for problem in file.info.problems where problem.severity >= .warning {
            let sentence = memo.sentence(problem, format: format)
            if !sentences.contains(sentence) { sentences.append(sentence) }
        }
        // A file cut short breaks whatever follows the cut: "ends early" says it all.
        let cut = sentences.first { $0.hasSuffix("the file ends early") }
        let name = file.fileName
        return (cut.map { [$0] + sentences.filter { !$0.hasPrefix("damaged ") } } ?? sentences)
            .map { "\(name): \($0)" }
    }

}

/// Plain sentences of parse problems made so far in a folder: copies of one damaged file say the same, and
/// making a sentence (lower-casing and searching the parser's message) was most of a warned item's pairing.
struct ProblemSentences {
    private var made: [(problem: ParseProblem, format: ContainerFormat, sentence: String)] = []

    mutating func sentence(_ problem: ParseProblem, format: ContainerFormat) -> String {
        for entry in made where entry.format == format && entry.problem == problem { return entry.sentence }
        let sentence = problem.plainSentence(format: format)
        if made.count < 16 { made.append((problem, format, sentence)) }
        return sentence
    }
}

/// The files being paired, reached by rank (position in the natural order of their paths): one array of files
/// shared by every folder's list of ranks.
struct RankedFiles {
    let files: [MediaFile]
    /// `order[rank]` is the position in `files` of the file of that rank.
    let order: [Int]
    subscript(rank: Int) -> MediaFile { files[order[rank]] }
}
