import BrowserRuntime
import Foundation

/// How the pixel outputs pace their pictures (issue 28.4): a screen's pictures go in screen order while the
/// link has room (`PictureBudget`), and the paint stops between two pictures, never inside one, when the user
/// typed something meanwhile. What is held back is drawn by a later turn, for whatever screen is shown then.
struct PicturePacing {
    /// This turn's budget (nil: the link says nothing, and only typing stops the paint).
    var budget: () -> PictureBudget?
    /// True when input is waiting on the tty.
    var inputPending: () -> Bool
    /// What the turn held back: the first held picture's bytes, or nil when it wrote everything.
    var held: (Int?) -> Void

    /// The tty's pacing: the meter's budget, and a look at the tty's input without reading it.
    static func tty(meter: TerminalThroughput, input: Int32 = STDIN_FILENO) -> PicturePacing {
        PicturePacing(budget: { meter.pictureBudget() }, inputPending: { Self.readable(input) },
                      held: { meter.holdPictures(firstBytes: $0) })
    }

    /// Whether `fd` has input to read now (poll with no wait; an error counts as none: the loop's own read
    /// reports a terminal that went).
    static func readable(_ fd: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 1 && descriptor.revents & Int16(POLLIN) != 0
    }

    func beginTurn() -> PictureTurn {
        PictureTurn(budget: budget(), inputPending: inputPending, held: held)
    }
}

/// One turn's pictures against the pacing: ask `admits` before each picture, `finish` once at the end.
struct PictureTurn {
    private var budget: PictureBudget?
    private let inputPending: () -> Bool
    private let report: (Int?) -> Void
    private var written = 0
    private var heldBytes: Int?

    /// A turn that writes everything (no pacing: a recording in the tests).
    static let unpaced = PictureTurn(budget: nil, inputPending: { false }, held: { _ in })

    init(budget: PictureBudget?, inputPending: @escaping () -> Bool, held: @escaping (Int?) -> Void) {
        self.budget = budget
        self.inputPending = inputPending
        report = held
    }

    /// Whether the next picture, of `bytes`, is written now; once one is refused, every later one is too
    /// (pictures go in screen order). At least one picture goes per turn unless the link is full, so typing
    /// never stops a paint for good.
    mutating func admits(_ bytes: Int) -> Bool {
        guard heldBytes == nil else { return false }
        let fits = budget?.admits(bytes) ?? true
        guard fits, written == 0 || !inputPending() else {
            heldBytes = bytes
            return false
        }
        budget?.spend(bytes)
        written += 1
        return true
    }

    /// Reports what was held back (the loop draws again when the link has room for it).
    func finish() { report(heldBytes) }
}

extension TerminalBytes {
    /// A turn of this terminal's pacing (unpaced without one).
    func beginPictures() -> PictureTurn { pacing?.beginTurn() ?? .unpaced }
}
