/// tmux passthrough (`allow-passthrough on`, tmux ≥ 3.3): a sequence meant for the terminal outside tmux is
/// sent as `ESC P tmux ; <sequence with every ESC doubled> ESC \`. Each tmux in a nested chain unwraps one
/// level, so livegrid inside tmux inside tmux wraps twice. Pure, so the exact bytes are unit-tested.
public enum TmuxPassthrough {
    /// tmux 3.3a keeps at most 1 MiB of one escape sequence (INPUT_BUF_LIMIT) and silently drops the rest;
    /// livegrid keeps every wrapped sequence below this, leaving room for the wrapper and doubled escapes.
    public static let sequenceLimit = 1_000_000

    /// `bytes` wrapped `depth` times (depth 0: unchanged).
    public static func wrap(_ bytes: [UInt8], depth: Int) -> [UInt8] {
        guard depth > 0, !bytes.isEmpty else { return bytes }
        var wrapped = bytes
        for _ in 0..<depth { wrapped = wrapOnce(wrapped) }
        return wrapped
    }

    static func wrapOnce(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x1B, UInt8(ascii: "P")] + Array("tmux;".utf8)
        out.reserveCapacity(bytes.count + bytes.count / 16 + 8)
        for byte in bytes {
            if byte == 0x1B { out.append(0x1B) }
            out.append(byte)
        }
        out += [0x1B, UInt8(ascii: "\\")]
        return out
    }

    /// The escape sequences (`ESC _ … ESC \`, `ESC P … ESC \`, `ESC [ … final`, `ESC 7`) that make up
    /// `bytes`, in order, so that a long run of kitty chunks can be wrapped a few at a time (each wrapper
    /// below `sequenceLimit`) instead of as one sequence tmux would drop. Bytes outside sequences stay with
    /// the sequence before them.
    public static func splitSequences(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        var i = 0
        while i < bytes.count {
            guard bytes[i] == 0x1B, i + 1 < bytes.count else { i += 1; continue }
            var end: Int
            switch bytes[i + 1] {
            case UInt8(ascii: "_"), UInt8(ascii: "P"), UInt8(ascii: "]"):
                end = i + 2
                while end + 1 < bytes.count, !(bytes[end] == 0x1B && bytes[end + 1] == UInt8(ascii: "\\")) { end += 1 }
                end = min(bytes.count, end + 2)
            case UInt8(ascii: "["):
                end = i + 2
                while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
                end = min(bytes.count, end + 1)
            default:
                end = i + 2
            }
            if i > start { pieces.append(bytes[start..<i]) }
            pieces.append(bytes[i..<end])
            start = end
            i = end
        }
        if start < bytes.count { pieces.append(bytes[start..<bytes.count]) }
        return pieces
    }

    /// `bytes` as one or more wrapped sequences, each below `limit` once wrapped: whole escape sequences are
    /// grouped greedily (a kitty image's chunks travel in a few wrappers). A single sequence too long for
    /// one wrapper (a huge sixel) is returned wrapped anyway: the caller decides whether to send it.
    public static func wrapInPieces(_ bytes: [UInt8], depth: Int, limit: Int = sequenceLimit) -> [[UInt8]] {
        guard depth > 0 else { return [bytes] }
        let whole = wrap(bytes, depth: depth)
        if whole.count <= limit { return [whole] }
        // What a piece costs once wrapped: each level doubles its escapes; each wrapper adds 9 bytes.
        let growth = (1 << depth) - 1
        let budget = max(1, limit - 16 * depth)
        var groups: [[UInt8]] = []
        var current: [UInt8] = []
        var currentCost = 0
        for piece in splitSequences(bytes) {
            let cost = piece.count + piece.reduce(0) { $1 == 0x1B ? $0 + growth : $0 }
            if !current.isEmpty, currentCost + cost > budget {
                groups.append(current)
                current = []
                currentCost = 0
            }
            current += piece
            currentCost += cost
        }
        if !current.isEmpty { groups.append(current) }
        return groups.map { wrap($0, depth: depth) }
    }
}

/// Where pixel sequences go when livegrid runs inside tmux: wrapped `depth` times for passthrough, and placed
/// with absolute cursor moves inside the wrapper, shifted by the pane's position on the outer terminal
/// (the cursor tmux knows is the pane's; the outer terminal's cursor is the whole window's).
public struct TmuxPassthroughTarget: Sendable, Hashable {
    public var depth: Int
    public var originRow: Int
    public var originColumn: Int
    public init(depth: Int, originRow: Int = 0, originColumn: Int = 0) {
        self.depth = depth
        self.originRow = originRow
        self.originColumn = originColumn
    }

    public init(chain: TmuxChain, depth: Int) {
        self.init(depth: depth, originRow: chain.origin.row, originColumn: chain.origin.column)
    }
}
