import Foundation
import NarrationCore

/// A progress bar on stderr for work that takes longer than a second, on a terminal only.
final class ProgressBar {
    private let label: String
    private let started = Date()
    private var shown = false
    private var lastDrawn = Date.distantPast

    init(label: String) { self.label = label }

    func update(done: Int, total: Int) {
        guard TerminalCapabilities.stderrIsTerminal, total > 0 else { return }
        let now = Date()
        guard now.timeIntervalSince(started) > 1, now.timeIntervalSince(lastDrawn) > 0.1 else { return }
        lastDrawn = now
        shown = true
        let fraction = min(1, Double(done) / Double(total))
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        Console.status("\r\u{1B}[K\(label) \(bar) \(Int(fraction * 100))%")
    }

    func finish() {
        if shown { Console.status("\r\u{1B}[K") }
    }
}
