import Foundation
import Glibc

/// A command running in a detached tmux session of a fixed size: a real terminal for tests that
/// type keys and read the screen. The session is killed when the value goes away.
public final class TmuxSession {
    public let name = "narrate-\(getpid())-\(Int.random(in: 0..<1_000_000))"

    /// Starts `command` (a shell command line) with `environment` on a terminal of `width` × `height`.
    /// After the command ends, the pane shows `EXIT=<status>` and stays open.
    public init(_ command: String, environment: [String: String], width: Int = 100, height: Int = 10) throws {
        let assignments = environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        try Signals.run("tmux", [
            "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)",
            "env TERM=xterm-256color NO_COLOR=1 \(assignments) \(command); echo EXIT=$?; sleep 60",
        ])
    }

    /// The screen's text now.
    public func screen() throws -> String {
        try Signals.run("tmux", ["capture-pane", "-p", "-t", name])
    }

    /// The screen once it contains `text`, or as it is after `seconds`.
    public func screen(containing text: String, within seconds: Double = 5) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var screen = try self.screen()
        while !screen.contains(text) && Date() < deadline {
            usleep(25_000)
            screen = try self.screen()
        }
        return screen
    }

    /// Types keys, in tmux's names ("Space", "Enter", "Right", "q").
    public func send(_ keys: String...) throws {
        try Signals.run("tmux", ["send-keys", "-t", name] + keys)
    }

    deinit { _ = try? Signals.run("tmux", ["kill-session", "-t", name]) }
}
