import Foundation
import Testing

/// The rule of Sources/Narration/Narration.docc/Concurrency.md, checked on the source tree:
/// blocking work goes through `BlockingWork`; only a few named types own threads, and nothing
/// waits on a semaphore, polls with a sleep or sets a GCD timer outside the files below.
@Suite("Who may make threads, wait on semaphores and sleep")
struct ConcurrencyRuleTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// What the rule looks for, each with the words of a finding.
    static let forbidden: [(pattern: String, what: String)] = [
        (#"\bThread\s*[({]"#, "makes a thread"),
        (#"\bThread\s*\.\s*detachNewThread"#, "makes a thread"),
        (#"\bpthread_create\b"#, "makes a thread"),
        (#"\bDispatchSemaphore\b"#, "has a semaphore"),
        (#"\busleep\s*\("#, "sleeps"),
        (#"\bThread\s*\.\s*sleep\b"#, "sleeps"),
        (#"\.asyncAfter\s*\("#, "sets a GCD timer"),
    ]

    /// The files (or folders, ending in "/") allowed each of those, relative to Sources/, and why.
    static let allowed: [(path: String, what: String, why: String)] = [
        ("Narration/Library/WorkerPool.swift", "makes a thread", "the reused threads behind BlockingWork, ParallelWork and ThreadExecutor"),
        ("Narration/Library/DedicatedThread.swift", "makes a thread", "threads of their own for real-time audio and for code that blocks for as long as it lives"),
        ("narrate/DisplayRefresh.swift", "sleeps", "a live display redraws at a fixed rate: a timer, not a wait for an event"),
        ("NarrationAudio/StreamedCapture.swift", "has a semaphore",
         "the take's capture thread (a DedicatedThread, never async code) waits up to 20 ms for the browser's next samples"),
        ("WebStudio/StudioHost.swift", "has a semaphore",
         "the web studio's session loop (a DedicatedThread, never async code) sleeps until a page's message or its next tick"),
    ]

    /// Every line of Sources/ that breaks the rule, as "path:line: what: text"; comments are not code.
    static func findings() throws -> [String] {
        let expressions = try forbidden.map { (try NSRegularExpression(pattern: $0.pattern), $0.what) }
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        var findings: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = String(line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                for (expression, what) in expressions
                where expression.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil {
                    let excused = allowed.contains { $0.what == what && ($0.path == file || ($0.path.hasSuffix("/") && file.hasPrefix($0.path))) }
                    if !excused { findings.append("\(file):\(number + 1): \(what): \(line.trimmingCharacters(in: .whitespaces))") }
                }
            }
        }
        return findings
    }

    @Test("only the allowed files make threads, hold semaphores, sleep or set GCD timers")
    func onlyAllowedFiles() throws {
        #expect(FileManager.default.fileExists(atPath: Self.sources.appendingPathComponent("Narration/Library/BlockingWork.swift").path))
        #expect(try Self.findings() == [])
    }

    @Test("every allowance is still used: a file that no longer needs one loses it")
    func noStaleAllowance() throws {
        let expressions = try Self.forbidden.map { (try NSRegularExpression(pattern: $0.pattern), $0.what) }
        for allowance in Self.allowed {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(allowance.path), encoding: .utf8)
            let code = text.split(separator: "\n").map { String($0.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "") }
            let used = code.contains { line in
                expressions.contains { $0.1 == allowance.what && $0.0.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil }
            }
            #expect(used, "\(allowance.path) is allowed to \(allowance.what) but no longer does: remove its allowance")
        }
    }

    @Test("the rule finds what it is for", arguments: [
        "let thread = Thread { work() }", "Thread(block: body).start()", "let done = DispatchSemaphore(value: 0)", "usleep(5_000)",
        "Thread.sleep(forTimeInterval: 0.002)", "DispatchQueue.global().asyncAfter(deadline: .now() + 1) {}",
    ])
    func findsWhatItIsFor(line: String) throws {
        let matched = try Self.forbidden.filter { rule in
            try NSRegularExpression(pattern: rule.pattern).firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
        }
        #expect(matched.count == 1)
    }
}
