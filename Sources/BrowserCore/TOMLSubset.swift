/// A value of the TOML subset livegrid's config uses.
public enum TOMLValue: Sendable, Hashable {
    case string(String)
    case integer(Int)
    case boolean(Bool)
}

/// A config syntax error, with the 1-based line it was found on.
public struct TOMLError: Error, Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }
}

/// One `key = value` with where it was written (for warnings about unknown keys).
public struct TOMLEntry: Sendable, Hashable {
    public var table: String
    public var key: String
    public var value: TOMLValue
    public var line: Int
}

/// A strict parser for a small TOML subset: `[table]` headers (dotted names allowed), `key = value` with
/// basic "strings" (escapes \" \\ \n \t \uXXXX), 'literal strings', decimal integers (with _ and sign) and
/// booleans, `#` comments. Anything else (arrays, inline tables, floats, dates, multi-line strings) is an
/// error naming the line, never silently ignored.
public enum TOMLSubset {
    public static func parse(_ text: String) throws -> [TOMLEntry] {
        var entries: [TOMLEntry] = []
        var table = ""
        var seen = Set<String>()
        var seenTables = Set<String>()
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = offset + 1
            var line = Substring(rawLine)
            if line.last == "\r" { line = line.dropLast() }
            var scanner = LineScanner(text: line, lineNumber: lineNumber)
            scanner.skipSpaces()
            if scanner.atEndOrComment { continue }
            if scanner.peek == "[" {
                scanner.advance()
                scanner.skipSpaces()
                if scanner.peek == "[" { throw TOMLError(line: lineNumber, message: "arrays of tables are not supported") }
                let name = try scanner.dottedKey()
                scanner.skipSpaces()
                guard scanner.peek == "]" else { throw TOMLError(line: lineNumber, message: "expected ']' after table name") }
                scanner.advance()
                try scanner.expectEndOfLine()
                guard seenTables.insert(name).inserted else {
                    throw TOMLError(line: lineNumber, message: "table [\(name)] defined twice")
                }
                table = name
                continue
            }
            let key = try scanner.dottedKey()
            scanner.skipSpaces()
            guard scanner.peek == "=" else { throw TOMLError(line: lineNumber, message: "expected '=' after key '\(key)'") }
            scanner.advance()
            scanner.skipSpaces()
            let value = try scanner.value()
            try scanner.expectEndOfLine()
            let fullKey = table.isEmpty ? key : table + "." + key
            guard seen.insert(fullKey).inserted else {
                throw TOMLError(line: lineNumber, message: "key '\(fullKey)' defined twice")
            }
            entries.append(TOMLEntry(table: table, key: key, value: value, line: lineNumber))
        }
        return entries
    }
}

/// Reads one line character by character; every failure names the line.
private struct LineScanner {
    let characters: [Character]
    let lineNumber: Int
    var position = 0

    init(text: Substring, lineNumber: Int) {
        characters = Array(text)
        self.lineNumber = lineNumber
    }

    var peek: Character? { position < characters.count ? characters[position] : nil }
    var atEndOrComment: Bool { peek == nil || peek == "#" }
    mutating func advance() { position += 1 }
    mutating func skipSpaces() { while peek == " " || peek == "\t" { advance() } }

    func error(_ message: String) -> TOMLError { TOMLError(line: lineNumber, message: message) }

    mutating func expectEndOfLine() throws {
        skipSpaces()
        guard atEndOrComment else { throw error("unexpected text after the value") }
    }

    mutating func bareKey() throws -> String {
        var key = ""
        while let character = peek, character.isASCII, character.isLetter || character.isNumber
                || character == "_" || character == "-" {
            key.append(character)
            advance()
        }
        guard !key.isEmpty else {
            if peek == "\"" || peek == "'" { throw error("quoted keys are not supported") }
            throw error("expected a key")
        }
        return key
    }

    mutating func dottedKey() throws -> String {
        var parts = [try bareKey()]
        skipSpaces()
        while peek == "." {
            advance()
            skipSpaces()
            parts.append(try bareKey())
            skipSpaces()
        }
        return parts.joined(separator: ".")
    }

    mutating func value() throws -> TOMLValue {
        guard let first = peek else { throw error("missing value") }
        switch first {
        case "\"":
            if characters.count >= position + 3, characters[position + 1] == "\"", characters[position + 2] == "\"" {
                throw error("multi-line strings are not supported")
            }
            return .string(try basicString())
        case "'":
            return .string(try literalString())
        case "t", "f":
            let word = try bareKey()
            if word == "true" { return .boolean(true) }
            if word == "false" { return .boolean(false) }
            throw error("expected true or false, found '\(word)'")
        case "[", "{":
            throw error("arrays and inline tables are not supported")
        default:
            return .integer(try integer())
        }
    }

    mutating func basicString() throws -> String {
        advance()
        var result = ""
        while let character = peek {
            advance()
            switch character {
            case "\"": return result
            case "\\":
                guard let escaped = peek else { throw error("unterminated escape") }
                advance()
                switch escaped {
                case "\"": result.append("\"")
                case "\\": result.append("\\")
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "u":
                    var hex = ""
                    for _ in 0..<4 {
                        guard let digit = peek, digit.isHexDigit else { throw error("bad \\u escape") }
                        hex.append(digit)
                        advance()
                    }
                    guard let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
                        throw error("bad \\u escape")
                    }
                    result.unicodeScalars.append(scalar)
                default: throw error("unknown escape \\\(escaped)")
                }
            default:
                if character.isControl && character != "\t" { throw error("control character in string") }
                result.append(character)
            }
        }
        throw error("unterminated string")
    }

    mutating func literalString() throws -> String {
        advance()
        var result = ""
        while let character = peek {
            advance()
            if character == "'" { return result }
            result.append(character)
        }
        throw error("unterminated string")
    }

    mutating func integer() throws -> Int {
        var text = ""
        while let character = peek, character.isNumber || character == "_" || character == "+" || character == "-"
                || character.isLetter || character == "." || character == ":" {
            text.append(character)
            advance()
        }
        let digits = text.replacingUnderscores()
        guard !text.hasPrefix("_"), !text.hasSuffix("_"), !text.contains("__"),
              let number = Int(digits) else {
            throw error(text.isEmpty ? "missing value" : "'\(text)' is not a string, integer or boolean")
        }
        return number
    }
}

private extension String {
    func replacingUnderscores() -> String { String(filter { $0 != "_" }) }
}
