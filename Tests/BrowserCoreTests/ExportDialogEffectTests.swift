import BrowserCore
import LibraryCore
import LibraryCore
import LivePairing
import TerminalProtocol
import XCTest

/// The export dialog's effects (issue 20): `e` cycles loop → bounce → GIF → long exposure → none on the item
/// under the cursor, each choice asks for a preview first, Enter then a destination writes the effects
/// through the studio and the rest through the exporter.
final class ExportDialogEffectTests: XCTestCase {
    private let keymap = Keymap()
    private let items = [TestItems.live("IMG_1"), TestItems.still("IMG_2.JPG")]

    private func inDialog() -> BrowserState {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: 120, rows: 40))
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: items, warnings: [])))
        press(.character("M"), .character("e"), in: &state)
        XCTAssertEqual(state.triage.exportDialog?.entries.count, 2)
        return state
    }

    @discardableResult
    private func press(_ keys: KeyInput..., in state: inout BrowserState) -> [BrowserEffect] {
        var effects: [BrowserEffect] = []
        for key in keys {
            guard let action = keymap.action(for: key, in: state) else { continue }
            effects += state.reduce(action)
        }
        return effects
    }

    func testECyclesTheEffectsAndEachAsksForAPreviewFirst() throws {
        var state = inDialog()
        let live = items[0]
        XCTAssertEqual(press(.character("e"), in: &state), [.studio(.previewEffect(live, .loop))])
        XCTAssertEqual(state.triage.exportDialog?.preview, EffectPreview(itemID: live.id, effect: .loop, phase: .rendering))
        XCTAssertTrue(try XCTUnwrap(state.message).contains("nothing is written yet"))
        let entry = try XCTUnwrap(state.triage.exportDialog?.entries.first)
        XCTAssertEqual(state.triage.exportDialog?.choiceName(for: entry), "Loop (effect)")
        state.reduce(.studio(.effectPreviewReady(itemID: live.id, effect: .loop)))
        XCTAssertEqual(state.triage.exportDialog?.preview?.phase, .showing)
        XCTAssertTrue(try XCTUnwrap(state.message).hasPrefix("previewing loop"))
        XCTAssertEqual(press(.character("e"), in: &state), [.studio(.previewEffect(live, .bounce))])
        // The loop's late report does not mark the bounce preview ready.
        state.reduce(.studio(.effectPreviewReady(itemID: live.id, effect: .loop)))
        XCTAssertEqual(state.triage.exportDialog?.preview?.phase, .rendering)
        XCTAssertEqual(press(.character("e"), in: &state), [.studio(.previewEffect(live, .gif))])
        XCTAssertEqual(press(.character("e"), in: &state), [.studio(.previewEffect(live, .longExposure))])
        XCTAssertEqual(press(.character("e"), in: &state), [.studio(.stopEffectPreview)], "after long exposure: no effect")
        XCTAssertNil(state.triage.exportDialog?.preview)
        XCTAssertEqual(state.triage.exportDialog?.choiceName(for: entry), "Live Photo")
    }

    func testAStillHasNoEffectsAndLiveOrStillReplacesAnEffect() {
        var state = inDialog()
        press(.down, in: &state)
        XCTAssertEqual(press(.character("e"), in: &state), [])
        XCTAssertEqual(state.message, "effects need a Live or Motion Photo whose movie plays")
        press(.up, .character("e"), in: &state)
        XCTAssertEqual(state.triage.exportDialog?.effect(for: items[0]), .loop)
        press(.character("s"), in: &state)
        XCTAssertNil(state.triage.exportDialog?.effect(for: items[0]), "s makes it a still again")
    }

    func testAFailedPreviewSaysWhy() {
        var state = inDialog()
        press(.character("e"), in: &state)
        state.reduce(.studio(.effectPreviewFailed(itemID: items[0].id, effect: .loop, .effectNotRendered(cause: "cannot decode"))))
        XCTAssertEqual(state.triage.exportDialog?.preview?.phase, .failed(.effectNotRendered(cause: "cannot decode")))
        XCTAssertEqual(state.message, "loop cannot be made: cannot decode")
    }

    func testEnterWritesEffectsThroughTheStudioAndTheRestThroughTheExporter() {
        var state = inDialog()
        press(.character("e"), in: &state)
        press(.enter, in: &state)
        press(.character("\u{15}"), in: &state)
        for character in "/out" { press(.character(character), in: &state) }
        let effects = press(.enter, in: &state)
        XCTAssertTrue(effects.contains(.studio(.stopEffectPreview)), "the preview stops")
        XCTAssertTrue(effects.contains(.studio(.exportEffects(items: [items[0]], effects: [.loop], destination: "/out"))), "\(effects)")
        XCTAssertTrue(effects.contains(.triage(.export(items: [items[1]], choices: [.stillPhoto], destination: "/out", stripLocation: false))),
                      "\(effects)")
        XCTAssertNil(state.triage.exportDialog)
        state.reduce(.studio(.effectsExported(message: "Exported IMG_1-loop.mp4 to /out")))
        XCTAssertEqual(state.message, "Exported IMG_1-loop.mp4 to /out")
    }

    func testEscStopsThePreviewWithoutWriting() {
        var state = inDialog()
        press(.character("e"), in: &state)
        let effects = press(.escape, in: &state)
        XCTAssertTrue(effects.contains(.studio(.stopEffectPreview)))
        XCTAssertFalse(effects.contains { if case .studio(.exportEffects) = $0 { return true } else { return false } })
        XCTAssertNil(state.triage.exportDialog)
    }
}
