import Foundation
import MediaFormats

/// The print edge of every command: each human-readable line passes `VisibleText.escaped` here, so a file
/// name (or anything else from outside) can never reach the terminal as a control sequence. Machine output
/// (`scan --json`, pictures, movie frames) does not come through here.
enum HumanOutput {
    /// Lines on standard output, each escaped on its own: a line break inside one (a file name's) is shown
    /// as `\n`, never obeyed.
    static func lines(_ texts: [String]) {
        write(Data(texts.map { VisibleText.escaped($0) + "\n" }.joined().utf8), to: .standardOutput)
    }

    /// Lines on standard output as they are made, each escaped on its own, written in blocks of about 64 KB:
    /// a long table (`scan` of 200,000 items) is never held whole.
    static func streamLines(_ produce: ((String) -> Void) -> Void) {
        var block = Data()
        block.reserveCapacity(1 << 16)
        produce { text in
            block.append(contentsOf: (VisibleText.escaped(text) + "\n").utf8)
            if block.count >= 1 << 16 {
                write(block, to: .standardOutput)
                block.removeAll(keepingCapacity: true)
            }
        }
        if !block.isEmpty { write(block, to: .standardOutput) }
    }

    /// `livegrid: message` as one line on standard error.
    static func error(_ message: String) {
        note("livegrid: " + message)
    }

    /// One line on standard error without the prefix (statistics, --why).
    static func note(_ text: String) {
        write(Data((VisibleText.escaped(text) + "\n").utf8), to: .standardError)
    }

    /// Writes without trapping: Foundation's `write(_: Data)` stops the process with SIGILL when the write
    /// fails, and it does fail once the terminal is gone (EIO, issue 32.1), the very moment livegrid says so.
    static func write(_ data: Data, to handle: FileHandle) {
        // try?: a terminal or pipe that is gone cannot show the text; there is no one else to tell.
        try? handle.write(contentsOf: data)
    }

    /// Text of several lines (argument parser help and errors) with each line escaped.
    static func block(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { VisibleText.escaped(String($0)) }
            .joined(separator: "\n")
    }
}
