import BrowserRuntime
import CNCurses
import BrowserCore

/// The effects' hold on the screen (`ScreenControl`): curses' text and the pictures of the protocol in use.
final class CursesScreen: ScreenControl {
    private let output: any PictureOutput

    init(output: any PictureOutput) {
        self.output = output
    }

    func redrawAll() {
        clearok(curscr, true)
        output.redrawAfterClear(size: TerminalSize(columns: Int(COLS), rows: Int(LINES)))
    }
}

extension BrowserPlayback: PlaybackService {}
