import Foundation
import Glibc

/// A command running in a detached tmux session of a fixed size: a real terminal for tests that
/// type keys and read the screen. The session is killed when the value goes away.
public final class TmuxSession {
    public let name = "narrate-\(getpid())-\(Int.random(in: 0..<1_000_000))"

    /// Starts `command` (a shell command line) with `environment` on a terminal of `width` × `height`.
    /// After the command ends, the pane shows `EXIT=<status>` and stays open.
    /// - Parameter terminal: the TERM the command sees, and NO_COLOR=1 with it; nil keeps tmux's
    ///   own TERM (whose key sequences tmux sends) and colour.
    public init(
        _ command: String, environment: [String: String], width: Int = 100, height: Int = 10, terminal: String? = "xterm-256color"
    ) throws {
        // A UTF-8 locale unless the test gives one: tmux and ncurses draw "…" and "日本語" only then,
        // and CI's environment need not have one.
        var environment = environment
        if environment["LC_ALL"] == nil && environment["LANG"] == nil { environment["LANG"] = "C.UTF-8" }
        let assignments = environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        // The tmux server passes on the environment of whoever started it: NO_COLOR only if asked.
        let terminalSetting = terminal.map { "TERM=\($0) NO_COLOR=1 " } ?? "-u NO_COLOR "
        try Signals.run("tmux", [
            "-u", "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)",
            "env \(terminalSetting)\(assignments) \(command); echo EXIT=$?; sleep 60",
        ])
    }

    /// The screen's text with its colours and attributes as escape sequences.
    public func styledScreen() throws -> String {
        try Signals.run("tmux", ["capture-pane", "-e", "-p", "-t", name])
    }

    /// Types `text` literally (UTF-8 included), not as key names.
    public func type(_ text: String) throws {
        try Signals.run("tmux", ["send-keys", "-t", name, "-l", text])
    }

    /// The process id of the command (the shell tmux runs it in execs it through `env`).
    public func commandPID() throws -> Int32 {
        let shell = try Signals.run("tmux", ["display-message", "-p", "-t", name, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let child = try Signals.run("pgrep", ["-P", shell]).split(separator: "\n").first.map(String.init) ?? ""
        guard let pid = Int32(child) else { throw FixtureError("no command is running in tmux session \(name)") }
        return pid
    }

    /// Resizes the terminal, as a volunteer dragging the window's corner would.
    public func resize(width: Int, height: Int) throws {
        try Signals.run("tmux", ["resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
    }

    /// The screen's text now.
    public func screen() throws -> String {
        try Signals.run("tmux", ["capture-pane", "-p", "-t", name])
    }

    /// The screen once it contains `text` and has settled, or as it is after `seconds`.
    ///
    /// Settled: read again 40 ms later with the same text (at most four times, keeping the last
    /// read that still holds `text`, so a screen with a running clock is not waited out). A
    /// program draws a screen in several writes, and tmux may be read between them, with the
    /// line sought drawn and the next one not yet; a test reading the lines around it would then
    /// see half a screen.
    public func screen(containing text: String, within seconds: Double = 5) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var screen = try self.screen()
        while !screen.contains(text) && Date() < deadline {
            usleep(25_000)
            screen = try self.screen()
        }
        guard screen.contains(text) else { return screen }
        for _ in 0..<4 {
            usleep(40_000)
            let again = try self.screen()
            guard again.contains(text), again != screen else { break }
            screen = again
        }
        return screen
    }

    /// Types keys, in tmux's names ("Space", "Enter", "Right", "q").
    public func send(_ keys: String...) throws {
        try Signals.run("tmux", ["send-keys", "-t", name] + keys)
    }

    deinit { _ = try? Signals.run("tmux", ["kill-session", "-t", name]) }
}
