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
#endif
