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
        var byFolder: [String: [MediaFile]] = [:]
        var folderOrder: [String] = []
        for index in NaturalOrder.sortedIndices(files.map(\.path)) {
            let file = files[index]
            let folder = folderOf(file.path)
            if byFolder[folder] == nil { folderOrder.append(folder) }
            byFolder[folder, default: []].append(file)
        }
        var items: [LibraryItem] = []
        for folder in folderOrder {
            items += pairFolder(byFolder[folder] ?? [])
        }
        // Sort indices by precomputed keys, then move each item once: sorting the items themselves compared
        // paths scalar by scalar and moved whole structs (retain/release) at every step.
        let order = NaturalOrder.sortedIndices(items.map { $0.primary.path })
        return order.map { items[$0] }
    }

    // MARK: one folder

    private static func pairFolder(_ files: [MediaFile]) -> [LibraryItem] {
        let stills = files.filter { !$0.info.format.isMovie }
        let movies = files.filter { $0.info.format.isMovie }
        var items: [LibraryItem] = []
        var usedMovies = Set<String>()
        var unpairedStills: [MediaFile] = []

        // 1. By content identifier: within each identifier group, a still takes the movie of its own name,
        //    then the remaining stills take the remaining movies in name order.
        let stillsByID = Dictionary(grouping: stills.filter { $0.info.contentIdentifier != nil }) {
            $0.info.contentIdentifier!.uppercased()
        }
        let moviesByID = Dictionary(grouping: movies.filter { $0.info.contentIdentifier != nil }) {
            $0.info.contentIdentifier!.uppercased()
        }
        unpairedStills += stills.filter { $0.info.contentIdentifier == nil }
        // Identifier groups in order of their first still (a dictionary's order changes from run to run, and
        // it decides which leftover still gets a same-named movie).
        var seenIDs = Set<String>()
        let idOrder = stills.compactMap { $0.info.contentIdentifier?.uppercased() }.filter { seenIDs.insert($0).inserted }
        for id in idOrder {
            guard let group = stillsByID[id] else { continue }
            let groupStills = group.sorted { NaturalOrder.less($0.path, $1.path) }
            var freeMovies = (moviesByID[id] ?? []).sorted { NaturalOrder.less($0.path, $1.path) }
            var assignment: [String: MediaFile] = [:]
            if !freeMovies.isEmpty {
                var byName = NameMatch.index(freeMovies)
                var taken = Set<String>()
                for still in groupStills {
                    for key in NameMatch.keys(for: still) {
                        guard var list = byName[key], let movie = list.first else { continue }
                        list.removeFirst()
                        byName[key] = list
                        assignment[still.path] = movie
                        taken.insert(movie.path)
                        break
                    }
                }
                freeMovies.removeAll { taken.contains($0.path) }
                for still in groupStills where assignment[still.path] == nil && !freeMovies.isEmpty {
                    assignment[still.path] = freeMovies.removeFirst()
                }
            }
            for still in groupStills {
                guard let movie = assignment[still.path] else {
                    unpairedStills.append(still)
                    continue
                }
                usedMovies.insert(movie.path)
                let shared = groupStills.count > 1
                    ? ["identifier \(id) is shared with " + namesOfOthers(groupStills, except: still)] : []
                items.append(LibraryItem(kind: .live, still: still, movie: movie, contentIdentifier: id,
                                         pairing: .contentIdentifier,
                                         warnings: shared + problems(still) + problems(movie)))
            }
        }

        // 2. By name, when one side has no identifier. Movies are indexed by name so a folder of 10,000 files
        //    pairs in linear time.
        let moviesByName = NameMatch.index(movies)
        var stillsLeft: [MediaFile] = []
        for still in unpairedStills {
            let candidates = NameMatch.candidates(for: still, in: moviesByName).filter { !usedMovies.contains($0.path) }
            if let movie = probableMovie(for: still, among: candidates) {
                usedMovies.insert(movie.path)
                items.append(LibraryItem(
                    kind: .live, still: still, movie: movie,
                    contentIdentifier: still.info.contentIdentifier ?? movie.info.contentIdentifier,
                    pairing: .probableByName,
                    warnings: ["paired by file name only (probable): one half has no content identifier"]
                        + problems(still) + problems(movie)))
            } else {
                stillsLeft.append(still)
            }
        }

        // 3. What is left stands alone, with warnings that say what is missing.
        for still in stillsLeft {
            items.append(standaloneStill(still, sameName: NameMatch.candidates(for: still, in: moviesByName),
                                         stillsByID: stillsByID, moviesByID: moviesByID))
        }
        for movie in movies where !usedMovies.contains(movie.path) {
            items.append(standaloneMovie(movie, stillsByID: stillsByID))
        }
        return items
    }

    private static func probableMovie(for still: MediaFile, among movies: [MediaFile]) -> MediaFile? {
        for movie in movies {
            let stillID = still.info.contentIdentifier?.uppercased()
            let movieID = movie.info.contentIdentifier?.uppercased()
            if let stillID, let movieID, stillID != movieID { continue }  // both known and different: never
            if stillID != nil && movieID != nil { continue }               // both known and equal: handled above
            guard let duration = movie.info.duration, duration <= maxProbableMovieSeconds else { continue }
            if let gap = CaptureTime.gapSeconds(still.info.captureDate, movie.info.captureDate),
               gap > maxProbableCaptureGapSeconds { continue }
            return movie
        }
        return nil
    }

    private static func standaloneStill(_ still: MediaFile, sameName: [MediaFile],
                                        stillsByID: [String: [MediaFile]],
                                        moviesByID: [String: [MediaFile]]) -> LibraryItem {
        var warnings = problems(still)
        var liveOff: String?
        if still.info.embeddedMovie != nil {
            return LibraryItem(kind: .motion, still: still, contentIdentifier: still.info.contentIdentifier,
                               pairing: .embedded, warnings: warnings)
        }
        if still.info.problems.contains(where: { $0.message.hasPrefix("broken motion photo") }) {
            liveOff = "its embedded movie is broken"
        }
        if let id = still.info.contentIdentifier?.uppercased() {
            let group = stillsByID[id] ?? []
            if group.count <= 1 {
                warnings.insert("Live Photo movie missing (identifier \(id))", at: 0)
                liveOff = "its movie is missing"
            } else if moviesByID[id]?.isEmpty ?? true {
                // Copies of one still and no movie with their identifier: each is a Live Photo without its movie.
                warnings.insert("Live Photo movie missing (identifier \(id), also in "
                                + namesOfOthers(group, except: still) + ")", at: 0)
                liveOff = "its movie is missing"
            } else {
                warnings.insert("identifier \(id) is shared with " + namesOfOthers(group, except: still)
                                + "; the movie is paired with another still", at: 0)
            }
        }
        for movie in sameName {
            if let a = still.info.contentIdentifier?.uppercased(), let b = movie.info.contentIdentifier?.uppercased(),
               a != b {
                warnings.append("not paired with \(movie.fileName): content identifiers differ")
            }
        }
        return LibraryItem(kind: .still, still: still, contentIdentifier: still.info.contentIdentifier?.uppercased(),
                           warnings: warnings, liveOffReason: liveOff)
    }

    private static func standaloneMovie(_ movie: MediaFile, stillsByID: [String: [MediaFile]]) -> LibraryItem {
        var warnings = problems(movie)
        if let id = movie.info.contentIdentifier?.uppercased() {
            let sameID = stillsByID[id] ?? []
            if sameID.isEmpty {
                warnings.insert("Live Photo still missing (identifier \(id))", at: 0)
            } else {
                warnings.insert("another movie with identifier \(id) is already paired with "
                                + namesOfOthers(sameID, except: nil), at: 0)
            }
        }
        return LibraryItem(kind: .video, movie: movie, contentIdentifier: movie.info.contentIdentifier?.uppercased(),
                           warnings: warnings)
    }

    /// "a.jpg, b.jpg and 3 more": a folder of copies sharing one identifier must not make megabytes of warnings.
    /// `except`, when given, is a member of `files`. Stops after `limit` names: a group of thousands costs the
    /// same as a group of four.
    private static func namesOfOthers(_ files: [MediaFile], except: MediaFile?, limit: Int = 3) -> String {
        var names: [String] = []
        for file in files where file.path != except?.path {
            names.append(file.fileName)
            if names.count == limit { break }
        }
        let others = files.count - (except == nil ? 0 : 1)
        let more = others - names.count
        return names.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
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

    private static func folderOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }
}
