import Foundation
import NarrationCore
import Synchronization

/// Progress of long work on stderr: a bar on a terminal once the work has taken a second, or,
/// in json mode, `{"event":"progress","stage":…,"done":…,"total":…}` lines. Safe to update from
/// any thread (uploads report from the HTTP client's).
final class ProgressBar: Sendable {
    private struct State {
        var shown = false
        var lastDrawn = Date.distantPast
    }

    private let label: String
    private let stage: String
    private let mode: ProgressMode
    private let started = Date()
    private let state = Mutex(State())

    /// - Parameter stage: the stage's name in json lines ("export", "upload").
    init(label: String, stage: String = "export", mode: ProgressMode = .auto) {
        self.label = label
        self.stage = stage
        self.mode = mode
    }

    func update(done: Int, total: Int) {
        guard total > 0 else { return }
        switch mode {
        case .none: return
        case .auto: guard TerminalCapabilities.stderrIsTerminal else { return }
        case .bar, .json: break
        }
        let now = Date()
        let due = state.withLock { state in
            let finished = done >= total
            guard mode == .json || now.timeIntervalSince(started) > 1,
                now.timeIntervalSince(state.lastDrawn) > (mode == .json ? 0.05 : 0.1) || (finished && mode == .json)
            else { return false }
            state.lastDrawn = now
            state.shown = true
            return true
        }
        guard due else { return }
        if mode == .json {
            Console.printJSONLine(ProgressEvent(stage: stage, done: done, total: total))
            return
        }
        let fraction = min(1, Double(done) / Double(total))
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        Console.status("\r\u{1B}[K\(label) \(bar) \(Int(fraction * 100))%")
    }

    func finish() {
        if mode != .json, state.withLock({ $0.shown }) { Console.status("\r\u{1B}[K") }
    }

    private struct ProgressEvent: Encodable {
        let event = "progress"
        let stage: String
        let done: Int
        let total: Int
    }
}
