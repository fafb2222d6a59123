import Foundation
import TestSupport
import XCTest

/// `livegrid help <command>` in an 80-column terminal: ArgumentParser wraps every paragraph, so a sentence is
/// only ever broken where the terminal's width requires it.
///
/// "Broken mid-sentence" precisely: a hard newline in a command's abstract or discussion (or an argument's help)
/// that is not a paragraph break (an empty line) and does not start a list item or an indented line.
/// ArgumentParser keeps such newlines verbatim, so at any width other than the author's the sentence ends in
/// the middle of a line and continues on a short one. The definitions are read from the binary itself
/// (`--experimental-dump-help`, the same data the man page is generated from).
final class HelpTextTests: XCTestCase {
    private struct Command {
        var path: [String]
        var abstract: String
        var discussion: String
        var argumentTexts: [String]
    }

    private func commands() throws -> [Command] {
        let dump = try LivegridCommand.run(["--experimental-dump-help"])
        XCTAssertEqual(dump.status, 0, dump.err)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(dump.out.utf8)) as? [String: Any])
        let root = try XCTUnwrap(json["command"] as? [String: Any])
        var found: [Command] = []
        func visit(_ node: [String: Any], path: [String]) {
            let arguments = node["arguments"] as? [[String: Any]] ?? []
            found.append(Command(
                path: path,
                abstract: node["abstract"] as? String ?? "",
                discussion: node["discussion"] as? String ?? "",
                argumentTexts: arguments.flatMap { [$0["abstract"] as? String, $0["discussion"] as? String].compactMap { $0 } }))
            for child in node["subcommands"] as? [[String: Any]] ?? [] {
                visit(child, path: path + [child["commandName"] as? String ?? "?"])
            }
        }
        visit(root, path: [])
        return found
    }

    /// Lines of `text` that continue a sentence begun on the previous line.
    static func handBrokenLines(_ text: String) -> [String] {
        let lines = text.components(separatedBy: "\n")
        var broken: [String] = []
        for index in lines.indices.dropFirst() {
            let previous = lines[index - 1], line = lines[index]
            if previous.trimmingCharacters(in: .whitespaces).isEmpty || line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            if line.hasPrefix(" ") || line.hasPrefix("\t") { continue }          // indented block (example, table)
            if ["- ", "* ", "• "].contains(where: line.hasPrefix) { continue }    // list item
            if line.range(of: #"^[0-9]+[.)] "#, options: .regularExpression) != nil { continue }   // numbered item
            broken.append("\(previous.suffix(40))⏎\(line.prefix(40))")
        }
        return broken
    }

    func testTheRuleRecognisesAHandBrokenSentence() {
        XCTAssertEqual(Self.handBrokenLines("A sentence that goes\non here.").count, 1)
        XCTAssertEqual(Self.handBrokenLines("One paragraph.\n\nAnother one.").count, 0)
        XCTAssertEqual(Self.handBrokenLines("Keys:\n- a\n- b\n  indented example").count, 0)
        XCTAssertEqual(Self.handBrokenLines("Steps:\n1. first\n2) second").count, 0)
    }

    func testNoCommandTextIsBrokenByHandInsideASentence() throws {
        let all = try commands()
        XCTAssertGreaterThanOrEqual(all.count, 10, "every subcommand is listed")
        for command in all {
            let name = (["livegrid"] + command.path).joined(separator: " ")
            for (label, text) in [("abstract", command.abstract), ("discussion", command.discussion)]
                + command.argumentTexts.map({ ("option help", $0) })
            {
                XCTAssertEqual(Self.handBrokenLines(text), [], "\(name) \(label): newline inside a paragraph")
            }
        }
    }

    func testHelpOfEveryCommandFitsEightyColumns() throws {
        for command in try commands() {
            let arguments = command.path.isEmpty ? ["--help"] : ["help"] + command.path
            let result = try LivegridCommand.run(arguments, environment: ["COLUMNS": "80"])
            XCTAssertEqual(result.status, 0, result.err)
            XCTAssertTrue(result.out.contains("USAGE:"), "help of \(arguments) has a usage line")
            for line in result.out.components(separatedBy: "\n") {
                XCTAssertLessThanOrEqual(line.unicodeScalars.count, 80,
                                         "`livegrid \(arguments.joined(separator: " "))` line wider than 80 columns: \(line)")
            }
            // Every word of the discussion is on screen, in order: ArgumentParser wrapped it, nothing was cut.
            let words = command.discussion.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            let shown = result.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            XCTAssertTrue(words.isEmpty || shown.contains(words), "the discussion of \(arguments) is shown whole")
        }
    }
}
