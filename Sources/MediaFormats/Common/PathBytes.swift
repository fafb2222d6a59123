#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File names on Linux are bytes, not text: `a\xFFb.jpg` is a valid name that no Swift `String` can hold
/// (Foundation and `CommandLine.arguments` turn the 0xFF into U+FFFD, and the file can then no longer be
/// opened). Paths stay `String`s throughout livegrid, but every byte that is not part of valid UTF-8 is kept
/// as one private-use scalar U+EF80...U+EFFF (the byte plus 0xEF00, the OPTU-8 convention of MirBSD), so the
/// string converts back to exactly the bytes it came from. Bytes of a genuine U+EF80...U+EFFF in a name are
/// escaped the same way, which makes the mapping a bijection.
///
/// Names become strings at the edges that read them (`readdir`, argv: `PathBytes.string(from:)`), and
/// strings become bytes at every system call that takes a path (`PathBytes.withCString`, or the wrappers
/// below). Screens show each escaped byte as U+FFFD (`VisibleText`).
public enum PathBytes {
    static let escapeRange: ClosedRange<UInt32> = 0xEF80...0xEFFF

    /// The string for the raw bytes of a path (no NUL).
    public static func string<Bytes: Collection>(from bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let raw = Array(bytes)
        // Fast path: ASCII and valid UTF-8 without the escape range decode as they are.
        if !raw.contains(where: { $0 >= 0x80 }) { return String(decoding: raw, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < raw.count {
            if let (scalar, length) = decodeScalar(raw, at: index) {
                if escapeRange.contains(scalar.value) {
                    for byte in raw[index..<index + length] { scalars.append(escape(byte)) }
                } else {
                    scalars.append(scalar)
                }
                index += length
            } else {
                scalars.append(escape(raw[index]))
                index += 1
            }
        }
        return String(scalars)
    }

    /// The string for a NUL-terminated C path (a `dirent` name, an argv entry).
    public static func string(cString: UnsafePointer<CChar>) -> String {
        string(from: UnsafeRawBufferPointer(start: cString, count: strlen(cString)))
    }

    /// The raw bytes of `path` (no NUL).
    public static func bytes(of path: String) -> [UInt8] {
        guard mayHoldEscapes(path) else { return Array(path.utf8) }
        var result: [UInt8] = []
        result.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if escapeRange.contains(scalar.value) {
                result.append(UInt8(scalar.value - 0xEF00))
            } else {
                result += Array(String(scalar).utf8)
            }
        }
        return result
    }

    /// Whether `path` holds bytes that are not valid UTF-8 (shown as U+FFFD on screen).
    public static func hasRawBytes(_ path: String) -> Bool {
        mayHoldEscapes(path) && path.unicodeScalars.contains { escapeRange.contains($0.value) }
    }

    /// Runs `body` with `path` as the NUL-terminated bytes the kernel knows it by.
    public static func withCString<T>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        guard mayHoldEscapes(path) else { return try path.withCString(body) }
        var raw = bytes(of: path).map { CChar(bitPattern: $0) }
        raw.append(0)
        return try raw.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    // MARK: system calls on raw paths

    public static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        withCString(path) { systemOpen($0, flags, mode) }
    }

    public static func stat(_ path: String, _ result: inout StatBuffer) -> Int32 {
        withCString(path) { systemStat($0, &result) }
    }

    public static func lstat(_ path: String, _ result: inout StatBuffer) -> Int32 {
        withCString(path) { systemLstat($0, &result) }
    }

    public static func rename(_ from: String, _ to: String) -> Int32 {
        withCString(from) { source in withCString(to) { systemRename(source, $0) } }
    }

    public static func link(_ from: String, _ to: String) -> Int32 {
        withCString(from) { source in withCString(to) { systemLink(source, $0) } }
    }

    public static func unlink(_ path: String) -> Int32 {
        withCString(path) { systemUnlink($0) }
    }

    /// Whether `path` names a directory (following symbolic links).
    public static func isDirectory(_ path: String) -> Bool {
        var st = StatBuffer()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether anything (even a dangling symbolic link) is at `path`.
    public static func exists(_ path: String) -> Bool {
        var st = StatBuffer()
        return lstat(path, &st) == 0
    }

    /// The names in `directory` (without "." and ".."), each with whether it is a directory and whether it
    /// is a symbolic link, decided from the entry's type (d_type, or lstat where the file system gives none)
    /// before anyone looks at the name. Throws the errno of `opendir`.
    public static func entries(of directory: String) throws(DirectoryError) -> [DirectoryEntry] {
        guard let dir = withCString(directory, { opendir($0) }) else { throw DirectoryError(errno: errno) }
        defer { closedir(dir) }
        var result: [DirectoryEntry] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { string(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            var kind = DirectoryEntry.Kind(dType: entry.pointee.d_type)
            if kind == .unknown {
                var st = StatBuffer()
                let full = directory == "/" ? "/" + name : directory + "/" + name
                if lstat(full, &st) == 0 { kind = DirectoryEntry.Kind(mode: st.st_mode) }
            }
            result.append(DirectoryEntry(name: name, kind: kind))
        }
        return result
    }

    // MARK: private

    private static func escape(_ byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(0xEF00 + UInt32(byte))!
    }

    /// U+E000...U+EFFF all start with byte 0xEE in UTF-8: a string without it holds no escapes.
    private static func mayHoldEscapes(_ path: String) -> Bool {
        path.utf8.contains(0xEE)
    }

    /// One strict UTF-8 scalar at `index` (no overlong forms, no surrogates, at most U+10FFFF), or nil.
    private static func decodeScalar(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int, minimum: UInt32
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; minimum = 0x80; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; minimum = 0x800; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; minimum = 0x10000; value = UInt32(lead & 0x07)
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        for byte in bytes[index + 1..<index + length] {
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}

/// One name in a directory listing, typed before its name is looked at.
public struct DirectoryEntry: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case regular, directory, symbolicLink, other, unknown

        init(dType: UInt8) {
            switch dType {
            case UInt8(DT_REG): self = .regular
            case UInt8(DT_DIR): self = .directory
            case UInt8(DT_LNK): self = .symbolicLink
            case UInt8(DT_UNKNOWN): self = .unknown
            default: self = .other
            }
        }

        init(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: self = .regular
            case S_IFDIR: self = .directory
            case S_IFLNK: self = .symbolicLink
            default: self = .other
            }
        }
    }

    public var name: String
    public var kind: Kind
    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }
}

/// `opendir` failed: the errno, and its text.
public struct DirectoryError: Error, Sendable, CustomStringConvertible {
    public var errno: Int32
    public init(errno: Int32) { self.errno = errno }
    public var description: String { String(cString: strerror(errno)) }
}

/// `struct stat`, named apart from `PathBytes.stat`.
public typealias StatBuffer = stat

// The C functions, named apart from PathBytes' own wrappers.
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func systemStat(_ path: UnsafePointer<CChar>, _ result: inout StatBuffer) -> Int32 { stat(path, &result) }
private func systemLstat(_ path: UnsafePointer<CChar>, _ result: inout StatBuffer) -> Int32 { lstat(path, &result) }
private func systemRename(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 { rename(from, to) }
private func systemLink(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 { link(from, to) }
private func systemUnlink(_ path: UnsafePointer<CChar>) -> Int32 { unlink(path) }
