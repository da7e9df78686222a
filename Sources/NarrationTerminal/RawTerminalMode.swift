import Glibc

/// stdin switched to read key by key, without echo, until `restore()` puts it back.
///
/// The one place that changes the terminal's line discipline: the line screen and the key reader
/// of `record` and `play` both use it.
public final class RawTerminalMode {
    private var saved = termios()
    private var restored = false

    /// Switches stdin; nil when stdin is not a terminal.
    /// - Parameter keepSignals: true leaves Ctrl-C sending SIGINT; false makes it a key (byte 3).
    /// The corresponding C functions are `tcgetattr` and `tcsetattr`.
    public init?(keepSignals: Bool) {
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(keepSignals ? ICANON | ECHO : ICANON | ECHO | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
    }

    /// Puts the terminal back as it was; later calls do nothing.
    public func restore() {
        guard !restored else { return }
        restored = true
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }

    deinit { restore() }
}
