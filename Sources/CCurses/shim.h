#ifndef NARRATE_CCURSES_SHIM_H
#define NARRATE_CCURSES_SHIM_H
// The wide-character API (get_wch, UTF-8 in addnstr) needs this before the header.
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <langinfo.h>
#include <ncursesw/curses.h>

// Attributes and colour pairs are function-like macros in curses.h, which Swift cannot call.
static inline attr_t narrate_curses_bold(void) { return A_BOLD; }
static inline attr_t narrate_curses_reverse(void) { return A_REVERSE; }
static inline attr_t narrate_curses_dim(void) { return A_DIM; }
static inline attr_t narrate_curses_color_pair(short pair) { return COLOR_PAIR(pair); }

// stdin, stdout and stdscr are mutable C globals, which Swift 6 refuses to touch directly.
static inline SCREEN *narrate_curses_start(void) { return newterm(NULL, stdout, stdin); }
static inline WINDOW *narrate_curses_window(void) { return stdscr; }
#endif
