import CNCurses
import Foundation
import GraphicsSettings
import TerminalGraphics
import TerminalProtocol

/// The colour depth of this terminal, decided once by `ColorDepthDecision` with what only this module can
/// read: terminfo (through ncurses) and tmux's client terminal. The browser, the viewer, `show` and `play`
/// all ask here, so they never disagree.
public enum TerminalColorChoice {
    /// - Parameter askTerminal: when the environment falls short of truecolour, ask the terminal on the tty
    ///   (XTGETTCAP RGB/Tc, DECRQSS) before curses starts, one round trip (issue 31.6).
    public static func decide(override: ColorDepthDecision.Override? = nil,
                              environment: [String: String], askTerminal: Bool = false) -> ColorDepthDecision {
        let insideTmux = environment["TMUX"].map { !$0.isEmpty } == true
        let client = override == nil && insideTmux ? tmuxClient() : nil
        let decision = ColorDepthDecision.decide(environment: environment, override: override,
                                                 terminfo: terminfo(named:), tmuxClient: client)
        guard askTerminal, ColorDepthDecision.shouldAskTerminal(decision, override: override, environment: environment)
        else { return decision }
        return decision.confirmed(byTerminal: TerminalProbe.queryTruecolor())
    }

    /// `colors#` and `RGB` of a terminfo entry, nil when there is none.
    public static func terminfo(named name: String) -> ColorDepthDecision.Terminfo? {
        guard !name.isEmpty, !name.contains("/") else { return nil }
        var colors: Int32 = 0, rgb: Int32 = 0
        guard lg_terminfo_colors(name, &colors, &rgb) != 0 else { return nil }
        return ColorDepthDecision.Terminfo(colors: Int(colors), hasRGB: rgb != 0)
    }

    /// What tmux knows of the terminal it draws on; nil when no client is attached or tmux does not answer
    /// within a second (a wedged server must not stop livegrid from starting).
    static func tmuxClient() -> ColorDepthDecision.TmuxClient? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux", "display-message", "-p", "#{client_termname} #{client_termfeatures}"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        if finished.wait(timeout: .now() + 1) == .timedOut {
            process.terminate()
            return nil
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0 else { return nil }
        return ColorDepthDecision.TmuxClient(displayOutput: output)
    }

    /// The terminfo entry curses should start with so it can send `depth`'s colours: the user's TERM when it
    /// has them, else its sibling with more colours (`xterm` -> `xterm-256color`, `linux` -> `linux-16color`,
    /// `tmux-256color` -> `tmux-direct`), else an xterm entry for an xterm-compatible TERM. The depth comes
    /// back lowered (with the reason) when no entry can send it.
    public static func cursesTerminal(for decision: ColorDepthDecision, term: String,
                                      lookup: (String) -> ColorDepthDecision.Terminfo? = terminfo(named:))
        -> (term: String, decision: ColorDepthDecision)
    {
        func depth(of entry: ColorDepthDecision.Terminfo) -> ColorDepth? {
            if entry.hasRGB || entry.colors >= 1 << 24 { return .truecolor }
            if entry.colors >= 256 { return .indexed256 }
            if entry.colors >= 16 { return .indexed16 }
            if entry.colors >= 8 { return .indexed8 }
            return nil
        }
        let wanted = decision.depth
        if let own = lookup(term), let ownDepth = depth(of: own), ownDepth.colorCount >= wanted.colorCount,
           !(ownDepth == .truecolor && wanted != .truecolor) {
            return (term, decision)
        }
        // Richer siblings, best fit first: the exact depth, then more colours (curses can send fewer).
        let base = siblingBase(term)
        var candidates: [String] = []
        let suffixes: [ColorDepth: [String]] = [
            .truecolor: ["-direct"], .indexed256: ["-256color"], .indexed16: ["-16color", "-256color"],
            .indexed8: ["", "-16color", "-256color"],
        ]
        for suffix in suffixes[wanted] ?? [] { candidates.append(base + suffix) }
        if ColorDepthDecision.isXtermCompatible(term) || term.isEmpty || term == "dumb" {
            candidates += (suffixes[wanted] ?? []).map { "xterm" + $0 }
        }
        for candidate in candidates where candidate != term {
            if let entry = lookup(candidate), let found = depth(of: entry), found == wanted
                || (found != .truecolor && found.colorCount >= wanted.colorCount) {
                return (candidate, decision)
            }
        }
        // Nothing sends that many colours: the most a sibling or the user's own entry can.
        for candidate in [base + "-256color", base + "-16color", term] {
            if let entry = lookup(candidate), let found = depth(of: entry), found.colorCount < wanted.colorCount {
                var lowered = decision
                lowered.depth = found
                lowered.reason += "; no terminfo entry sends \(wanted.displayName) for \(term)"
                return (candidate, lowered)
            }
        }
        return (term, decision)
    }

    /// `xterm-256color` -> `xterm`, `tmux-direct` -> `tmux`.
    static func siblingBase(_ term: String) -> String {
        for suffix in ["-256color", "-88color", "-16color", "-direct16", "-direct256", "-direct2", "-direct", "-color"]
        where term.hasSuffix(suffix) {
            return String(term.dropLast(suffix.count))
        }
        return term
    }
}
