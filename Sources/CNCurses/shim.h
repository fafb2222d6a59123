#ifndef LIVEGRID_CNCURSES_SHIM_H
#define LIVEGRID_CNCURSES_SHIM_H
// The wide-character API (cchar_t, setcchar, mvadd_wch) needs this before <ncurses.h>.
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
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
