import CChafa
import GraphicsSettings

/// How many colours pictures use: one decision for the browser, the viewer, `show` and `play`, with its reason
/// in words for the status bar and `--why` ("256 colours (TERM=xterm: xterm-compatible)").
///
/// Decided like chafa decides: chafa's terminal database (`chafa_term_db_detect`: TERM, COLORTERM,
/// VTE_VERSION, TERM_PROGRAM, LC_TERMINAL, TMUX ...), then terminfo (an `RGB` flag or more colours raise it;
/// an entry with no colours at all, such as vt100 or dumb, lowers a guess made from TERM alone to 8), and
/// inside tmux what tmux says of its client terminal (tmux maps every colour to what the client shows).
/// Pure: terminfo and tmux come in as values, so every rule is a table test.
public struct ColorDepthDecision: Sendable, Hashable {
    public var depth: ColorDepth
    public var reason: String

    public init(depth: ColorDepth, reason: String) {
        self.depth = depth
        self.reason = reason
    }

    /// "256 colours (TERM=xterm: xterm-compatible)".
    public var summary: String { "\(depth.displayName) (\(reason))" }

    /// What terminfo says of a terminal type.
    public struct Terminfo: Sendable, Hashable {
        /// `colors#` (-1 or 0 when the entry has none).
        public var colors: Int
        /// The `RGB` flag: colour numbers are 24-bit values (xterm-direct and friends).
        public var hasRGB: Bool
        public init(colors: Int, hasRGB: Bool = false) {
            self.colors = colors
            self.hasRGB = hasRGB
        }
    }

    /// tmux's client terminal (`#{client_termname}`, `#{client_termfeatures}`), for a program inside tmux.
    public struct TmuxClient: Sendable, Hashable {
        public var termName: String
        public var features: Set<String>
        public init(termName: String, features: Set<String>) {
            self.termName = termName
            self.features = features
        }

        /// Parses `display -p '#{client_termname} #{client_termfeatures}'` ("xterm 256,RGB,title"); nil
        /// without a client (a detached session answers an empty line).
        public init?(displayOutput: String) {
            let words = displayOutput.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
            guard let name = words.first else { return nil }
            termName = String(name)
            features = Set(words.dropFirst().flatMap { $0.split(separator: ",").map(String.init) })
        }
    }

    /// A depth the user chose, and where ("--colors", "config colors").
    public struct Override: Sendable, Hashable {
        public var depth: ColorDepth
        public var source: String
        public init(_ depth: ColorDepth, source: String) {
            self.depth = depth
            self.source = source
        }
    }

    /// - Parameters:
    ///   - terminfo: looks a terminal type up in terminfo (nil: no entry, or unknown).
    ///   - tmuxClient: tmux's client terminal when this runs inside tmux and a client is attached.
    public static func decide(environment env: [String: String], override: Override? = nil,
                              terminfo: (String) -> Terminfo? = { _ in nil },
                              tmuxClient: TmuxClient? = nil) -> ColorDepthDecision
    {
        if let override {
            return ColorDepthDecision(depth: override.depth, reason: "set by \(override.source)")
        }
        if env["TMUX"].map({ !$0.isEmpty }) == true, let client = tmuxClient {
            return throughTmux(client, environment: env, terminfo: terminfo)
        }
        return forTerminal(environment: env, terminfo: terminfo)
    }

    /// Whether to ask the terminal (`TruecolorQuery`) before settling for fewer than 24-bit colours: only when
    /// the user chose nothing, the environment fell short of truecolour, and the terminal is the one that
    /// answers (inside tmux, tmux's client features already said; a dumb or unset TERM is asked nothing).
    public static func shouldAskTerminal(_ decision: ColorDepthDecision, override: Override?,
                                         environment env: [String: String]) -> Bool {
        guard override == nil, decision.depth != .truecolor else { return false }
        if env["TMUX"].map({ !$0.isEmpty }) == true { return false }
        let term = env["TERM"] ?? ""
        return !term.isEmpty && term != "dumb"
    }

    /// This decision after asking the terminal: truecolour with `evidence` as the reason when it said so,
    /// else unchanged.
    public func confirmed(byTerminal evidence: String?) -> ColorDepthDecision {
        guard let evidence, depth != .truecolor else { return self }
        return ColorDepthDecision(depth: .truecolor, reason: evidence)
    }

    /// tmux redraws the pane on its client: 24-bit colour only reaches it with the client's `RGB` feature,
    /// 256 with `256` (or a 256-colour terminfo); otherwise tmux maps every colour to the client's few.
    static func throughTmux(_ client: TmuxClient, environment env: [String: String],
                            terminfo: (String) -> Terminfo?) -> ColorDepthDecision {
        let name = client.termName
        if client.features.contains("RGB") || client.features.contains("Tc") {
            return ColorDepthDecision(depth: .truecolor, reason: "tmux client \(name) has the RGB feature")
        }
        if client.features.contains("256") {
            return ColorDepthDecision(depth: .indexed256, reason: "tmux client \(name) has the 256 feature")
        }
        let colors = terminfo(name)?.colors ?? 0
        if colors >= 256 {
            return ColorDepthDecision(depth: .indexed256, reason: "tmux client \(name): terminfo has \(colors) colours")
        }
        // tmux would map 256 colours to the client's 8 or 16 one by one: chafa picks them better with the symbols.
        let depth: ColorDepth = colors >= 16 ? .indexed16 : .indexed8
        return ColorDepthDecision(depth: depth, reason: "tmux maps colours to its client \(name) "
                                  + "(add `set -as terminal-features ',\(name):256'` for more)")
    }

    static func forTerminal(environment env: [String: String], terminfo: (String) -> Terminfo?) -> ColorDepthDecision {
        let term = env["TERM"] ?? ""
        let chafa = chafaDepth(environment: env)
        let entry = term.isEmpty ? nil : terminfo(term)
        // Variables chafa read beyond TERM that changed its answer ("COLORTERM=truecolor").
        let hint = hintVariables.first { name in
            guard let value = env[name], !value.isEmpty else { return false }
            var without = env
            without[name] = nil
            return chafaDepth(environment: without) != chafa
        }
        if let hint {
            let reason = hint == "TMUX" ? "TERM=\(term) inside tmux" : "\(hint)=\(env[hint] ?? "")"
            return ColorDepthDecision(depth: chafa, reason: reason)
        }
        if let known = knownTruecolorTerminal(env: env, term: term), chafa != .truecolor {
            return ColorDepthDecision(depth: .truecolor, reason: known)
        }
        if let entry {
            if entry.hasRGB && chafa != .truecolor {
                return ColorDepthDecision(depth: .truecolor, reason: "TERM=\(term): terminfo has RGB")
            }
            if entry.colors >= 256 && chafa.colorCount < 256 {
                return ColorDepthDecision(depth: .indexed256, reason: "TERM=\(term): terminfo has \(entry.colors) colours")
            }
            if entry.colors < 8 && !isXtermCompatible(term) {
                return ColorDepthDecision(depth: .indexed8, reason: "TERM=\(term): terminfo lists no colours, "
                                          + "the 8 ANSI colours are the safe guess")
            }
        }
        if term.isEmpty || term == "dumb" {
            return ColorDepthDecision(depth: .indexed8, reason: term.isEmpty ? "TERM unset" : "TERM=dumb")
        }
        // "xterm-compatible" says why TERM=xterm (colors#8) gets 256; kept short otherwise: the status bar
        // shortens the item's line to fit it.
        if isXtermCompatible(term) && chafa != .truecolor {
            return ColorDepthDecision(depth: chafa, reason: "TERM=\(term): xterm-compatible")
        }
        // chafa's database answers truecolour for the generic xterm-256color, which every terminal claims and
        // which SSH forwards without COLORTERM: a terminal that cannot show 24-bit colour (macOS Terminal before
        // 26, older PuTTY) would draw garbage. Truecolour only where the terminal says so (COLORTERM, a
        // truecolour TERM or terminfo RGB, a known terminal); the generic names get 256.
        if chafa == .truecolor && Self.genericTerminalNames.contains(term) && entry?.hasRGB != true {
            let colorterm = (env["COLORTERM"] ?? "").lowercased()
            if colorterm == "truecolor" || colorterm == "24bit" {
                return ColorDepthDecision(depth: .truecolor, reason: "COLORTERM=\(colorterm)")
            }
            if let known = knownTruecolorTerminal(env: env, term: term) {
                return ColorDepthDecision(depth: .truecolor, reason: known)
            }
            return ColorDepthDecision(depth: .indexed256,
                                      reason: "TERM=\(term), no COLORTERM")
        }
        return ColorDepthDecision(depth: chafa, reason: "TERM=\(term)")
    }

    /// TERM values many different terminals send (so they say nothing about 24-bit colour).
    static let genericTerminalNames: Set<String> = ["xterm", "xterm-256color", "screen", "screen-256color",
                                                    "tmux", "tmux-256color"]

    /// Environment variables chafa 1.12's `chafa_term_db_detect` reads besides TERM.
    static let hintVariables = ["COLORTERM", "VTE_VERSION", "TERM_PROGRAM", "LC_TERMINAL", "TMUX", "KONSOLE_VERSION"]

    /// xterm and the terminals that claim its name: all do at least 256 colours (xterm since 1999).
    public static func isXtermCompatible(_ term: String) -> Bool { term.hasPrefix("xterm") }

    /// Truecolour terminals chafa 1.12's database does not know (it came before them or knows them otherwise).
    static func knownTruecolorTerminal(env: [String: String], term: String) -> String? {
        if env["KITTY_WINDOW_ID"] != nil { return "kitty (KITTY_WINDOW_ID)" }
        // The other spelling of COLORTERM=truecolor (chafa 1.12 reads only that one); screen stays as chafa has it.
        if env["COLORTERM"]?.lowercased() == "24bit" && !term.hasPrefix("screen") { return "COLORTERM=24bit" }
        if term.hasPrefix("foot") { return "TERM=\(term): foot" }
        if term.contains("-direct") { return "TERM=\(term)" }
        if let program = env["TERM_PROGRAM"], ["WezTerm", "vscode", "ghostty", "iTerm.app", "Hyper", "Tabby"].contains(program) {
            return "TERM_PROGRAM=\(program)"
        }
        // iTerm2 forwards LC_TERMINAL over SSH (LC_* is in OpenSSH's default SendEnv); VTE and Konsole set theirs.
        if env["LC_TERMINAL"] == "iTerm2" { return "LC_TERMINAL=iTerm2" }
        if let vte = Int(env["VTE_VERSION"] ?? ""), vte >= 3600 { return "VTE_VERSION=\(vte)" }
        if let konsole = env["KONSOLE_VERSION"], !konsole.isEmpty { return "KONSOLE_VERSION=\(konsole)" }
        return nil
    }

    /// The depth chafa's own tool would pick (chafa.c `detect_canvas_mode`): the richest colour sequences
    /// the term info chafa's database builds for this environment has.
    public static func chafaDepth(environment env: [String: String]) -> ColorDepth {
        guard let db = chafa_term_db_get_default() else { return .indexed256 }
        var strings: [UnsafeMutablePointer<CChar>?] = env.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") }
        strings.append(nil)
        defer { for s in strings { free(s) } }
        guard let info = strings.withUnsafeMutableBufferPointer({ chafa_term_db_detect(db, $0.baseAddress) }) else {
            return .indexed256
        }
        defer { chafa_term_info_unref(info) }
        func has(_ sequences: ChafaTermSeq...) -> Bool {
            sequences.allSatisfy { chafa_term_info_have_seq(info, $0) != 0 }
        }
        if has(CHAFA_TERM_SEQ_SET_COLOR_FGBG_DIRECT, CHAFA_TERM_SEQ_SET_COLOR_FG_DIRECT, CHAFA_TERM_SEQ_SET_COLOR_BG_DIRECT) {
            return .truecolor
        }
        if has(CHAFA_TERM_SEQ_SET_COLOR_FGBG_256, CHAFA_TERM_SEQ_SET_COLOR_FG_256, CHAFA_TERM_SEQ_SET_COLOR_BG_256) {
            return .indexed256
        }
        if has(CHAFA_TERM_SEQ_SET_COLOR_FGBG_16, CHAFA_TERM_SEQ_SET_COLOR_FG_16, CHAFA_TERM_SEQ_SET_COLOR_BG_16) {
            return .indexed16
        }
        return .indexed8
    }
}
