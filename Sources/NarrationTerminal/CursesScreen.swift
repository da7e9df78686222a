import CCurses
import Glibc
import NarrationCore

/// The studio's full screen, drawn with ncursesw: it redraws only what changed, knows every
/// terminal's key codes and cursor movement from terminfo, handles resizes (`KEY_RESIZE`) and
/// draws UTF-8 text, wide characters included.
///
/// The one owner of the curses screen: `open` starts it, `close()` ends it (`endwin`).
final class CursesScreen: TerminalScreen {
    private let screen: OpaquePointer
    private let colour: Bool
    private var closed = false

    /// Starts curses on stdin/stdout; nil when the terminal cannot address its cursor.
    /// The corresponding C functions are `setlocale`, `newterm`, `raw`, `keypad`.
    static func open(colour: Bool) -> CursesScreen? {
        setlocale(LC_ALL, "")
        if String(cString: nl_langinfo(Int32(CODESET))) != "UTF-8" {
            setlocale(LC_CTYPE, "C.UTF-8")  // titles are UTF-8 whatever the locale says
        }
        guard let screen = narrate_curses_start() else { return nil }
        guard let cursorMove = tigetstr("cup"), Int(bitPattern: cursorMove) != -1 else {
            endwin()
            delscreen(screen)
            return nil
        }
        raw()  // Ctrl-C arrives as a key, so that leaving can keep the take
        noecho()
        nonl()
        keypad(narrate_curses_window(), true)
        set_escdelay(25)
        curs_set(0)
        let colour = colour && has_colors()
        if colour {
            start_color()
            use_default_colors()
            for (pair, foreground) in [(1, COLOR_RED), (2, COLOR_GREEN), (3, COLOR_YELLOW), (4, COLOR_CYAN)] {
                init_pair(Int16(pair), Int16(foreground), -1)
            }
        }
        return CursesScreen(screen: screen, colour: colour)
    }

    private init(screen: OpaquePointer, colour: Bool) {
        self.screen = screen
        self.colour = colour
    }

    deinit {
        assert(closed, "close() the curses screen before letting it go")
    }

    var size: (width: Int, height: Int) { (Int(getmaxx(narrate_curses_window())), Int(getmaxy(narrate_curses_window()))) }

    func draw(_ frame: StudioFrame) {
        erase()
        for (row, line) in frame.lines.enumerated() {
            move(Int32(row), 0)
            var column = 0
            for span in line {
                var text = span.text
                // Writing the bottom-right cell scrolls some terminals: leave it empty.
                if row == frame.height - 1, column + text.terminalColumns >= frame.width {
                    text = text.clipped(to: max(0, frame.width - column - 1))
                }
                attrset(Int32(bitPattern: attributes(span.style)))
                addstr(text)
                column += text.terminalColumns
            }
        }
        attrset(0)
        refresh()
    }

    private func attributes(_ style: StudioStyle) -> attr_t {
        let bold = narrate_curses_bold(), reverse = narrate_curses_reverse(), dim = narrate_curses_dim()
        let pair = { (number: Int16) in self.colour ? narrate_curses_color_pair(number) : 0 }
        switch style {
        case .plain: return 0
        case .heading, .key: return bold
        case .dim: return colour ? dim : 0
        case .selected: return reverse
        case .recording: return bold | pair(1)
        case .playing: return bold | pair(2)
        case .meterGreen: return pair(2)
        case .meterYellow: return pair(3)
        case .meterRed: return pair(1)
        case .problem: return colour ? bold | pair(1) : bold
        }
    }

    func nextKey(waiting milliseconds: Int) -> KeyPress? {
        timeout(Int32(milliseconds))
        var character: wint_t = 0
        switch get_wch(&character) {
        case KEY_CODE_YES:
            return Self.functionKey(Int32(character))
        case OK:
            return Self.characterKey(UInt32(character))
        default:
            return nil
        }
    }

    private static func functionKey(_ code: Int32) -> KeyPress? {
        switch code {
        case KEY_UP: .up
        case KEY_DOWN: .down
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_PPAGE: .pageUp
        case KEY_NPAGE: .pageDown
        case KEY_HOME: .home
        case KEY_END: .end
        case KEY_DC: .delete
        case KEY_BACKSPACE: .backspace
        case KEY_ENTER: .enter
        case KEY_RESIZE: .resize
        default: nil
        }
    }

    private static func characterKey(_ value: UInt32) -> KeyPress? {
        switch value {
        case 27: return .escape
        case 3: return .interrupt
        case 10, 13: return .enter
        case 9: return .tab
        case 8, 127: return .backspace
        case 0..<32: return nil
        default: return Unicode.Scalar(value).map { .character(Character($0)) }
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        endwin()
        delscreen(screen)
    }
}
