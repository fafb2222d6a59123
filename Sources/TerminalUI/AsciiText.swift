import BrowserCore
import Foundation
import TerminalProtocol

/// Text made ASCII for a locale that is not UTF-8 (issue 31.6), column for column so layouts computed in
/// display widths still line up: livegrid's symbols get their ASCII stand-ins (`─` `-`, `◎` `@`), accented
/// letters lose their accents (`é` `e`), and anything else becomes one `?` per column it would have taken.
public enum AsciiText {
    public static func fold(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            if character.isASCII {
                result.append(character)
                continue
            }
            let width = character.unicodeScalars.reduce(0) { $0 + DisplayWidth.of($1) }
            guard width > 0 else { continue }   // combining marks, zero-width joiners
            if width == 1, let first = character.unicodeScalars.first,
               let standIn = TerminalTextEncoding.asciiStandIn(for: first) {
                result.append(standIn)
                continue
            }
            let plain = String(character).folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
            if plain.utf8.allSatisfy({ $0 < 0x80 }), DisplayWidth.of(plain) == width {
                result += plain
            } else {
                result += String(repeating: "?", count: width)
            }
        }
        return result
    }
}
