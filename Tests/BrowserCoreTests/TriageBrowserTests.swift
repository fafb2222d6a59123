import BrowserCore
import Library
import LivePairing
import XCTest

/// Triage in the browser state machine: keys through the keymap, the reducer, and the requests it emits.
final class TriageBrowserTests: XCTestCase {
    private let keymap = Keymap()
    private let items = [TestItems.live("IMG_1"), TestItems.still("IMG_2.JPG"), TestItems.video("CLIP.MOV"),
                         TestItems.still("IMG_4.JPG")]

    private func loaded() -> BrowserState {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        state.reduce(.scanStarted)
        let effects = state.reduce(.scanFinished(LibraryScan(root: "/photos", items: items, warnings: [])))
        XCTAssertEqual(effects, [.triage(.loadStates(items))], "ratings are loaded after every scan")
        return state
    }

    /// Presses keys as the app does: keymap then reducer; returns every effect.
    @discardableResult
    private func press(_ keys: KeyInput..., in state: inout BrowserState) -> [BrowserEffect] {
        var effects: [BrowserEffect] = []
        for key in keys {
            guard let action = keymap.action(for: key, in: state) else { continue }
            effects += state.reduce(action)
        }
        return effects
    }

    private func type(_ text: String, in state: inout BrowserState) {
        for character in text { press(.character(character), in: &state) }
    }

    func testMarksToggleAllNoneAndInvert() {
        var state = loaded()
        press(.character("m"), in: &state)
        XCTAssertEqual(state.triage.marks.ids, [items[0].id])
        XCTAssertEqual(state.selection, 1, "m moves on")
        press(.character("I"), in: &state)
        XCTAssertEqual(state.triage.marks.ids, Set(items.dropFirst().map(\.id)))
        press(.character("U"), in: &state)
        XCTAssertTrue(state.triage.marks.isEmpty)
        press(.character("M"), in: &state)
        XCTAssertEqual(state.triage.marks.count, 4)
        XCTAssertEqual(state.triageTargets.map(\.id), items.map(\.id), "marked items in display order")
    }

    func testRatingPickAndRejectWriteTheSidecarAndShowInTheCaption() {
        var state = loaded()
        XCTAssertEqual(press(.character("3"), in: &state), [.triage(.writeState(TriageState(rating: 3), items[0]))])
        XCTAssertEqual(state.triage.captionMarks(for: items[0].id), "★★★")
        XCTAssertEqual(press(.character("p"), in: &state),
                       [.triage(.writeState(TriageState(rating: 3, flag: .pick), items[0]))])
        XCTAssertEqual(state.triage.captionMarks(for: items[0].id), "⚑ ★★★")
        press(.character("x"), in: &state)
        XCTAssertEqual(state.triage.state(of: items[0].id).flag, .reject)
        XCTAssertTrue(state.triage.infoLines(for: items[0]).contains { $0.label == "Flag" && $0.value.contains("reject") })
        XCTAssertTrue(state.triage.infoLines(for: items[0]).contains { $0.label == "Rating" && $0.value.contains("(3)") })
    }

    /// With marks, a rating or a flag goes to every marked item; a flag toggle follows the first of them.
    func testRatingAndFlagsApplyToEveryMarkedItem() {
        var state = loaded()
        state.reduce(.triage(.result(.statesLoaded([items[2].id: TriageState(rating: 1, flag: .reject)]))))
        press(.character("m"), .character("l"), .character("m"), in: &state)   // items 0 and 2 marked
        XCTAssertEqual(state.triageTargets.map(\.id), [items[0].id, items[2].id])
        XCTAssertEqual(press(.character("4"), in: &state), [
            .triage(.writeState(TriageState(rating: 4), items[0])),
            .triage(.writeState(TriageState(rating: 4), items[2])),   // a rating lifts the reject
        ])
        XCTAssertEqual(state.message, "2 items ★★★★")
        XCTAssertEqual(state.triage.state(of: items[1].id), TriageState(), "unmarked items are untouched")
        press(.character("p"), in: &state)
        XCTAssertEqual(state.triage.state(of: items[0].id).flag, .pick)
        XCTAssertEqual(state.triage.state(of: items[2].id).flag, .pick)
        press(.character("p"), in: &state)
        XCTAssertEqual(state.triage.state(of: items[0].id).flag, TriageFlag.none, "toggled off for all")
        XCTAssertEqual(state.triage.state(of: items[2].id).flag, TriageFlag.none)
        XCTAssertEqual(state.triage.state(of: items[2].id).rating, 4)
    }

    func testRotateAsksOnceForEveryMarkedItem() {
        var state = loaded()
        press(.character("m"), .character("m"), in: &state)   // items 0 and 1 marked
        press(.character("]"), in: &state)
        XCTAssertEqual(state.triage.prompt?.label, "Rotate 2 items right in place? y/N ")
        XCTAssertEqual(press(.character("y"), in: &state), [
            .triage(.rotate(items[0], .rotateClockwise)), .triage(.rotate(items[1], .rotateClockwise)),
        ])
    }

    func testFilterMenuFiltersByRatingKindAndBackToAll() {
        var state = loaded()
        state.reduce(.triage(.result(.statesLoaded([items[1].id: TriageState(rating: 4)]))))
        press(.character("f"), in: &state)
        XCTAssertNotNil(state.triage.prompt)
        press(.character("3"), in: &state)
        XCTAssertEqual(state.items.map(\.id), [items[1].id])
        XCTAssertEqual(state.triage.filterDescription, "filter: ★≥3")
        press(.character("f"), .character("l"), in: &state)
        XCTAssertEqual(state.items.map(\.id), [items[0].id])
        press(.character("f"), .character("v"), in: &state)
        XCTAssertEqual(state.items.map(\.id), [items[2].id])
        press(.character("f"), .character("a"), in: &state)
        XCTAssertEqual(state.items.count, 4)
        XCTAssertNil(state.triage.filterDescription)
    }

    func testTrashAsksFirstThenUndoRestores() {
        var state = loaded()
        press(.character("d"), in: &state)
        XCTAssertEqual(state.triage.prompt?.line, "Trash IMG_1.HEIC (still + movie)? y/N ")
        XCTAssertEqual(press(.character("n"), in: &state), [], "anything but y cancels")
        XCTAssertNil(state.triage.prompt)
        XCTAssertEqual(press(.delete, .character("y"), in: &state), [.triage(.trash([items[0]]))])
        let undo = ItemFileOperations.TrashUndo(records: [])
        XCTAssertEqual(state.reduce(.triage(.result(.trashed(undo, message: "Trashed")))), [.startScan])
        XCTAssertEqual(press(.character("u"), in: &state), [], "an empty undo is not kept")
        XCTAssertEqual(state.message, "nothing to undo")
    }

    func testCopyPromptTakesATypedDirectoryAndRemembersIt() {
        var state = loaded()
        press(.character("m"), .character("m"), .character("c"), in: &state)
        XCTAssertEqual(state.triage.prompt?.label, "Copy 2 items to: ")
        type("~/outx", in: &state)
        press(.backspace, in: &state)
        XCTAssertEqual(state.selection, 2, "typing a directory does not move the grid")
        XCTAssertEqual(press(.enter, in: &state),
                       [.triage(.transfer([items[0], items[1]], directory: "~/out", move: false))])
        press(.character("v"), in: &state)
        XCTAssertEqual(state.triage.prompt?.text, "~/out", "the last directory is the default")
        press(.character("\u{15}"), in: &state)
        XCTAssertEqual(state.triage.prompt?.text, "", "Ctrl-U clears the line")
        press(.escape, in: &state)
        XCTAssertNil(state.triage.prompt)
        XCTAssertEqual(TriagePrompt.expandingTilde("~/out", home: "/home/a"), "/home/a/out")
        XCTAssertEqual(TriagePrompt.expandingTilde("/x/~/y", home: "/home/a"), "/x/~/y")
    }

    func testRotateNeedsAnInPlaceConfirmationAndOffersAStillCopy() {
        var state = loaded()
        press(.character("]"), in: &state)
        XCTAssertEqual(state.triage.prompt?.line, "Rotate IMG_1.HEIC (still + movie) right in place? y/N ")
        XCTAssertEqual(press(.character("y"), in: &state), [.triage(.rotate(items[0], .rotateClockwise))])
        state.reduce(.triage(.result(.offerConvertToStill(items[0], .rotateClockwise, reason: "no matrix"))))
        XCTAssertTrue(state.triage.prompt?.line.contains("convert") == true || state.triage.prompt?.line.contains("Convert") == true)
        XCTAssertEqual(press(.character("y"), in: &state), [.triage(.rotatedStillCopy(items[0], .rotateClockwise))])
        press(.character("["), .character("N"), in: &state)
        XCTAssertNil(state.triage.prompt)
    }

    func testExportDialogChoicesPreviewAndRun() {
        var offItem = TestItems.live("IMG_9")
        offItem.liveOffReason = "movie missing"
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: [items[0], offItem, items[1]], warnings: [])))
        press(.character("M"), .character("e"), in: &state)
        let dialog = try? XCTUnwrap(state.triage.exportDialog)
        XCTAssertEqual(dialog?.entries.map(\.choice), [.livePhoto, .stillPhoto, .stillPhoto], "live-off defaults to still")
        // Space previews the item under the dialog's cursor through the playback seam.
        XCTAssertEqual(press(.character(" "), in: &state), [.startPlayback(itemID: items[0].id)])
        XCTAssertEqual(state.reduce(.playReleased), [.stopPlayback])
        press(.character("s"), in: &state)
        XCTAssertEqual(state.triage.exportDialog?.entries.first?.choice, .stillPhoto)
        press(.tab, in: &state)
        XCTAssertEqual(state.triage.exportDialog?.entries.first?.choice, .livePhoto)
        press(.character("j"), .character("l"), in: &state)
        XCTAssertEqual(state.triage.exportDialog?.entries[1].choice, .stillPhoto, "a live-off item cannot go live")
        press(.character("S"), in: &state)
        XCTAssertEqual(state.triage.exportDialog?.entries.map(\.choice), [.stillPhoto, .stillPhoto, .stillPhoto])
        press(.character("L"), .enter, in: &state)
        XCTAssertEqual(state.triage.prompt?.label, "Export to: ")
        type("/tmp/out", in: &state)
        let effects = press(.enter, in: &state)
        XCTAssertEqual(effects, [.triage(.export(items: [items[0], offItem, items[1]],
                                                 choices: [.livePhoto, .stillPhoto, .livePhoto], destination: "/tmp/out"))])
        XCTAssertNil(state.triage.exportDialog)
        XCTAssertTrue(state.triage.isExporting)
        XCTAssertEqual(press(.escape, in: &state), [.triage(.cancelExport)], "Esc cancels a running export")
        state.reduce(.triage(.result(.finished(message: "3 of 3 item(s) exported to /tmp/out", filesChanged: false))))
        XCTAssertFalse(state.triage.isExporting)
        XCTAssertEqual(state.message, "3 of 3 item(s) exported to /tmp/out")
    }

    func testTriageKeysAreRebindableAndNamed() throws {
        let config = try BrowserConfig(parsing: "[keys]\ntrash = \"Delete X\"\nrate-5 = \"F5\"\n")
        XCTAssertEqual(config.keymap.keys(for: .trash), [.delete, .character("X")])
        XCTAssertEqual(config.keymap.keys(for: .rate5), [.function(5)])
        XCTAssertEqual(KeyInput(name: "Delete"), .delete)
        XCTAssertEqual(KeyInput.delete.displayName, "Delete")
    }
}
