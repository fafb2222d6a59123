#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The name of livegrid's temporary files, `.NAME.livegrid-<pid>-<machine><boot>-<unique>.tmp`: hidden, beside
/// the file it becomes, and carrying its owner (process id, this machine, this boot of it) so that a later
/// livegrid can tell a temporary left by a killed process from one still being written.
public struct TemporaryFileName: Equatable, Sendable {
    /// The writing process.
    public var pid: Int32
    /// 8 hex digits of /etc/machine-id, then 8 of the kernel's boot id: a pid means nothing on another
    /// machine or after a reboot.
    public var boot: String
    public var unique: String

    public init(pid: Int32, boot: String, unique: String) {
        self.pid = pid
        self.boot = boot
        self.unique = unique
    }

    static let marker: [UInt8] = Array(".livegrid-".utf8)
    static let suffix: [UInt8] = Array(".tmp".utf8)
    /// NAME_MAX minus the longest decoration (".", marker, 10-digit pid, "-16hex-8hex", suffix).
    static let maximumBaseBytes = 255 - (1 + 10 + 10 + 26 + 4)

    /// A fresh name for a temporary file that will become `base` (a file name, not a path).
    public static func make(for base: String) -> String {
        let unique = hex8(UInt32.random(in: 0...UInt32.max))
        return "." + truncated(base) + ".livegrid-\(getpid())-\(currentBoot)-\(unique).tmp"
    }

    /// The owner encoded in `name`, or nil when `name` is not exactly livegrid's pattern (then it is
    /// someone else's file and never touched).
    public static func parse<Bytes: Collection<UInt8>>(_ name: Bytes) -> Parsed? {
        let bytes = Array(name)
        guard bytes.count > 1 + marker.count + suffix.count, bytes.first == UInt8(ascii: "."),
              bytes.suffix(suffix.count).elementsEqual(suffix),
              let markerStart = lastRange(of: marker, in: bytes), markerStart > 1 else { return nil }
        let middle = bytes[(markerStart + marker.count)..<(bytes.count - suffix.count)]
        let fields = middle.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        func isDecimal(_ field: ArraySlice<UInt8>) -> Bool {
            !field.isEmpty && field.count <= 10 && field.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        }
        func isHex(_ field: ArraySlice<UInt8>, _ count: Int) -> Bool {
            field.count == count && field.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
        }
        if fields.count == 1, isDecimal(fields[0]) {
            // Earlier livegrids: `.NAME.livegrid-<random decimal>.tmp`, no owner recorded.
            return .legacy
        }
        guard fields.count == 3, isDecimal(fields[0]), isHex(fields[1], 16), isHex(fields[2], 8),
              let pid = Int32(String(decoding: fields[0], as: UTF8.self)), pid > 0 else { return nil }
        return .owned(TemporaryFileName(pid: pid, boot: String(decoding: fields[1], as: UTF8.self),
                                        unique: String(decoding: fields[2], as: UTF8.self)))
    }

    public enum Parsed: Equatable, Sendable {
        case owned(TemporaryFileName)
        /// Written by a livegrid that did not record its owner.
        case legacy
    }

    /// This machine, then this boot of it ("00000000" for a part the system does not tell).
    public static let currentBoot: String = currentMachine + hexPrefix(of: "/proc/sys/kernel/random/boot_id")
    public static let currentMachine: String = hexPrefix(of: "/etc/machine-id")
    public static let unknown = "00000000"

    /// The machine half of a `boot` field.
    public static func machine(ofBoot boot: String) -> String { String(boot.prefix(8)) }

    private static func hexPrefix(of file: String) -> String {
        guard let bytes = readSmallFile(file) else { return unknown }
        var hex: [UInt8] = []
        for byte in bytes where hex.count < 8 {
            let lower: UInt8 = (byte >= 0x41 && byte <= 0x46) ? byte + 0x20 : byte
            if (lower >= 0x30 && lower <= 0x39) || (lower >= 0x61 && lower <= 0x66) { hex.append(lower) }
        }
        return hex.count == 8 ? String(decoding: hex, as: UTF8.self) : unknown
    }

    static func hex8(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// `base` cut to fit NAME_MAX with the decoration, at a character boundary.
    static func truncated(_ base: String) -> String {
        guard base.utf8.count > maximumBaseBytes else { return base }
        var out = ""
        var used = 0
        for character in base {
            let size = character.utf8.count
            if used + size > maximumBaseBytes { break }
            out.append(character)
            used += size
        }
        return out
    }

    private static func lastRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var start = haystack.count - needle.count
        while start >= 0 {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
            start -= 1
        }
        return nil
    }
}

/// The first 64 KiB of a small file (procfs), or nil.
func readSmallFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while out.count < 65536 {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        out += buffer[0..<n]
    }
    return out
}
