import BrowserCore
import LibraryCore
import LibraryCore
import LivePairing
import TerminalProtocol
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

    /// The worker posts the kind of failure; the status bar says it, and the cell goes back to what is stored.
    func testTriageFailuresArriveAsValuesAndAreSaidInTheStatusBar() {
        var state = loaded()
        press(.character("3"), in: &state)
        let sentence = "/photos/IMG_1.HEIC.xmp: cannot write sidecar: Permission denied"
        state.reduce(.triage(.result(.stateNotSaved(itemID: items[0].id, state: TriageState(), .ratingNotSaved(cause: sentence)))))
        XCTAssertEqual(state.message, sentence)
        XCTAssertEqual(state.triage.state(of: items[0].id), TriageState(), "back to what is stored")

        XCTAssertEqual(state.reduce(.triage(.result(.failed(.cannotRotate(itemName: "IMG_1.HEIC", cause: "read-only"))))), [])
        XCTAssertEqual(state.message, "cannot rotate IMG_1.HEIC: read-only")
        XCTAssertEqual(state.reduce(.triage(.result(.failed(.cannotMakeRotatedStill(cause: "disk full"))))), [.startScan],
                       "the still copy was written before the turn failed: the folder is scanned again")
        XCTAssertEqual(state.message, "cannot make a rotated still: disk full")
        state.reduce(.triage(.result(.failed(.notAvailableRemotely))))
        XCTAssertEqual(state.message, "not available for a remote directory")
    }

    /// Issue 31.4: one action model. With marks present a rating or flag acts on the marked items, like every
    /// other action, and the status bar names them and says how to act on the cursor item instead.
    func testRatingAndFlagsActOnTheMarksWhenThereAreMarks() {
        var state = loaded()
        state.reduce(.triage(.result(.statesLoaded([items[2].id: TriageState(rating: 1, flag: .reject)]))))
        press(.character("m"), .character("l"), .character("m"), in: &state)   // items 0 and 2 marked, cursor on 3
        XCTAssertEqual(state.selection, 3)
        XCTAssertEqual(press(.character("3"), in: &state), [
            .triage(.writeState(TriageState(rating: 3), items[0])),
            .triage(.writeState(TriageState(rating: 3), items[2])),   // a rating lifts the reject
        ])
        XCTAssertEqual(state.message, "rated 2 marked items: IMG_1.HEIC, CLIP.MOV ★★★ · not IMG_4.JPG: U clears the marks")
        XCTAssertEqual(state.triage.state(of: items[3].id), TriageState(), "the cursor item is untouched")

        press(.character("p"), in: &state)
        XCTAssertEqual(state.triage.state(of: items[0].id).flag, .pick)
        XCTAssertEqual(state.triage.state(of: items[2].id).flag, .pick)
        XCTAssertEqual(state.triage.state(of: items[3].id).flag, TriageFlag.none)

        press(.character("U"), in: &state)
        XCTAssertEqual(press(.character("5"), in: &state), [.triage(.writeState(TriageState(rating: 5), items[3]))],
                       "without marks: the cursor item")
        XCTAssertEqual(state.message, "rated IMG_4.JPG ★★★★★")
    }

    /// Issue 31.4: a forgotten mark elsewhere: the trash question names the marked item and says how to
    /// trash the photo being looked at instead.
    func testTheTrashQuestionNamesTheMarkedItemsAndTheWayToActOnTheCursorItem() {
        var state = loaded()
        press(.character("m"), in: &state)              // item 0 marked, cursor on 1
        press(.character("d"), in: &state)
        XCTAssertEqual(state.triage.prompt?.line,
                       "Trash 1 marked item: IMG_1.HEIC? y/N · for IMG_2.JPG instead: n, U (clears the marks), d ")
        XCTAssertEqual(press(.character("n"), .character("U"), .character("d"), in: &state), [])
        XCTAssertEqual(state.triage.prompt?.line, "Trash IMG_2.JPG? y/N ")
        XCTAssertEqual(press(.character("y"), in: &state), [.triage(.trash([items[1]]))])
        press(.character("M"), .character("d"), in: &state)
        XCTAssertEqual(state.triage.prompt?.line, "Trash 4 marked items: IMG_1.HEIC, IMG_2.JPG, CLIP.MOV, …? y/N ",
                       "the cursor item is among the marks: no hint")
    }

    /// Issue 31.3: every action goes on one stack; `u` takes back the newest only, says what it undid, and
    /// stops at an entry it cannot undo instead of reaching past it (a rotation used to be skipped, and `u`
    /// removed a copy made minutes before).
    func testUndoIsOneOrderedStackThatNeverSkipsAnEntry() {
        var state = loaded()
        let placed = ItemFileOperations.TransferUndo.Placed(source: "/photos/IMG_2.JPG", destination: "/out/IMG_2.JPG",
                                                            identity: nil)
        let copy = ItemFileOperations.TransferUndo(isMove: false, items: [[placed]])
        press(.character("c"), in: &state)
        type("/out", in: &state)
        XCTAssertEqual(press(.enter, in: &state), [.triage(.transfer([items[0]], directory: "/out", move: false))])
        state.reduce(.triage(.result(.transferred(copy, message: "Copied", filesChanged: false))))
        press(.character("3"), in: &state)
        press(.character("]"), in: &state)
        XCTAssertEqual(press(.character("y"), in: &state), [.triage(.rotate(items[0], .rotateClockwise))])
        state.reduce(.triage(.result(.rotated(items[0], .rotateClockwise, message: "Rotated"))))
        XCTAssertEqual(state.triage.undoStack.count, 3)

        XCTAssertEqual(press(.character("u"), in: &state), [.triage(.undoRotate([items[0]], .rotateClockwise))],
                       "the rotation is undone first, not the older copy")
        XCTAssertEqual(state.message, "undoing the rotation right of IMG_1.HEIC…")
        state.reduce(.triage(.result(.finished(message: "Turned back IMG_1.HEIC", filesChanged: true))))
        XCTAssertEqual(state.message, "Turned back IMG_1.HEIC · u again undoes: rated IMG_1.HEIC ★★★",
                       "an undo done by the worker says what comes next too")
        XCTAssertEqual(press(.character("u"), in: &state), [.triage(.writeState(TriageState(), items[0]))])
        XCTAssertEqual(state.message, "undid: rated IMG_1.HEIC ★★★ · u again undoes: the copy of 1 item (IMG_2.JPG) to /out")
        XCTAssertEqual(state.triage.state(of: items[0].id), TriageState())

        // Something that cannot be undone stops `u`: it says so, and the copy below it stays.
        state.reduce(.triage(.result(.doneWithoutUndo(summary: "the rotated still copy IMG_1 (2).JPG", reason: "kept",
                                                      message: "Wrote", filesChanged: true))))
        XCTAssertEqual(press(.character("u"), in: &state), [])
        XCTAssertEqual(state.message, "cannot undo the rotated still copy IMG_1 (2).JPG: kept · nothing else was undone"
                       + " · u again undoes: the copy of 1 item (IMG_2.JPG) to /out")
        XCTAssertEqual(press(.character("u"), in: &state), [.triage(.undoTransfer(copy))])
        state.reduce(.triage(.result(.finished(message: "Removed the copies of 1 of 1 item", filesChanged: false))))
        XCTAssertEqual(state.message, "Removed the copies of 1 of 1 item", "nothing left to name")
        XCTAssertEqual(press(.character("u"), in: &state), [])
        XCTAssertEqual(state.message, "nothing to undo")
    }

    /// A batch of rotations is one undo entry.
    func testRotationsOfMarkedItemsUndoTogether() {
        var state = loaded()
        press(.character("m"), .character("m"), .character("]"), .character("y"), in: &state)
        state.reduce(.triage(.result(.rotated(items[0], .rotateClockwise, message: "Rotated"))))
        state.reduce(.triage(.result(.rotated(items[1], .rotateClockwise, message: "Rotated"))))
        XCTAssertEqual(press(.character("u"), in: &state), [.triage(.undoRotate([items[0], items[1]], .rotateClockwise))])
    }

    /// Issue 32.2: `q` while a copy runs asks; yes cancels it and quits once the rollback is reported.
    func testQuitDuringATransferAsksThenCancelsAndQuitsAfterTheRollback() {
        var state = loaded()
        press(.character("v"), in: &state)
        type("/elsewhere", in: &state)
        press(.enter, in: &state)
        XCTAssertTrue(state.triage.isTransferring)
        XCTAssertEqual(press(.character("q"), in: &state), [])
        XCTAssertFalse(state.wantsQuit)
        XCTAssertEqual(state.triage.prompt?.line, "A transfer is running: cancel it and quit? y/N ")
        XCTAssertEqual(press(.character("n"), in: &state), [])
        XCTAssertEqual(state.message, "the transfer goes on (Esc cancels it)")
        XCTAssertEqual(press(.character("u"), in: &state), [], "no undo while a transfer runs")
        press(.character("q"), in: &state)
        XCTAssertEqual(press(.character("y"), in: &state), [.triage(.cancelExport)])
        XCTAssertFalse(state.wantsQuit, "not before the transfer has stopped")
        let effects = state.reduce(.triage(.result(.transferred(nil, message: "Cancelled: Moved 0 of 1 item",
                                                               filesChanged: true))))
        XCTAssertTrue(state.wantsQuit)
        XCTAssertTrue(effects.contains(.quit))
    }

    /// `p` and `x` say what they did (they used to be silent), on the cursor item.
    func testPickAndRejectConfirmInTheStatusBar() {
        var state = loaded()
        press(.character("p"), in: &state)
        XCTAssertEqual(state.message, "picked IMG_1.HEIC ⚑")
        press(.character("p"), in: &state)
        XCTAssertEqual(state.message, "unpicked IMG_1.HEIC")
        press(.character("x"), in: &state)
        XCTAssertEqual(state.message, "rejected IMG_1.HEIC ✗")
        XCTAssertEqual(state.triage.state(of: items[0].id).flag, .reject)
        press(.character("0"), in: &state)
        XCTAssertEqual(state.message, "unrated IMG_1.HEIC")
        press(.character(";"), in: &state)
        XCTAssertEqual(state.message, "no marked items (m marks, M marks all)")
        XCTAssertFalse(state.triage.actsOnMarked)
    }


    func testMarkAndAdvanceAndRangeMarking() {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        let many = TestItems.stills(8)
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: many, warnings: [])))
        press(.character("m"), in: &state)
        XCTAssertEqual(state.selection, 1, "m marks and moves on")
        XCTAssertEqual(state.message, "marked IMG_1000.JPG · 1 marked")
        press(.character("l"), .character("l"), .character("l"), .character("V"), in: &state)   // cursor on 4
        XCTAssertEqual(state.triage.marks.ids, Set(many[0...4].map(\.id)), "from the last m up to the cursor")
        XCTAssertEqual(state.message, "marked 5 items (IMG_1000.JPG to IMG_1004.JPG) · 5 marked")
        press(.character("G"), .character("V"), in: &state)   // anchor moved to 4: 4...7
        XCTAssertEqual(state.triage.marks.count, 8)
        press(.character("U"), .character("g"), .character("V"), in: &state)
        XCTAssertEqual(state.triage.marks.ids, [many[0].id])
        XCTAssertTrue(state.message?.hasPrefix("range starts at IMG_1000.JPG") == true, state.message ?? "")
        press(.character("l"), .character("l"), .character("V"), in: &state)
        XCTAssertEqual(state.triage.marks.ids, Set(many[0...2].map(\.id)))
        press(.character("h"), .character("m"), in: &state)
        XCTAssertEqual(state.message, "unmarked IMG_1001.JPG · 2 marked")
    }

    /// The prefilled directory is selected: typing replaces it (an absolute path is taken as typed), → keeps
    /// it, Tab asks for completions and applies them.
    func testPromptTypingReplacesThePrefillAndTabCompletes() {
        var state = loaded()
        state.triage.lastDirectory = "/srv/old"
        press(.character("c"), in: &state)
        XCTAssertEqual(state.triage.prompt?.text, "/srv/old")
        XCTAssertTrue(state.triage.prompt?.isTextSelected == true)
        XCTAssertTrue(state.triage.prompt?.line.contains("type to replace") == true)
        type("/tmp/new", in: &state)
        XCTAssertEqual(state.triage.prompt?.text, "/tmp/new", "not joined onto the prefill")
        XCTAssertEqual(press(.enter, in: &state), [.triage(.transfer([items[0]], directory: "/tmp/new", move: false))])

        press(.character("v"), in: &state)
        press(.right, in: &state)
        type("/sub", in: &state)
        XCTAssertEqual(state.triage.prompt?.text, "/tmp/new/sub", "→ keeps the prefill and edits at its end")
        press(.character("\u{15}"), in: &state)
        type("/ph", in: &state)
        XCTAssertEqual(press(.tab, in: &state), [.triage(.completePath("/ph"))])
        state.reduce(.triage(.result(.completions(for: "/ph", candidates: ["/photos/", "/phone/"]))))
        XCTAssertEqual(state.triage.prompt?.text, "/pho", "the common prefix")
        XCTAssertTrue(state.triage.prompt?.line.contains("photos/ phone/") == true, state.triage.prompt?.line ?? "")
        XCTAssertEqual(press(.tab, in: &state), [], "a second Tab cycles without asking again")
        XCTAssertEqual(state.triage.prompt?.text, "/photos/")
        press(.tab, in: &state)
        XCTAssertEqual(state.triage.prompt?.text, "/phone/")
        type("x", in: &state)
        XCTAssertEqual(press(.tab, in: &state), [.triage(.completePath("/phone/x"))])
        state.reduce(.triage(.result(.completions(for: "/phone/x", candidates: ["/phone/xmas/"]))))
        XCTAssertEqual(state.triage.prompt?.text, "/phone/xmas/")
        state.reduce(.triage(.result(.completions(for: "/stale", candidates: ["/stale-dir/"]))))
        XCTAssertEqual(state.triage.prompt?.text, "/phone/xmas/", "an answer for older text is ignored")
        XCTAssertEqual(TriagePrompt.typedPath("/srv/old//tmp/x", home: "/h"), "/tmp/x", "// starts again, as in Emacs")
        XCTAssertEqual(TriagePrompt.typedPath("/srv/old/~/x", home: "/h"), "/h/x")
        XCTAssertEqual(TriagePrompt.typedPath("~/x", home: "/h"), "/h/x")
    }

    func testUndoCoversMoveAndCopy() {
        var state = loaded()
        let placed = ItemFileOperations.TransferUndo.Placed(source: "/photos/IMG_2.JPG", destination: "/out/IMG_2.JPG",
                                                            identity: nil)
        let move = ItemFileOperations.TransferUndo(isMove: true, items: [[placed]])
        XCTAssertEqual(state.reduce(.triage(.result(.transferred(move, message: "Moved 1 of 1 item", filesChanged: true)))),
                       [.startScan])
        XCTAssertEqual(press(.character("u"), in: &state), [.triage(.undoTransfer(move))])
        XCTAssertEqual(state.message, "undoing the move of 1 item (IMG_2.JPG) to /out: moving back…")
        XCTAssertEqual(press(.character("u"), in: &state), [])
        XCTAssertEqual(state.message, "nothing to undo")
        let copy = ItemFileOperations.TransferUndo(isMove: false, items: [[placed]])
        state.reduce(.triage(.result(.transferred(copy, message: "Copied", filesChanged: false))))
        XCTAssertEqual(press(.character("u"), in: &state), [.triage(.undoTransfer(copy))])
        XCTAssertEqual(state.message, "undoing the copy of 1 item (IMG_2.JPG) to /out: removing the copies…")
    }

    /// Issue 15: the help listed the rating keys as "3" (one command of six); it says 0-5 now, and a
    /// rebinding shows every key.
    func testHelpListsTheRatingKeysAsARange() throws {
        let lines = HelpScreen.lines(keymap: Keymap())
        let rating = try XCTUnwrap(lines.first { $0.hasPrefix("Rating 0-5") })
        XCTAssertTrue(rating.hasSuffix(" 0-5"), rating)
        XCTAssertTrue(lines.contains { $0.hasPrefix("…on marked") && $0.hasSuffix(";") })
        XCTAssertTrue(lines.contains { $0.hasPrefix("Mark range") && $0.hasSuffix("V") })
        let rebound = try BrowserConfig(parsing: "[keys]\nrate-5 = \"F5\"\n")
        let custom = try XCTUnwrap(HelpScreen.lines(keymap: rebound.keymap).first { $0.hasPrefix("Rating 0-5") })
        XCTAssertTrue(custom.hasSuffix("0 1 2 3 4 F5"), custom)
    }

    /// Coordinates are not in the panel until `L`; then they are read from the file (an effect) and shown,
    /// and hidden again they are forgotten.
    func testLocationIsShownOnlyAfterTheToggle() throws {
        var withGPS = TestItems.still("GPS.JPG")
        withGPS.still?.info.hasGPS = true
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: [withGPS, items[1]], warnings: [])))
        press(.character("i"), in: &state)
        var location = try XCTUnwrap(state.infoPanelLines(for: withGPS).first { $0.label == "Location" })
        XCTAssertEqual(location.value, "yes (hidden · L shows)")
        XCTAssertEqual(press(.character("L"), in: &state), [.triage(.readLocation(withGPS))])
        state.reduce(.triage(.result(.location(itemID: withGPS.id, text: "52.20970° N, 0.89550° W"))))
        location = try XCTUnwrap(state.infoPanelLines(for: withGPS).first { $0.label == "Location" })
        XCTAssertEqual(location.value, "52.20970° N, 0.89550° W (L hides)")
        XCTAssertEqual(press(.character("l"), in: &state), [], "an item without a position reads nothing")
        XCTAssertEqual(state.infoPanelLines(for: items[1]).first { $0.label == "Location" }?.value, "none")
        press(.character("h"), .character("L"), in: &state)
        XCTAssertTrue(state.triage.locations.isEmpty, "hidden coordinates are forgotten")
        XCTAssertEqual(state.infoPanelLines(for: withGPS).first { $0.label == "Location" }?.value, "yes (hidden · L shows)")
    }

    func testExportDialogStripLocationDefaultsFromTheConfigAndToggles() throws {
        XCTAssertTrue(try BrowserConfig(parsing: "[export]\nstrip_location = true\n").stripLocation)
        XCTAssertThrowsError(try BrowserConfig(parsing: "[export]\nstrip_location = \"yes\"\n"))
        var state = loaded()
        state.triage.stripLocationByDefault = true
        press(.character("e"), in: &state)
        XCTAssertEqual(state.triage.exportDialog?.stripLocation, true)
        press(.character("g"), in: &state)
        XCTAssertEqual(state.triage.exportDialog?.stripLocation, false)
        press(.character("g"), .enter, in: &state)
        type("/tmp/out", in: &state)
        XCTAssertEqual(press(.enter, in: &state), [.triage(.export(items: [items[0]], choices: [.livePhoto],
                                                                   destination: "/tmp/out", stripLocation: true))])
    }

    func testRotateAsksOnceForEveryMarkedItem() {
        var state = loaded()
        press(.character("m"), .character("m"), in: &state)   // items 0 and 1 marked
        press(.character("]"), in: &state)
        XCTAssertEqual(state.triage.prompt?.label, "Rotate 2 marked items: IMG_1.HEIC, IMG_2.JPG right in place? y/N "
                       + "· for CLIP.MOV instead: n, U (clears the marks), ] ")
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
        XCTAssertEqual(state.message, "1 item matches", "the filter itself is in the status bar's lasting part: said once")
        press(.character("f"), .character("5"), in: &state)
        XCTAssertEqual(state.message, "no item matches this filter")
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
        XCTAssertEqual(state.triage.prompt?.label, "Copy 2 marked items: IMG_1.HEIC, IMG_2.JPG to: ")
        type("~/outx", in: &state)
        press(.backspace, in: &state)
        XCTAssertEqual(state.selection, 2, "typing a directory does not move the grid")
        let expanded = TriagePrompt.typedPath("~/out", home: nil)
        XCTAssertEqual(press(.enter, in: &state),
                       [.triage(.transfer([items[0], items[1]], directory: expanded, move: false))])
        press(.character("v"), in: &state)
        XCTAssertEqual(state.triage.prompt?.text, expanded, "the last directory is the default")
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
        state.reduce(.triage(.result(.offerConvertToStill(items[0], .rotateClockwise, .writerRefused(cause: "no matrix")))))
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
                                                 choices: [.livePhoto, .stillPhoto, .livePhoto], destination: "/tmp/out",
                                                 stripLocation: false))])
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
