/// Hands out curses colour pairs for picture cells, and never redefines a pair that a cell drawn in the current
/// frame uses. (Redefining a pair recolours every cell on screen that uses it: with 40 pictures in 8 colours
/// the old allocator ran out of TERM=xterm's 64 pairs mid-frame, started over, and a white photo drawn
/// earlier in the frame came out red.)
///
/// - Pairs used in this frame are kept; when none is free, the least recently used pair *not* used in this
///   frame is redefined (every cell of the previous frame is drawn again before the screen is updated).
/// - When the terminal has fewer pairs than ordered (foreground, background) combinations of the palette
///   (8 colours: 64 combinations, TERM=xterm: 64 pairs of which the interface takes some), (a, b) and (b, a)
///   share one pair and the cell is drawn in reverse video: 8 colours then need at most 36 pairs, 16 need 136.
/// - If a frame still needs more pairs than exist, the cell gets the pair of the cell drawn before it (a
///   neighbour's colours) rather than recolouring another one.
/// Pure bookkeeping: the caller defines the pairs it is told to.
struct ColorPairAllocator {
    struct Grant: Equatable {
        var pair: Int32
        /// Draw the cell in reverse video (the pair holds (background, foreground)).
        var reversed: Bool
        /// The pair must be (re)defined with these colours before use.
        var define: (foreground: Int, background: Int)?

        static func == (a: Grant, b: Grant) -> Bool {
            a.pair == b.pair && a.reversed == b.reversed && a.define?.foreground == b.define?.foreground
                && a.define?.background == b.define?.background
        }
    }

    let firstPair: Int32
    let pairLimit: Int32
    let foldsReversed: Bool
    private var pairByKey: [UInt64: Int32] = [:]
    private var keyByPair: [UInt64?]
    private var lastUsedFrame: [UInt32]
    private var frame: UInt32 = 1
    private var nextUnused: Int32
    private var evictionHand = 0
    private var previousGrant: Grant?

    /// - Parameters:
    ///   - firstPair..<pairLimit: the pairs pictures may use.
    ///   - paletteSize: colours of an indexed palette (8, 16, 256), nil for direct colour.
    init(firstPair: Int32, pairLimit: Int32, paletteSize: Int?) {
        self.firstPair = firstPair
        self.pairLimit = max(firstPair, pairLimit)
        let available = Int(self.pairLimit - firstPair)
        if let paletteSize, paletteSize <= 16 {
            foldsReversed = available < paletteSize * paletteSize
        } else {
            foldsReversed = false
        }
        keyByPair = Array(repeating: nil, count: available)
        lastUsedFrame = Array(repeating: 0, count: available)
        nextUnused = firstPair
    }

    var capacity: Int { Int(pairLimit - firstPair) }

    /// Call before drawing each frame: pairs used from now on are protected until the next call.
    mutating func beginFrame() {
        frame &+= 1
        if frame == 0 { frame = 1; lastUsedFrame = lastUsedFrame.map { _ in 0 } }
        previousGrant = nil
    }

    mutating func pair(foreground fg: Int, background bg: Int) -> Grant? {
        guard capacity > 0 else { return nil }
        var reversed = false
        var key = (fg, bg)
        if foldsReversed && fg > bg {
            key = (bg, fg)
            reversed = true
        }
        let packed = UInt64(UInt32(truncatingIfNeeded: key.0)) << 32 | UInt64(UInt32(truncatingIfNeeded: key.1))
        if let pair = pairByKey[packed] {
            lastUsedFrame[Int(pair - firstPair)] = frame
            return remember(Grant(pair: pair, reversed: reversed, define: nil))
        }
        guard let pair = freePair() else { return previousGrant }
        let slot = Int(pair - firstPair)
        if let old = keyByPair[slot] { pairByKey[old] = nil }
        keyByPair[slot] = packed
        pairByKey[packed] = pair
        lastUsedFrame[slot] = frame
        return remember(Grant(pair: pair, reversed: reversed, define: (key.0, key.1)))
    }

    /// A pair no cell of this frame uses: a never-used one, else the next one the clock hand finds unused
    /// in this frame (pairs of older frames go in the order they were handed out).
    private mutating func freePair() -> Int32? {
        if nextUnused < pairLimit {
            defer { nextUnused += 1 }
            return nextUnused
        }
        for _ in 0..<capacity {
            let slot = evictionHand
            evictionHand = (evictionHand + 1) % capacity
            if lastUsedFrame[slot] != frame { return firstPair + Int32(slot) }
        }
        return nil
    }

    private mutating func remember(_ grant: Grant) -> Grant {
        previousGrant = Grant(pair: grant.pair, reversed: grant.reversed, define: nil)
        return grant
    }
}
