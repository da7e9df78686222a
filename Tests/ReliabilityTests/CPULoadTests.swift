import Foundation
import NarrationTestSupport
import Testing

/// Capture from the emulated USB microphone (paced in real time, 1 s of device buffer) while
/// stress-ng keeps every core busy: whatever audio is lost must be counted and said, never
/// dropped silently.
@Suite("Capture under CPU load", .serialized)
struct CPULoadTests {
    /// stress-ng on twice as many workers as there are cores, for `seconds`.
    private func load(seconds: Int) throws -> ChildProcess {
        let workers = 2 * ProcessInfo.processInfo.activeProcessorCount
        return try ChildProcess("/usr/bin/stress-ng", ["--cpu", String(workers), "--timeout", "\(seconds)s", "--quiet"], environment: ProcessInfo.processInfo.environment,
            stdoutFile: nil, stderrFile: URL(fileURLWithPath: "/dev/null"))
    }

    /// A take of about `seconds` under load, optionally stalled by SIGSTOP for `stall` seconds.
    /// - Returns: the chunk's JSON, the wall time from the first frame to the stop, and what was printed.
    private func loadedTake(_ fixture: EndToEndFixture, seconds: Double, stall: Double) throws -> (chunk: [String: Any], wall: Double, stdout: String) {
        let running = try fixture.narrate.start(["record", "--device", "usbmic", "--progress", "json"])
        let line = try #require(running.waitForStderrLine { $0.contains("\"event\":\"started\"") })
        let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let firstFrame = try #require(event["firstFrameMonotonic"] as? Double)
        if stall > 0 {
            usleep(300_000)
            kill(running.pid, SIGSTOP)
            usleep(UInt32(stall * 1_000_000))
            kill(running.pid, SIGCONT)
        }
        while monotonicNow() < firstFrame + seconds { _ = running.nextStderrLine() }
        let stoppedAt = monotonicNow()
        running.signal(SIGINT)
        let result = running.wait()
        #expect(result.status == 0, "\(result.stderr)")
        let chunk = try #require(try fixture.chunks().last)
        return (chunk, stoppedAt - firstFrame, result.stdout)
    }

    @Test("busy cores: a take is as long as the wall time, or its overruns are counted and said; a stall past the buffer is always counted")
    func underLoad() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle()
        let stress = try load(seconds: 20)
        defer {
            stress.signal(SIGTERM)
            _ = stress.wait()
        }
        usleep(500_000)  // let the workers spin up

        for take in 1...3 {
            let (chunk, wall, stdout) = try loadedTake(fixture, seconds: 2, stall: 0)
            let duration = try #require(chunk["duration"] as? Double)
            let overruns = try #require(chunk["overruns"] as? Int)
            // Lost audio is never silent: a take shorter than the wall time has overruns counted.
            #expect(duration >= wall - 0.1 || overruns > 0, "take \(take): \(duration) s in \(wall) s with no overrun counted")
            if overruns > 0 { #expect(stdout.contains("\(overruns) overrun") && stdout.contains("(some audio was lost)")) }
            print("figure: under load (\(2 * ProcessInfo.processInfo.activeProcessorCount) stress-ng workers), take \(take): \(String(format: "%.3f", duration)) s of \(String(format: "%.3f", wall)) s wall, \(overruns) overrun(s)")
        }

        let (chunk, wall, stdout) = try loadedTake(fixture, seconds: 3, stall: 1.6)
        let overruns = try #require(chunk["overruns"] as? Int)
        let duration = try #require(chunk["duration"] as? Double)
        #expect(overruns >= 1, "a 1.6 s stall with a 1 s buffer must overrun")
        #expect(stdout.contains("\(overruns) overrun") && stdout.contains("(some audio was lost)"), "\(stdout)")
        #expect(duration < wall - 0.3, "the stall lost audio: \(duration) s of \(wall) s")
        let listing = try fixture.narrate.run("chunks").stdout
        #expect(listing.contains("  \(overruns)\n") || listing.contains("  \(overruns)  "), "chunks shows the overruns: \(listing)")
        print("figure: under load with a 1.6 s stall: \(String(format: "%.3f", duration)) s of \(String(format: "%.3f", wall)) s wall, \(overruns) overrun(s) counted and printed")
    }
}
