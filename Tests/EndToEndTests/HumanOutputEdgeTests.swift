import Foundation
import TestSupport
import XCTest

/// Issue 15.1 stays fixed: every human-readable line of the CLI goes through `HumanOutput` (and so through
/// `VisibleText.escaped`). A new `print` or stderr write elsewhere in Sources/livegrid fails here, with the
/// line to route through the edge; the few writes of the program's own control sequences are listed.
final class HumanOutputEdgeTests: XCTestCase {
    /// Writes that carry the program's own bytes (pictures, movie frames, cursor control), JSON, or the
    /// argument parser's messages (escaped in `Livegrid.main`), each allowed by a fragment of its line.
    private let allowed = [
        "print(try report.json())",                       // JSON: exact, escaped by the encoder
        "VisibleText.escaped(name)",                      // export progress: the name is escaped
        "HumanOutput.write(Data(\"\\r\\u{1B}[K\".utf8), to: .standardError)", // export progress: clears its own line
        "HumanOutput.block(message)",                     // ArgumentParser errors, escaped
        "HumanOutput.write(Data((message + \"\\n\").utf8), to: .standardOutput)", // help, version, completion scripts
        "try handle.write(contentsOf: data)",             // a remote export's download into its temporary file
        "TerminalOutput.write(", "Glibc.write(STDOUT_FILENO", "output.write(contentsOf: Self.terminalBytes(", // pictures, frames
        "AtomicFileWriter.write(", "writer.write($0)",    // files, not the terminal
        "HumanOutput.write(out, to: .standardOutput)",    // --print-marked: raw to a pipe, VisibleText on a tty
    ]

    func testNoHumanLineBypassesTheEscapingEdge() throws {
        let sources = URL(fileURLWithPath: Fixtures.committed("")).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/livegrid")
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        XCTAssertTrue(files.contains("ScanCommand.swift"), "found the CLI sources at \(sources.path)")
        var offenders: [String] = []
        for file in files where file != "HumanOutput.swift" {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.components(separatedBy: "\n").enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                let writes = code.contains("print(") || code.contains(".write(") || code.contains("fputs(")
                    || code.contains("FileHandle.standard")
                if writes, !allowed.contains(where: { code.contains($0) }), !code.hasPrefix("let output = FileHandle.standardOutput") {
                    offenders.append("\(file):\(number + 1): \(code)")
                }
            }
        }
        XCTAssertEqual(offenders, [], "print human lines with HumanOutput.lines/error/note:\n" + offenders.joined(separator: "\n"))
    }
}
