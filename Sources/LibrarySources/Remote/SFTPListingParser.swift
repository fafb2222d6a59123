import Foundation
import LibraryCore

/// Reads an SFTP directory from the two listings libcurl gives: the servers' `ls -l`-style long names (type,
/// size, date, then the name; libcurl appends ` -> target` to links) and the bare names (`DIRLISTONLY`), one
/// entry per line in both.
///
/// A name containing a line break splits into two lines in both listings, and its second half could be made
/// to look like another entry. So every long line must parse and its name must also be a line of the names
/// listing; a line that fails either test is refused, together with the entry just before it (the first
/// half of the broken name). Names then pass `RemoteEntryValidator.checkName` exactly as HTTP names do.
public enum SFTPListingParser {
    public static func parse(long: [UInt8], names: [UInt8], baseURL: URL) -> RemoteListing {
        var listing = RemoteListing(baseURL: baseURL, format: .sftp)
        let nameLines = Set(lines(names))
        /// Index in `listing.entries` of the entry parsed from the previous line, if that line was accepted.
        var previous: Int?
        func refusePrevious() {
            guard let index = previous else { return }
            let entry = listing.entries.remove(at: index)
            listing.links[entry.name] = nil
            listing.rejected.append(RejectedRemoteEntry(raw: entry.name, reason: "line break in name"))
            previous = nil
        }
        for line in lines(long) {
            guard let parsed = parseLongLine(line) else {
                listing.rejected.append(RejectedRemoteEntry(raw: line, reason: "unreadable listing line (line break in a name?)"))
                refusePrevious()
                continue
            }
            var name = parsed.rest
            if parsed.type == "l" {
                // `name -> target`: the longest listed name the line starts with (names may contain " -> ").
                name = nameLines.filter { parsed.rest.hasPrefix($0 + " -> ") }.max { $0.count < $1.count } ?? parsed.rest
            }
            guard nameLines.contains(name) else {
                listing.rejected.append(RejectedRemoteEntry(raw: name, reason: "not in the names listing (line break in a name?)"))
                refusePrevious()
                continue
            }
            previous = nil
            if name == "." || name == ".." { continue }
            guard ["-", "d", "l"].contains(parsed.type) else { continue }   // devices, sockets, pipes: not photos
            switch RemoteEntryValidator.checkName(decoded: name) {
            case .failure(let problem):
                listing.rejected.append(RejectedRemoteEntry(raw: name, reason: problem.message))
            case .success(let checked):
                let isDirectory = parsed.type == "d"
                guard let url = entryURL(checked, isDirectory: isDirectory, in: baseURL) else {
                    listing.rejected.append(RejectedRemoteEntry(raw: name, reason: "cannot form a URL"))
                    continue
                }
                // A link's own size is the length of its target's name: unknown for our purposes.
                listing.append(RemoteEntry(name: checked, url: url, isDirectory: isDirectory,
                                                   size: parsed.type == "-" ? parsed.size : nil,
                                                   modificationTime: parsed.date))
                if parsed.type == "l", parsed.rest.count > name.count + 4 {
                    listing.links[checked] = String(parsed.rest.dropFirst(name.count + 4))
                }
                previous = listing.entries.count - 1
            }
        }
        return listing
    }

    /// Lines as the bytes say, split on "\n" only (a "\r" stays in the name, where checkName refuses it).
    static func lines(_ bytes: [UInt8]) -> [String] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    struct LongLine: Equatable {
        var type: Character
        var size: UInt64
        var date: Date?
        /// The name (and ` -> target` for links).
        var rest: String
    }

    // `-rw-r--r--    1 user     group     3478530 Nov 24 19:49 name` (OpenSSH: "%b %e %H:%M" or "%b %e  %Y",
    // then one space; the name is everything after it, leading spaces included).
    private static let pattern = try! NSRegularExpression(  // a literal pattern: cannot fail
        pattern: #"^([-dlbcps])[-rwxsStTl]{9}[.+@]?\s+\d+\s+\S+\s+\S+\s+(\d+)\s+([A-Za-z]{3})\s+(\d{1,2})\s+(\d{1,2}:\d{2}|\d{4}) (.+)$"#,
        options: [.dotMatchesLineSeparators])

    static func parseLongLine(_ line: String) -> LongLine? {
        let ns = line as NSString
        guard let match = pattern.firstMatch(in: line, range: NSRange(location: 0, length: ns.length)),
              let type = ns.substring(with: match.range(at: 1)).first,
              let size = UInt64(ns.substring(with: match.range(at: 2))) else { return nil }
        let date = parseDate(month: ns.substring(with: match.range(at: 3)), day: ns.substring(with: match.range(at: 4)),
                             timeOrYear: ns.substring(with: match.range(at: 5)))
        return LongLine(type: type, size: size, date: date, rest: ns.substring(with: match.range(at: 6)))
    }

    /// `ls` dates have no zone and, for recent files, no year: the year is this one unless that would be in
    /// the future. Approximate on purpose: the exact time comes with each download (SFTP's mtime).
    static func parseDate(month: String, day: String, timeOrYear: String, now: Date = Date()) -> Date? {
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        guard let monthIndex = months.firstIndex(of: month.lowercased()), let dayNumber = Int(day) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        var parts = DateComponents(month: monthIndex + 1, day: dayNumber)
        if timeOrYear.contains(":") {
            let hm = timeOrYear.split(separator: ":").compactMap { Int($0) }
            guard hm.count == 2 else { return nil }
            parts.hour = hm[0]
            parts.minute = hm[1]
            parts.year = calendar.component(.year, from: now)
            if let date = calendar.date(from: parts), date > now.addingTimeInterval(86_400) { parts.year = (parts.year ?? 1970) - 1 }
        } else {
            parts.year = Int(timeOrYear)
        }
        return calendar.date(from: parts)
    }

    /// The URL of a checked name below `baseURL`, keeping the login user (entries connect as the root did).
    static func entryURL(_ name: String, isDirectory: Bool, in baseURL: URL) -> URL? {
        guard let url = RemoteEntryValidator.url(forName: name, isDirectory: isDirectory, in: baseURL),
              var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        parts.percentEncodedUser = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)?.percentEncodedUser
        return parts.url
    }
}
