import CNCurses

public enum CursesLibraryVersion {
    public static var version: String { String(cString: curses_version()) }
}
