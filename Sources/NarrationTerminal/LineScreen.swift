import Glibc
import NarrationCore

/// The studio on a terminal that cannot move its cursor (`TERM=dumb`, an editor's shell): the
/// screen's lines that are not blank are printed anew, without colour, whenever anything but the
/// status and meter changes; those two share the last line, rewritten with a carriage return.
final class LineScreen: TerminalScreen {
    static var isTerminal: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    private let rawMode = RawTerminalMode(keepSignals: false)  // Ctrl-C arrives as a key, as with curses
    private var decoder = KeyDecoder()
    private var shownBody: [String] = []
    private var shownStatus = ""

    var size: (width: Int, height: Int) {
        var window = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 {
            return (Int(window.ws_col), Int(window.ws_row))
        }
        return (80, 24)
    }

    func draw(_ frame: StudioFrame) {
        let lines = frame.lines.map { line in line.map(\.text).joined().trimmingTrailingSpaces }
        let statusRows = 3...4
        let body = lines.enumerated().filter { !statusRows.contains($0.offset) && !$0.element.isEmpty }.map(\.element)
        let status = lines[statusRows].joined(separator: " ").trimmingTrailingSpaces
        // The status line comes last, so that a carriage return can rewrite it in place.
        if body != shownBody {
            write("\n" + body.joined(separator: "\n") + "\n" + status)
            shownBody = body
        } else if status != shownStatus {
            write("\r" + status.fitted(to: frame.width - 1))
        }
        shownStatus = status
    }

    func nextKey(waiting milliseconds: Int) -> KeyPress? {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        var remaining = Int32(milliseconds)
        while poll(&descriptor, 1, remaining) > 0 {
            var byte: UInt8 = 0
            guard read(STDIN_FILENO, &byte, 1) == 1 else { return nil }
            if let key = decoder.feed(byte) { return key }
            remaining = 30  // the rest of an escape sequence or a UTF-8 character comes at once
        }
        return decoder.flush()
    }

    func close() {
        rawMode?.restore()
        write("\n")
    }

    private func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = Glibc.write(STDOUT_FILENO, bytes.baseAddress, bytes.count) }
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        String(self[..<(lastIndex { $0 != " " }.map { index(after: $0) } ?? startIndex)])
    }
}
