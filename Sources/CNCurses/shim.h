#ifndef LIVEGRID_CNCURSES_SHIM_H
#define LIVEGRID_CNCURSES_SHIM_H
// The wide-character API (cchar_t, setcchar, mvadd_wch) needs this before <ncurses.h>.
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <string.h>
#include <ncurses.h>

// Function-like macros are invisible to Swift: expose the ones the UI needs as inline functions.
static inline int lg_color_pair(int n) { return COLOR_PAIR(n); }
static inline int lg_getmaxy(WINDOW *w) { return getmaxy(w); }
static inline int lg_getmaxx(WINDOW *w) { return getmaxx(w); }
static inline WINDOW *lg_stdscr(void) { return stdscr; }
static inline int lg_colors(void) { return COLORS; }
static inline int lg_color_pairs(void) { return COLOR_PAIRS; }
static inline int lg_key_resize(void) { return KEY_RESIZE; }
static inline int lg_key_mouse(void) { return KEY_MOUSE; }
static inline int lg_key_code_yes(void) { return KEY_CODE_YES; }
// Attribute and mouse masks are built with function-like macros (NCURSES_BITS, NCURSES_MOUSE_MASK).
static inline attr_t lg_a_reverse(void) { return A_REVERSE; }
static inline attr_t lg_a_bold(void) { return A_BOLD; }
static inline attr_t lg_a_dim(void) { return A_DIM; }
static inline attr_t lg_a_underline(void) { return A_UNDERLINE; }
static inline mmask_t lg_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t lg_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t lg_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t lg_button1_double_clicked(void) { return BUTTON1_DOUBLE_CLICKED; }
static inline mmask_t lg_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t lg_button5_pressed(void) { return BUTTON5_PRESSED; }
/// Writes one wide character with an extended colour pair (pairs above 32767 go through `opts`).
static inline int lg_put_cell(WINDOW *w, int y, int x, wchar_t ch, attr_t attrs, int pair) {
    cchar_t cell;
    wchar_t text[2] = { ch, 0 };
    if (setcchar(&cell, text, attrs, 0, &pair) != OK) return ERR;
    return mvwadd_wch(w, y, x, &cell);
}
static inline attr_t lg_a_invis(void) { return A_INVIS; }
/// The attributes of the cell at (y, x) of `w` (its cursor moves there), 0 outside the window.
static inline attr_t lg_cell_attrs(WINDOW *w, int y, int x) {
    cchar_t cell;
    if (mvwin_wch(w, y, x, &cell) == ERR) return 0;
    wchar_t text[CCHARW_MAX + 1];
    attr_t attrs = 0;
    short pair = 0;
    if (getcchar(&cell, text, &attrs, &pair, 0) == ERR) return 0;
    return attrs;
}
/// Copies the cell at (y, x) of `from` into `to` exactly (no rendition merge: curscr's own attributes are the
/// terminal's current SGR, which `wadd_wch` would mix in), both windows' cursors kept.
static inline void lg_copy_cell(WINDOW *from, WINDOW *to, int y, int x) {
    int fromY = getcury(from), fromX = getcurx(from), toY = getcury(to), toX = getcurx(to);
    cchar_t cell[2];
    if (mvwin_wchnstr(from, y, x, cell, 1) != ERR) mvwadd_wchnstr(to, y, x, cell, 1);
    wmove(from, fromY, fromX);
    wmove(to, toY, toX);
}
/// Copies `count` cells of row `from` to row `to` in `w` (cursor kept): curscr told of a scroll made outside curses.
static inline void lg_copy_row(WINDOW *w, int from, int to, int count) {
    int oldY = getcury(w), oldX = getcurx(w);
    cchar_t cells[count + 1];
    if (mvwin_wchnstr(w, from, 0, cells, count) != ERR) mvwadd_wchnstr(w, to, 0, cells, count);
    wmove(w, oldY, oldX);
}
/// Makes curses forget the hash it keeps of curscr's row `row` (its scroll optimiser pairs new lines with old
/// lines by these hashes, computed when curses itself last wrote the row) while keeping the row's content:
/// wredrawln rehashes the row as a zeroed line, which pairs with nothing, and the saved cells are put back, so
/// the next update writes only real differences. Needed after curscr's rows were moved behind curses' back.
static inline void lg_forget_row_hash(WINDOW *window, WINDOW *screen, int row, int count) {
    int oldY = getcury(screen), oldX = getcurx(screen);
    cchar_t cells[count + 1];
    int saved = mvwin_wchnstr(screen, row, 0, cells, count) != ERR;
    wredrawln(window, row, 1);
    if (saved) mvwadd_wchnstr(screen, row, 0, cells, count);
    wmove(screen, oldY, oldX);
}
/// Sets row `row` of `w` to blanks in the default colours (cursor kept).
static inline void lg_blank_row(WINDOW *w, int row, int count) {
    int oldY = getcury(w), oldX = getcurx(w);
    cchar_t blanks[count + 1];
    wchar_t text[2] = { L' ', 0 };
    for (int x = 0; x < count; x++) setcchar(&blanks[x], text, A_NORMAL, 0, 0);
    memset(&blanks[count], 0, sizeof(cchar_t));
    mvwadd_wchnstr(w, row, 0, blanks, count);
    wmove(w, oldY, oldX);
}
/// A hash of row `row` of `w` (glyphs, attributes, colour pairs of its first `count` cells; cursor kept), to
/// compare rows of the window with rows of curscr.
static inline unsigned long long lg_row_hash(WINDOW *w, int row, int count) {
    int oldY = getcury(w), oldX = getcurx(w);
    cchar_t cells[count + 1];
    unsigned long long hash = 1469598103934665603ULL;
    if (mvwin_wchnstr(w, row, 0, cells, count) != ERR) {
        for (int x = 0; x < count; x++) {
            wchar_t text[CCHARW_MAX + 1] = { 0 };
            attr_t attrs = 0;
            short pair = 0;
            int extended = 0;
            getcchar(&cells[x], text, &attrs, &pair, &extended);
            unsigned long long parts[3] = { (unsigned long long)text[0], (unsigned long long)attrs, (unsigned long long)extended };
            for (int k = 0; k < 3; k++) { hash ^= parts[k]; hash *= 1099511628211ULL; }
        }
    }
    wmove(w, oldY, oldX);
    return hash;
}
/// Sets the attributes and extended colour pair for following text.
static inline int lg_set_attr(WINDOW *w, attr_t attrs, int pair) {
    return wattr_set(w, attrs, 0, &pair);
}
// From <term.h>, declared here rather than included: its capability macros (lines, columns, ...) would leak.
struct term;
extern int setupterm(const char *, int, int *);
extern struct term *set_curterm(struct term *);
extern int del_curterm(struct term *);
/// Reads `colors#` and the `RGB` flag of terminfo entry `name` without touching the current terminal.
/// Returns 0 when there is no such entry.
static inline int lg_terminfo_colors(const char *name, int *colors, int *rgb) {
    struct term *previous = set_curterm(0);
    int error = 0;
    int found = setupterm(name, 1, &error) == OK;
    if (found) {
        *colors = tigetnum("colors");
        int flag = tigetflag("RGB");
        *rgb = flag > 0;
        del_curterm(set_curterm(previous));
    } else {
        set_curterm(previous);
    }
    return found;
}
#endif
