import MediaFormats

/// Buffers of the byte-keyed folder pairing, kept across the folders of one `LivePairer.pair` call so a
/// folder costs no allocations but its items' (issue 17 item 3).
struct FolderPairingScratch {
    /// Lower-cased base names, back to back, and each local file's range in it.
    var names: [UInt8] = []
    var nameStart: [Int32] = []
    var nameLength: [Int32] = []
    var nameHash: [UInt64] = []
    /// Upper-cased identifiers, back to back; `idLength` -1: the file has no identifier.
    var ids: [UInt8] = []
    var idStart: [Int32] = []
    var idLength: [Int32] = []
    var isMovie: [Bool] = []
    var sentences = ProblemSentences()

    mutating func reset() {
        names.removeAll(keepingCapacity: true)
        nameStart.removeAll(keepingCapacity: true)
        nameLength.removeAll(keepingCapacity: true)
        nameHash.removeAll(keepingCapacity: true)
        ids.removeAll(keepingCapacity: true)
        idStart.removeAll(keepingCapacity: true)
        idLength.removeAll(keepingCapacity: true)
        isMovie.removeAll(keepingCapacity: true)
    }
}

extension LivePairer {
    /// The movie name suffixes of `NameMatch.movieSuffixes`, as bytes, in the same order.
    private static let suffixBytes: [[UInt8]] = NameMatch.movieSuffixes.map { Array($0.utf8) }

    /// `pairFolderByStrings` of one folder with byte keys: identifiers and base names become bytes in two
    /// buffers, grouped through `ByteKeyTable`s, and the groups and name matches are flat arrays of local
    /// indices. The same decisions in the same order, so the same items; false (nothing appended) when a
    /// folder has a name or identifier that is not ASCII, or an empty name, where only String's comparison
    /// (canonical equivalence, Unicode case mapping) decides equality: those folders take the String path.
    static func pairFolderByBytes(_ folder: [Int], of files: RankedFiles, into items: inout [LibraryItem],
                                  ranks: inout [Int], notes: inout LibraryItem.NotesSharing,
                                  scratch s: inout FolderPairingScratch) -> Bool {
        s.reset()
        let count = folder.count
        guard count < Int(Int32.max) / 2 else { return false }
        var movieCount = 0, idCount = 0
        for rank in folder {
            let index = files.order[rank]
            let isMovie = files.files[index].info.format.isMovie
            guard appendBaseName(files.files[index].name, to: &s) else { return false }
            s.isMovie.append(isMovie)
            if isMovie { movieCount += 1 }
            // Read in place: a library's facts keep an identifier as a number (`MediaInfo.compacted()`), and
            // its text would be a heap string per file.
            if let appended = files.files[index].info.withContentIdentifierUTF8({ appendIdentifier($0, to: &s) }) {
                guard appended else { return false }
                idCount += 1
            } else {
                s.idStart.append(0)
                s.idLength.append(-1)
            }
        }
        guard s.names.count < Int(Int32.max), s.ids.count < Int(Int32.max) else { return false }

        // Identifier groups: stills first, so group numbers are the order of each identifier's first still
        // (`idOrder` of the String path); then movies, whose identifiers no still has get later numbers.
        var group = [Int32](repeating: -1, count: count)
        var stillGroupCount = 0, groupCount = 0
        if idCount > 0 {
            var table = ByteKeyTable(count: idCount)
            s.ids.withUnsafeBufferPointer { ids in
                for moviesPass in [false, true] {
                    for i in 0..<count where s.isMovie[i] == moviesPass && s.idLength[i] >= 0 {
                        let start = Int(s.idStart[i]), length = Int(s.idLength[i])
                        let hash = ByteKeyTable.hash(UnsafeBufferPointer(rebasing: ids[start..<start + length]))
                        let g = table.insert(Int32(groupCount), hash: hash, start: start, length: length, in: ids)
                        if Int(g) == groupCount { groupCount += 1 }
                        group[i] = g
                    }
                    if !moviesPass { stillGroupCount = groupCount }
                }
            }
        }
        // Each group's stills and movies in rank order, as runs of two flat arrays.
        let (groupStills, groupStillStart) = runs(of: group, count: groupCount) { !s.isMovie[$0] }
        let (groupMovies, groupMovieStart) = runs(of: group, count: groupCount) { s.isMovie[$0] }

        // Movies by lower-cased base name, each name's movies in rank order.
        var nameTable = ByteKeyTable(count: movieCount)
        var nameOfMovie = [Int32](repeating: -1, count: count)
        var nameCount = 0
        if movieCount > 0 {
            s.names.withUnsafeBufferPointer { names in
                for i in 0..<count where s.isMovie[i] {
                    let start = Int(s.nameStart[i])
                    let key = nameTable.insert(Int32(nameCount), hash: s.nameHash[i], start: start,
                                               length: Int(s.nameLength[i]), in: names)
                    if Int(key) == nameCount { nameCount += 1 }
                    nameOfMovie[i] = key
                }
            }
        }
        let (moviesOfName, nameRunStart) = runs(of: nameOfMovie, count: nameCount) { _ in true }

        /// Calls `body` with each movie whose base name is the still's followed by a suffix, best suffix first,
        /// then in rank order (`NameMatch.candidates`), until it answers false.
        func forEachSameName(_ still: Int, _ body: (Int) -> Bool) {
            guard nameCount > 0 else { return }
            s.names.withUnsafeBufferPointer { names in
                for suffix in suffixBytes {
                    let name = suffix.withUnsafeBufferPointer { tail -> Int32 in
                        nameTable.value(hash: ByteKeyTable.hash(tail, from: s.nameHash[still]),
                                        start: Int(s.nameStart[still]), length: Int(s.nameLength[still]),
                                        tail: tail, in: names)
                    }
                    guard name >= 0 else { continue }
                    for m in moviesOfName[nameRunStart[Int(name)]..<nameRunStart[Int(name) + 1]] where !body(m) {
                        return
                    }
                }
            }
        }
        func add(_ item: LibraryItem, primary local: Int) {
            var item = item
            notes.share(&item)
            items.append(item)
            ranks.append(folder[local])
        }
        func stillsOf(_ g: Int32) -> ArraySlice<Int> { groupStills[groupStillStart[Int(g)]..<groupStillStart[Int(g) + 1]] }
        // The names of a group's other stills are its first three's for every still but those three: made once
        // per group (copies of one still, thousands to a group, each made the same sentence).
        var othersOfRest = [String?](repeating: nil, count: groupCount)
        var othersOfAll = [String?](repeating: nil, count: groupCount)
        func others(_ g: Int32, except: Int?) -> String {
            let members = stillsOf(g)
            func make() -> String {
                namesOfOthers(members.lazy.map { folder[$0] }, count: members.count, of: files,
                              except: except.map { folder[$0] })
            }
            guard let except else {
                if let made = othersOfAll[Int(g)] { return made }
                let made = make()
                othersOfAll[Int(g)] = made
                return made
            }
            if members.prefix(othersListed).contains(except) { return make() }
            if let made = othersOfRest[Int(g)] { return made }
            let made = make()
            othersOfRest[Int(g)] = made
            return made
        }

        // 1. By content identifier, group by group in the order of their first still.
        var used = [Bool](repeating: false, count: count)
        var unpaired: [Int] = []
        for i in 0..<count where !s.isMovie[i] && s.idLength[i] < 0 { unpaired.append(i) }
        var assigned = [Int32](repeating: -1, count: count)
        for g in 0..<stillGroupCount {
            let stills = groupStills[groupStillStart[g]..<groupStillStart[g + 1]]
            let movies = groupMovies[groupMovieStart[g]..<groupMovieStart[g + 1]]
            if movies.isEmpty {
                unpaired.append(contentsOf: stills)
                continue
            }
            // A still takes the first free movie of its own name (best suffix first), then the stills left take
            // the movies left in rank order.
            for still in stills {
                forEachSameName(still) { movie in
                    guard group[movie] == Int32(g), !used[movie] else { return true }
                    assigned[still] = Int32(movie)
                    used[movie] = true
                    return false
                }
            }
            var next = movies.startIndex
            for still in stills where assigned[still] < 0 {
                while next < movies.endIndex, used[movies[next]] { next += 1 }
                guard next < movies.endIndex else { break }
                assigned[still] = Int32(movies[next])
                used[movies[next]] = true
            }
            for still in stills {
                guard assigned[still] >= 0 else {
                    unpaired.append(still)
                    continue
                }
                let movie = Int(assigned[still])
                let stillFile = files[folder[still]], movieFile = files[folder[movie]]
                let id = upper(stillFile.info.contentIdentifier ?? "")
                let shared = stills.count > 1
                    ? ["identifier \(id) is shared with " + others(Int32(g), except: still)] : []
                add(LibraryItem(kind: .live, still: stillFile, movie: movieFile, contentIdentifier: id,
                                pairing: .contentIdentifier,
                                warnings: shared + problems(stillFile, sentences: &s.sentences) + problems(movieFile, sentences: &s.sentences)), primary: still)
            }
        }

        // 2. By name, when one side has no identifier.
        var left: [Int] = []
        for still in unpaired {
            let stillFile = files[folder[still]]
            var found = -1
            forEachSameName(still) { movie in
                guard !used[movie] else { return true }
                if s.idLength[still] >= 0 && s.idLength[movie] >= 0 { return true }  // both known: never here
                let movieInfo = files.files[files.order[folder[movie]]].info
                guard let duration = movieInfo.duration, duration <= maxProbableMovieSeconds else { return true }
                if let gap = CaptureTime.gapSeconds(stillFile.info.captureDate, movieInfo.captureDate),
                   gap > maxProbableCaptureGapSeconds { return true }
                found = movie
                return false
            }
            guard found >= 0 else {
                left.append(still)
                continue
            }
            used[found] = true
            let movieFile = files[folder[found]]
            add(LibraryItem(
                kind: .live, still: stillFile, movie: movieFile,
                contentIdentifier: stillFile.info.contentIdentifier ?? movieFile.info.contentIdentifier,
                pairing: .probableByName,
                warnings: ["paired by file name only (probable): one half has no content identifier"]
                    + problems(stillFile, sentences: &s.sentences) + problems(movieFile, sentences: &s.sentences)), primary: still)
        }

        // 3. What is left stands alone.
        for still in left {
            let g = group[still]
            var differing: [String] = []
            if g >= 0 {
                forEachSameName(still) { movie in
                    if group[movie] >= 0, group[movie] != g { differing.append(files[folder[movie]].fileName) }
                    return true
                }
            }
            add(standaloneStill(files[folder[still]], groupSize: g >= 0 ? stillsOf(g).count : 0,
                                groupHasMovies: g >= 0 && groupMovieStart[Int(g) + 1] > groupMovieStart[Int(g)],
                                others: { others(g, except: still) }, differingMovieNames: differing,
                                sentences: &s.sentences),
                primary: still)
        }
        for movie in 0..<count where s.isMovie[movie] && !used[movie] {
            let g = group[movie]
            add(standaloneMovie(files[folder[movie]], hasStills: g >= 0 && !stillsOf(g).isEmpty,
                                stillNames: { others(g, except: nil) }, sentences: &s.sentences), primary: movie)
        }
        return true
    }

    /// The local indices with a key (`keyOf[i]` >= 0) that pass `include`, as one run per key in index order:
    /// `start[key]..<start[key + 1]` of the answer's array (a counting sort).
    private static func runs(of keyOf: [Int32], count: Int, include: (Int) -> Bool) -> ([Int], [Int]) {
        var start = [Int](repeating: 0, count: count + 1)
        for i in keyOf.indices where keyOf[i] >= 0 && include(i) { start[Int(keyOf[i]) + 1] += 1 }
        for key in 0..<count { start[key + 1] += start[key] }
        var next = start
        var members = [Int](repeating: 0, count: start[count])
        for i in keyOf.indices where keyOf[i] >= 0 && include(i) {
            members[next[Int(keyOf[i])]] = i
            next[Int(keyOf[i])] += 1
        }
        return (members, start)
    }

    /// Appends `name`'s base name (`MediaFile.baseName`) lower-cased; false when it is empty or not ASCII.
    private static func appendBaseName(_ name: String, to s: inout FolderPairingScratch) -> Bool {
        withBytes(name) { bytes -> Bool in
            guard !bytes.isEmpty else { return false }
            var end = bytes.count
            var i = bytes.count - 1
            while i > 0 {
                if bytes[i] == UInt8(ascii: ".") { end = i; break }
                i -= 1
            }
            for byte in bytes where byte >= 0x80 { return false }
            let start = s.names.count
            // Copied in one piece, then lower-cased in place: appending byte by byte checked the array's
            // uniqueness and capacity for every byte.
            s.names.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<end]))
            s.names.withUnsafeMutableBufferPointer { names in
                for i in start..<names.count where names[i] >= 0x41 && names[i] <= 0x5A { names[i] += 32 }
            }
            s.nameStart.append(Int32(truncatingIfNeeded: start))
            s.nameLength.append(Int32(truncatingIfNeeded: end))
            s.nameHash.append(s.names.withUnsafeBufferPointer { ByteKeyTable.hash(UnsafeBufferPointer(rebasing: $0[start...])) })
            return true
        }
    }

    /// Appends `id` upper-cased (`upper`); false when it is not ASCII.
    private static func appendIdentifier(_ bytes: UnsafeBufferPointer<UInt8>, to s: inout FolderPairingScratch) -> Bool {
        let start = s.ids.count
        for byte in bytes where byte >= 0x80 { return false }
        s.ids.append(contentsOf: bytes)
        s.ids.withUnsafeMutableBufferPointer { ids in
            for i in start..<ids.count where ids[i] >= 0x61 && ids[i] <= 0x7A { ids[i] -= 32 }
        }
        s.idStart.append(Int32(truncatingIfNeeded: start))
        s.idLength.append(Int32(truncatingIfNeeded: bytes.count))
        return true
    }

    /// `body` with the UTF-8 bytes of `text`, without copying a native string's.
    @inline(__always)
    private static func withBytes<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }
}
