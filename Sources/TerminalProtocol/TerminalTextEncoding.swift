import Concurrent
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the terminal takes UTF-8, decided as curses and every C program decide it: the codeset of the
/// locale the environment names (`setlocale(LC_ALL, "")`, then `nl_langinfo(CODESET)`). In a locale that is
/// not UTF-8 (LANG unset or C/POSIX, `su -`, ssh without LANG) ncursesw prints every byte ≥ 0x80 as `M-x`
/// garbage, so livegrid then draws with ASCII only: symbol pictures with chafa's ASCII symbols, ASCII borders,
/// badges and labels, and it says so once (issue 31.6).
public struct TerminalTextEncoding: Sendable, Hashable {
    /// The locale's codeset ("UTF-8", "ANSI_X3.4-1968"), or nil when the named locale does not exist.
    public var codeset: String?
    /// The variable that named the locale, as the user would set it ("LANG=C", "LC_ALL=POSIX", "LANG unset").
    public var source: String

    public init(codeset: String?, source: String) {
        self.codeset = codeset
        self.source = source
    }

    public var isUTF8: Bool {
        guard let codeset else { return false }
        let folded = codeset.lowercased().filter { $0 != "-" && $0 != "_" }
        return folded == "utf8"
    }

    /// Draw with ASCII only.
    public var asciiOnly: Bool { !isUTF8 }

    /// The status bar's sentence, once (nil in a UTF-8 locale).
    public var notice: String? {
        guard asciiOnly else { return nil }
        let why = codeset == nil ? "the locale is not installed (\(source))" : "the locale is not UTF-8 (\(source))"
        return "ASCII only: \(why); set LANG=C.UTF-8 for pictures in block symbols"
    }

    /// The variable setlocale reads for LC_CTYPE, first set one wins: LC_ALL, LC_CTYPE, LANG.
    public static func source(environment: [String: String]) -> String {
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = environment[name], !value.isEmpty { return "\(name)=\(value)" }
        }
        return "LANG unset"
    }

    /// The codeset of the locale `environment` names, asked without changing this process's locale
    /// (`newlocale` + `nl_langinfo_l`: LC_NUMERIC stays "C" for every formatter until curses starts).
    public static func detect(environment: [String: String]) -> TerminalTextEncoding {
        let source = source(environment: environment)
        let name: String = {
            for variable in ["LC_ALL", "LC_CTYPE", "LANG"] {
                if let value = environment[variable], !value.isEmpty { return value }
            }
            return "C"
        }()
        // LC_CTYPE_MASK is `1 << __LC_CTYPE` in glibc, a macro Swift does not import.
        guard let locale = newlocale(1 << LC_CTYPE, name, nil) else {
            return TerminalTextEncoding(codeset: nil, source: source)
        }
        defer { freelocale(locale) }
        guard let codeset = nl_langinfo_l(nl_item(CODESET), locale) else { return TerminalTextEncoding(codeset: nil, source: source) }
        return TerminalTextEncoding(codeset: String(cString: codeset), source: source)
    }

    /// This process's choice, made once by the executable at start (before any thread draws or renders);
    /// UTF-8 until then, so library code and unit tests draw as they always did.
    /// `Locked`, not loop-bound: renderers on the picture workers read it too.
    public static var current: TerminalTextEncoding { chosen.value }
    private static let chosen = Locked(TerminalTextEncoding(codeset: "UTF-8", source: ""))
    /// `current.asciiOnly`, asked for every character drawn: one atomic load instead of a lock.
    private static let chosenAsciiOnly = Atomic<Bool>(false)

    /// Makes `encoding` this process's choice. Call once, at start, before other threads run.
    public static func adopt(_ encoding: TerminalTextEncoding) {
        chosen.set(encoding)
        chosenAsciiOnly.store(encoding.asciiOnly, ordering: .sequentiallyConsistent)
    }

    /// True when pictures, badges and text must be ASCII.
    public static var asciiOnly: Bool { chosenAsciiOnly.load(ordering: .sequentiallyConsistent) }

    /// The ASCII stand-in for a one-column symbol livegrid draws (box drawing, badge icons, arrows, marks),
    /// nil for one it does not know.
    public static func asciiStandIn(for scalar: Unicode.Scalar) -> Character? {
        switch scalar.value {
        case 0x2500, 0x2501, 0x2504, 0x2505, 0x2508, 0x2509, 0x2550, 0x2574, 0x2576, 0x2578, 0x257A,
             0x2013, 0x2014, 0x2015, 0x2212: return "-"
        case 0x2502, 0x2503, 0x2506, 0x2507, 0x250A, 0x250B, 0x2551, 0x2575, 0x2577, 0x2579, 0x257B: return "|"
        case 0x250C...0x254B, 0x2552...0x256C, 0x256D...0x2570: return "+"
        case 0x25CE, 0x25C9: return "@"             // ◎ ◉ the live mark
        case 0x2298, 0x2205: return "/"             // ⊘ ∅ live off
        case 0x25A3, 0x25A0, 0x25A1, 0x25AA, 0x25AB: return "#"   // ▣ video, squares
        case 0x2026: return "."                     // …
        case 0x00B7: return "-"                     // · the status bar's separator
        case 0x2022, 0x2219, 0x25CF, 0x25CB, 0x2605, 0x2606, 0x273B, 0x2731: return "*"
        case 0x2190, 0x25C0, 0x25C2, 0x2039, 0x00AB: return "<"
        case 0x2192, 0x25B6, 0x25B8, 0x203A, 0x00BB: return ">"
        case 0x2191, 0x25B2, 0x25B4: return "^"
        case 0x2193, 0x25BC, 0x25BE, 0x2713, 0x2714: return "v"
        case 0x00D7, 0x2715, 0x2716, 0x2717, 0x2718: return "x"
        case 0x2690, 0x2691: return "!"         // ⚐ ⚑ flags
        case 0x2018, 0x2019, 0x201A, 0x2032: return "'"
        case 0x201C, 0x201D, 0x201E, 0x2033: return "\""
        case 0x00A0, 0x2002...0x200A, 0x2800: return " "
        default: return nil
        }
    }
}
