import Foundation
import Glibc
import Narration
import NarrationCore
import NarrationTerminal

/// Key presses from a terminal on stdin, without Enter and without echo, while it lives.
///
/// Puts the terminal in raw mode (signals such as Ctrl-C still work) and restores it on
/// `stop()`. A reader thread of its own (it waits on the terminal for as long as the command
/// runs) polls stdin every 100 ms, so that it can end when asked and tell a lone Escape from the
/// start of an arrow key.
final class TerminalKeys: @unchecked Sendable {
    private let rawMode: RawTerminalMode
    private let lock = NSLock()
    private var running = true

    /// Starts reading keys when stdin is a terminal; nil otherwise.
    static func start(onKey: @escaping @Sendable (KeyPress) -> Void) -> TerminalKeys? {
        guard let rawMode = RawTerminalMode(keepSignals: true) else { return nil }
        let keys = TerminalKeys(rawMode: rawMode)
        DedicatedThread.start(named: "narrate-keys", because: .blocksIndefinitely) {
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
        return keys
    }

    private init(rawMode: RawTerminalMode) {
        self.rawMode = rawMode
    }

    private var isRunning: Bool { lock.withLock { running } }

    /// Stops reading and restores the terminal as it was.
    func stop() {
        lock.withLock { running = false }
        rawMode.restore()
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

    static var colour: Bool { stderrIsTerminal && colourAllowed }

    /// Neither NO_COLOR nor TERM=dumb: colour is welcome on a terminal.
    static var colourAllowed: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }
}
