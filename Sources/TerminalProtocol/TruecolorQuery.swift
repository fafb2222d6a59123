/// Asking the terminal itself whether it shows 24-bit colour (issue 31.6), for when the environment cannot
/// say (ssh forwards TERM=xterm-256color and no COLORTERM): XTGETTCAP for the `RGB` and `Tc` capabilities
/// (xterm, kitty, foot, WezTerm, contour answer), then a DECRQSS round trip on a direct colour (set
/// `48:2::1:2:3`, ask the SGR back, reset: a terminal that keeps direct colours names it in the reply), then DA1,
/// which every terminal answers, last, so its reply ends the wait.
public enum TruecolorQuery {
    /// "RGB" and "Tc", hex-encoded as XTGETTCAP wants them.
    static let capabilityNames = ["RGB", "Tc"]

    public static let sequence: String = {
        let names = capabilityNames.map { hex($0) }.joined(separator: ";")
        return "\u{1B}P+q\(names)\u{1B}\\" + "\u{1B}[48:2::1:2:3m\u{1B}P$qm\u{1B}\\\u{1B}[0m" + "\u{1B}[c"
    }()

    /// What in the replies says the terminal shows 24-bit colour, in words for the status bar ("the terminal
    /// answers XTGETTCAP RGB"), or nil when nothing does. `replies` are the DCS bodies (`1+r524742=...`).
    public static func evidence(inDeviceControlReplies replies: [String]) -> String? {
        for reply in replies {
            // XTGETTCAP: `1+r<hex name>[=<hex value>]` for a capability the terminal has (`0+r` for none).
            if reply.hasPrefix("1+r") {
                let answered = reply.dropFirst(3).split(separator: ";").compactMap { item -> String? in
                    let name = item.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                    return unhex(name)
                }
                if let name = answered.first(where: { capabilityNames.contains($0) }) {
                    return "the terminal answers XTGETTCAP \(name)"
                }
            }
            // DECRQSS: `1$r<the SGR now in effect>m`; the direct colour set before it, with its values.
            if reply.hasPrefix("1$r"), reply.hasSuffix("m") {
                let sgr = reply.dropFirst(3).dropLast()
                let direct = sgr.split(separator: ";").contains { part in
                    let fields = part.split(separator: ":", omittingEmptySubsequences: false)
                    return fields.count >= 5 && fields[0] == "48" && fields[1] == "2" && fields.suffix(3) == ["1", "2", "3"]
                }
                // Some terminals answer in the semicolon form.
                if direct || sgr.contains("48;2;1;2;3") { return "DECRQSS: the terminal keeps a direct colour" }
            }
        }
        return nil
    }

    static func hex(_ text: String) -> String {
        text.utf8.map { byte in
            let digits = Array("0123456789ABCDEF")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
    }

    static func unhex(_ text: String) -> String? {
        let characters = Array(text.utf8)
        guard characters.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = 0
        while index < characters.count {
            guard let byte = UInt8(String(decoding: characters[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
            index += 2
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
