/// Decodes terminal input bytes into events: legacy keys, xterm modifiers, the kitty keyboard protocol
/// (`CSI code;mods:event u` with press/repeat/release), SGR mouse (1006) press/release/wheel, and the replies to
/// terminal queries (DA1, `CSI ? u`, `CSI 14/16 t`, XTSMGRAPHICS `CSI ? … S`, the cursor position, APC, DCS, OSC). Incomplete sequences wait for more bytes;
/// a lone ESC is only a key once `flushPending()` is called after a short timeout.
///
/// A terminal's reply is never read as keys, however late it comes and however it is split (issue 31): a
/// reply begun and not finished stays pending through `flushPending()` (only a lone ESC is ever flushed into a
/// key), and the rest of a reply whose ESC was already flushed as the Escape key is still recognised as that
/// reply (`afterLoneEscape`). One decoder lives for the whole session (the start-up probe hands its unfinished
/// bytes to the main reader), so a reply split across the hand-over is whole again.
public struct InputDecoder: Sendable {
    private var pending: [UInt8] = []
    /// Longest escape sequence kept while waiting for its end (a runaway sequence is dropped, not hoarded).
    public var maxSequenceLength = 1024
    /// The last flush turned a lone ESC into the Escape key: the next bytes may be the rest of a reply whose
    /// ESC came alone (split right after it, later than the flush timeout).
    private var afterLoneEscape = false

    public init() {}

    public var hasPending: Bool { !pending.isEmpty }

    /// Adds bytes and returns every complete event.
    public mutating func feed(_ bytes: [UInt8]) -> [InputEvent] {
        pending += bytes
        var events: [InputEvent] = []
        if afterLoneEscape {
            switch takeReplyTail() {
            case .event(let reply, _): events.append(reply)
            case .incomplete: return events
            case .skip: break
            }
        }
        var i = 0
        while i < pending.count {
            switch decodeOne(at: i) {
            case .event(let e, let used):
                events.append(e)
                i += used
            case .skip(let used):
                i += used
            case .incomplete:
                if pending.count - i > maxSequenceLength {
                    events.append(.unknown(Array(pending[i..<min(pending.count, i + 16)])))
                    pending.removeAll()
                    return events
                }
                pending.removeFirst(i)
                return events
            }
        }
        pending.removeAll()
        return events
    }

    /// Called when no byte followed for a while. A lone ESC becomes the Escape key. Anything longer is an
    /// escape sequence or a reply whose end is late: it stays pending (a late end must not turn its first
    /// bytes into keys; a sequence that never ends is dropped at `maxSequenceLength`). After a flushed lone
    /// ESC, one byte alone is the key the user typed after Escape.
    public mutating func flushPending() -> [InputEvent] {
        guard !pending.isEmpty else { return [] }
        if pending == [0x1B] {
            pending.removeAll()
            afterLoneEscape = true
            return [.key(KeyEvent(.escape))]
        }
        if afterLoneEscape, pending.count == 1 {
            afterLoneEscape = false
            return feed([])
        }
        return []
    }

    /// After a lone ESC was flushed as the Escape key: the pending bytes read as if that ESC preceded them. A
    /// reply (or any sequence that is not a key: it would have been dropped with its ESC) is taken off the
    /// front; `.incomplete` when it may still become one; `.skip` when the bytes are keys after all.
    private mutating func takeReplyTail() -> Step {
        guard let first = pending.first, [UInt8(ascii: "["), UInt8(ascii: "_"), UInt8(ascii: "P"),
                                          UInt8(ascii: "]")].contains(first) else {
            if !pending.isEmpty { afterLoneEscape = false }
            return .skip(0)
        }
        pending.insert(0x1B, at: 0)
        let step = decodeOne(at: 0)
        switch step {
        case .event(let event, let used) where !event.isInput:
            pending.removeFirst(used)
            afterLoneEscape = false
            return .event(event, used)
        case .incomplete:
            pending.removeFirst()
            guard pending.count > maxSequenceLength else { return .incomplete }
            // A runaway: dropped, like any sequence that never ends (never read as keys).
            let dropped = InputEvent.unknown(Array(pending.prefix(16)))
            pending.removeAll()
            afterLoneEscape = false
            return .event(dropped, 0)
        default:
            pending.removeFirst()
            afterLoneEscape = false
            return .skip(0)
        }
    }

    // MARK: one unit

    private enum Step {
        case event(InputEvent, Int)
        case skip(Int)
        case incomplete
    }

    private func byte(_ i: Int) -> UInt8? { i < pending.count ? pending[i] : nil }

    private func decodeOne(at i: Int) -> Step {
        guard let b = byte(i) else { return .incomplete }
        switch b {
        case 0x1B:
            guard let next = byte(i + 1) else { return .incomplete }
            switch next {
            case UInt8(ascii: "["): return decodeCSI(at: i)
            case UInt8(ascii: "O"): return decodeSS3(at: i)
            case UInt8(ascii: "_"), UInt8(ascii: "P"), UInt8(ascii: "]"):
                guard let third = byte(i + 2) else { return .incomplete }
                if Self.startsReplyString(kind: next, with: third) { return decodeString(at: i) }
                return .event(.key(KeyEvent(.character(Unicode.Scalar(next)), modifiers: .alt)), 2)
            case 0x1B: return .event(.key(KeyEvent(.escape)), 1)
            default:
                // Alt+key: ESC then the key's own byte(s).
                switch decodeOne(at: i + 1) {
                case .event(.key(var k), let used):
                    k.modifiers.insert(.alt)
                    return .event(.key(k), used + 1)
                case .incomplete: return .incomplete
                default: return .event(.key(KeyEvent(.escape)), 1)
                }
            }
        case 0x0D, 0x0A: return .event(.key(KeyEvent(.enter)), 1)
        case 0x09: return .event(.key(KeyEvent(.tab)), 1)
        case 0x7F, 0x08: return .event(.key(KeyEvent(.backspace)), 1)
        case 0x00: return .event(.key(KeyEvent(.character(" "), modifiers: .ctrl)), 1)
        case 0x01...0x1A:
            let letter = Unicode.Scalar(b + 0x60)
            return .event(.key(KeyEvent(.character(letter), modifiers: .ctrl)), 1)
        case 0x1C...0x1F: return .skip(1)
        default:
            return decodeUTF8(at: i)
        }
    }

    private func decodeUTF8(at i: Int) -> Step {
        guard let b = byte(i) else { return .incomplete }
        let length: Int
        switch b {
        case 0x00..<0x80: length = 1
        case 0xC2..<0xE0: length = 2
        case 0xE0..<0xF0: length = 3
        case 0xF0..<0xF5: length = 4
        default: return .event(.unknown([b]), 1)
        }
        guard i + length <= pending.count else { return .incomplete }
        var value = length == 1 ? UInt32(b) : UInt32(b) & (0xFF >> (length + 1))
        for k in 1..<length {
            let c = pending[i + k]
            guard c & 0xC0 == 0x80 else { return .event(.unknown([b]), 1) }
            value = value << 6 | UInt32(c & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { return .event(.unknown(Array(pending[i..<i + length])), length) }
        return .event(.key(KeyEvent(.character(scalar))), length)
    }

    /// ESC O x: application-mode cursor keys and F1-F4.
    private func decodeSS3(at i: Int) -> Step {
        guard let f = byte(i + 2) else { return .incomplete }
        let key: Key?
        switch f {
        case UInt8(ascii: "A"): key = .up
        case UInt8(ascii: "B"): key = .down
        case UInt8(ascii: "C"): key = .right
        case UInt8(ascii: "D"): key = .left
        case UInt8(ascii: "H"): key = .home
        case UInt8(ascii: "F"): key = .end
        case UInt8(ascii: "P")...UInt8(ascii: "S"): key = .function(Int(f - UInt8(ascii: "P")) + 1)
        case UInt8(ascii: "M"): key = .enter
        default: key = nil
        }
        guard let key else { return .event(.unknown(Array(pending[i..<i + 3])), 3) }
        return .event(.key(KeyEvent(key)), 3)
    }

    /// Whether `ESC kind third` opens a reply string rather than being Alt+kind followed by a key: the kitty
    /// graphics reply is `ESC _ G`, DCS replies (DECRQSS `P1$r`, XTGETTCAP `P1+r`, XTVERSION `P>|`) start with a
    /// digit or a marker, OSC replies (`ESC ] 11 ; rgb:…`) with a number.
    private static func startsReplyString(kind: UInt8, with third: UInt8) -> Bool {
        let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(third)
        switch kind {
        case UInt8(ascii: "_"): return third == UInt8(ascii: "G")
        case UInt8(ascii: "P"): return isDigit || Array(">!=+$".utf8).contains(third)
        default: return isDigit
        }
    }

    /// APC/DCS/OSC strings up to ST (ESC \) or BEL.
    private func decodeString(at i: Int) -> Step {
        var j = i + 2
        while j < pending.count {
            if pending[j] == 0x07 {
                return .event(stringEvent(Array(pending[(i + 2)..<j]), kind: pending[i + 1]), j - i + 1)
            }
            if pending[j] == 0x1B {
                guard let n = byte(j + 1) else { return .incomplete }
                if n == UInt8(ascii: "\\") {
                    return .event(stringEvent(Array(pending[(i + 2)..<j]), kind: pending[i + 1]), j - i + 2)
                }
            }
            j += 1
        }
        return .incomplete
    }

    private func stringEvent(_ body: [UInt8], kind: UInt8) -> InputEvent {
        let text = String(decoding: body, as: UTF8.self)
        switch kind {
        case UInt8(ascii: "_"): return .applicationReply(text)
        case UInt8(ascii: "P"): return .deviceControlReply(text)
        default: return .operatingSystemReply(text)
        }
    }

    private func decodeCSI(at i: Int) -> Step {
        // CSI [private marker] params [intermediates] final (0x40-0x7E)
        var j = i + 2
        while j < pending.count, !(0x40...0x7E).contains(pending[j]) || (j == i + 2 && pending[j] == UInt8(ascii: "<")) {
            if pending[j] == 0x1B { return .event(.unknown(Array(pending[i..<j])), j - i) }
            j += 1
        }
        guard j < pending.count else { return .incomplete }
        let final = pending[j]
        if j == i + 2, final == UInt8(ascii: "M") { return decodeX10Mouse(at: i) }
        if j == i + 2, final == UInt8(ascii: "[") {
            // The Linux console's F1-F5: `ESC [ [ A` to `ESC [ [ E` (its letter must not become a key).
            guard let letter = byte(i + 3) else { return .incomplete }
            guard (UInt8(ascii: "A")...UInt8(ascii: "E")).contains(letter) else { return .event(.unknown(Array(pending[i..<i + 4])), 4) }
            return .event(.key(KeyEvent(.function(Int(letter - UInt8(ascii: "A")) + 1))), 4)
        }
        let body = Array(pending[(i + 2)..<j])
        let used = j - i + 1
        let event = csiEvent(body: body, final: final) ?? .unknown(Array(pending[i..<j + 1]))
        return .event(event, used)
    }

    /// `CSI M b x y`: a mouse report in the old X10 form (three raw bytes, each plus 32), which a terminal sends
    /// when only mode 1000 is on (ncurses switches it back on when it resumes after Ctrl-Z). Decoded, so that
    /// those three bytes never become keys.
    private func decodeX10Mouse(at i: Int) -> Step {
        guard i + 5 < pending.count else { return .incomplete }
        let b = Int(pending[i + 3]) - 32, x = Int(pending[i + 4]) - 32, y = Int(pending[i + 5]) - 32
        let released = b & 3 == 3 && b & 64 == 0
        return .event(.mouse(Self.sgrMouse(b: released ? (b & ~3) : b, x: x, y: y, released: released)), 6)
    }

    /// Parses "a:b;c:d" into [[a, b], [c, d]] (missing numbers are nil).
    private static func params(_ text: Substring) -> [[Int?]] {
        text.split(separator: ";", omittingEmptySubsequences: false).map { field in
            field.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        }
    }

    private func csiEvent(body: [UInt8], final: UInt8) -> InputEvent? {
        var text = Substring(String(decoding: body, as: UTF8.self))
        var marker: Character?
        if let first = text.first, "<?>=".contains(first) {
            marker = first
            text = text.dropFirst()
        }
        let p = Self.params(text)
        func num(_ field: Int, _ sub: Int = 0) -> Int? {
            field < p.count && sub < p[field].count ? p[field][sub] : nil
        }
        let mods = KeyModifiers(encoded: num(1) ?? 1)
        let type = KeyEventType(rawValue: num(1, 1) ?? 1) ?? .press
        let f = Character(Unicode.Scalar(final))

        switch (marker, f) {
        case ("<", "M"), ("<", "m"):
            guard let b = num(0), let x = num(1), let y = num(2) else { return nil }
            return .mouse(Self.sgrMouse(b: b, x: x, y: y, released: f == "m"))
        case ("?", "u"):
            return .keyboardProtocolFlags(num(0) ?? 0)
        case ("?", "c"):
            return .primaryDeviceAttributes(p.compactMap { $0.first ?? nil })
        case ("?", "S"):
            // XTSMGRAPHICS's reply; without its `?` this final is F4, so the marker alone tells them apart.
            guard let item = num(0), let status = num(1) else { return nil }
            return .graphicsAttribute(item: item, status: status, values: p.dropFirst(2).compactMap { $0.first ?? nil })
        case (nil, "u"):
            guard let code = num(0) else { return nil }
            return .key(KeyEvent(Self.kittyKey(code), modifiers: mods, type: type))
        case (nil, "A"): return .key(KeyEvent(.up, modifiers: mods, type: type))
        case (nil, "B"): return .key(KeyEvent(.down, modifiers: mods, type: type))
        case (nil, "C"): return .key(KeyEvent(.right, modifiers: mods, type: type))
        case (nil, "D"): return .key(KeyEvent(.left, modifiers: mods, type: type))
        case (nil, "H"): return .key(KeyEvent(.home, modifiers: mods, type: type))
        case (nil, "F"): return .key(KeyEvent(.end, modifiers: mods, type: type))
        case (nil, "P"), (nil, "Q"), (nil, "S"):
            let n = f == "P" ? 1 : f == "Q" ? 2 : 4
            return .key(KeyEvent(.function(n), modifiers: mods, type: type))
        case (nil, "Z"): return .key(KeyEvent(.tab, modifiers: .shift, type: type))
        case (nil, "I"): return .focus(true)
        case (nil, "O"): return .focus(false)
        case (nil, "~"):
            guard let n = num(0), let key = Self.tildeKey(n) else { return nil }
            return .key(KeyEvent(key, modifiers: mods, type: type))
        case (nil, "R"):
            guard let row = num(0), let column = num(1) else { return nil }
            return .cursorPosition(row: row, column: column)
        case (nil, "t"):
            guard let kind = num(0), let h = num(1), let w = num(2) else { return nil }
            if kind == 4 { return .textAreaPixels(height: h, width: w) }
            if kind == 6 { return .cellPixels(height: h, width: w) }
            return nil
        default:
            return nil
        }
    }

    private static func kittyKey(_ code: Int) -> Key {
        switch code {
        case 13: return .enter
        case 27: return .escape
        case 9: return .tab
        case 127, 8: return .backspace
        default:
            return Unicode.Scalar(UInt32(max(0, code))).map { .character($0) } ?? .character("?")
        }
    }

    private static func tildeKey(_ n: Int) -> Key? {
        switch n {
        case 1, 7: return .home
        case 2: return .insert
        case 3: return .delete
        case 4, 8: return .end
        case 5: return .pageUp
        case 6: return .pageDown
        case 11...15: return .function(n - 10)
        case 17...21: return .function(n - 11)
        case 23, 24: return .function(n - 12)
        default: return nil
        }
    }

    private static func sgrMouse(b: Int, x: Int, y: Int, released: Bool) -> MouseEvent {
        var mods: KeyModifiers = []
        if b & 4 != 0 { mods.insert(.shift) }
        if b & 8 != 0 { mods.insert(.alt) }
        if b & 16 != 0 { mods.insert(.ctrl) }
        let motion = b & 32 != 0
        let button: MouseButton
        if b & 64 != 0 {
            button = (b & 3) == 0 ? .wheelUp : .wheelDown
        } else {
            switch b & 3 {
            case 0: button = .left
            case 1: button = .middle
            case 2: button = .right
            default: button = .none
            }
        }
        let kind: MouseEvent.Kind = released ? .release : motion ? .motion : .press
        return MouseEvent(button: button, kind: kind, column: max(0, x - 1), row: max(0, y - 1), modifiers: mods)
    }
}
