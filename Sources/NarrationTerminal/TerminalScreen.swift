public import NarrationCore

/// A terminal the studio draws on and reads keys from.
public protocol TerminalScreen: AnyObject {
    /// Columns and rows now; they change when the terminal is resized.
    var size: (width: Int, height: Int) { get }
    /// Shows `frame`, changing only what differs from the frame shown before.
    func draw(_ frame: StudioFrame)
    /// The next key, waiting at most `milliseconds`; nil if none came.
    func nextKey(waiting milliseconds: Int) -> KeyPress?
    /// Gives the terminal back as it was.
    func close()
}

/// Opens the right screen for this terminal.
public enum TerminalScreens {
    /// A full screen drawn with ncursesw, or, on a terminal that cannot move its cursor
    /// (`TERM=dumb`), a line screen that prints the screen anew when it changes.
    /// - Parameter colour: false for `NO_COLOR`: styles become bold, reverse and dim only.
    /// - Throws: `usage` when stdin or stdout is not a terminal.
    public static func open(environment: [String: String], colour: Bool) throws(NarrationError) -> any TerminalScreen {
        guard LineScreen.isTerminal else {
            throw .usage("narrate studio needs a terminal (stdin and stdout); for scripts use record, play and queue.")
        }
        if environment["TERM"] != "dumb", let screen = CursesScreen.open(colour: colour) {
            return screen
        }
        return LineScreen()
    }
}
