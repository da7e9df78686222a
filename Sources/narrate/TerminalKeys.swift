import Foundation
import Glibc
import NarrationCore

/// Key presses from a terminal on stdin, without Enter and without echo, while it lives.
///
/// Puts the terminal in non-canonical mode (signals such as Ctrl-C still work) and restores it
/// on `stop()`. A reader thread polls stdin so that it can end when asked.
final class TerminalKeys: @unchecked Sendable {
    private var saved = termios()
    private let lock = NSLock()
    private var running = true

    /// Starts reading keys when stdin is a terminal; nil otherwise.
    static func start(onKey: @escaping @Sendable (KeyPress) -> Void) -> TerminalKeys? {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        let keys = TerminalKeys()
        guard tcgetattr(STDIN_FILENO, &keys.saved) == 0 else { return nil }
        var raw = keys.saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        let thread = Thread {
            var decoder = KeyDecoder()
            var pollDescriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            while keys.isRunning {
                guard poll(&pollDescriptor, 1, 100) > 0 else {
                    if let key = decoder.flush() { onKey(key) }  // a lone Escape
                    continue
                }
                var byte: UInt8 = 0
                guard read(STDIN_FILENO, &byte, 1) == 1 else { return }
                if let key = decoder.feed(byte) { onKey(key) }
            }
        }
        thread.name = "narrate-keys"
        thread.start()
        return keys
    }

    private var isRunning: Bool { lock.withLock { running } }

    /// Stops reading and restores the terminal as it was.
    func stop() {
        lock.withLock { running = false }
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }
}

/// Turns SIGINT, SIGTERM and SIGHUP into a call, instead of ending the process, while it lives.
final class SignalTrap {
    private let sources: [any DispatchSourceSignal]

    init(_ handler: @escaping @Sendable (Int32) -> Void) {
        sources = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }
}

/// Whether stderr shows colour: a terminal, and neither NO_COLOR nor TERM=dumb.
enum TerminalCapabilities {
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    static var colour: Bool {
        let environment = ProcessInfo.processInfo.environment
        return stderrIsTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }
}
