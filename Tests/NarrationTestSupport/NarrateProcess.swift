public import Foundation
import Glibc

/// The built `narrate` binary, run as a volunteer would run it, with its own data root.
public struct Narrate: Sendable {
    public let home: URL
    public let environment: [String: String]

    /// The binary SwiftPM built beside the test bundle.
    public static let executable: URL = {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testBinary.deletingLastPathComponent().appendingPathComponent("narrate")
    }()

    public init(home: URL, environment: [String: String] = [:]) {
        self.home = home
        var merged = ProcessInfo.processInfo.environment
        let outside = [
            "ALSA_CONFIG_PATH", "PULSE_SERVER", "PULSE_SOURCE", "PULSE_SINK", "NO_COLOR", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
            "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_REGION", "AWS_DEFAULT_REGION",
        ]
        for key in outside { merged[key] = nil }
        // Credentials files are looked up under HOME: keep the tester's own out of reach.
        merged["HOME"] = home.deletingLastPathComponent().path
        merged["NARRATE_HOME"] = home.path
        merged.merge(environment) { $1 }
        self.environment = merged
    }

    /// What a finished run printed and how it ended.
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String

        /// stdout parsed as JSON.
        public func json() throws -> Any {
            try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        }
    }

    /// Runs `narrate arguments…` to the end.
    @discardableResult
    public func run(_ arguments: String...) throws -> Result {
        try run(arguments)
    }

    public func run(_ arguments: [String]) throws -> Result {
        let running = try start(arguments)
        return running.wait()
    }

    /// Starts `narrate arguments…` and returns at once.
    public func start(_ arguments: [String]) throws -> Running {
        try Running(executable: Self.executable, arguments: arguments, environment: environment)
    }

    /// A `narrate` process still running: its stderr can be read line by line while it runs.
    public final class Running: @unchecked Sendable {
        private let child: ChildProcess
        private let folder = TemporaryFolder("narrate-running")
        private var stderrBuffer = Data()
        private var stderrLines: [String] = []

        init(executable: URL, arguments: [String], environment: [String: String]) throws {
            child = try ChildProcess(
                executable.path, arguments, environment: environment, stdoutFile: folder.file("stdout"), stderrFile: nil)
        }

        public var pid: Int32 { child.pid }

        /// The next line on stderr, blocking; nil at the end.
        public func nextStderrLine() -> String? {
            while true {
                if let newline = stderrBuffer.firstIndex(of: 10) {
                    let line = String(decoding: stderrBuffer[stderrBuffer.startIndex..<newline], as: UTF8.self)
                    stderrBuffer.removeSubrange(stderrBuffer.startIndex...newline)
                    stderrLines.append(line)
                    return line
                }
                let more = child.stderrPipe!.availableData
                if more.isEmpty { return nil }
                stderrBuffer.append(more)
            }
        }

        /// Reads stderr until a line satisfies `predicate`; returns it (nil if stderr ended).
        public func waitForStderrLine(where predicate: (String) -> Bool) -> String? {
            while let line = nextStderrLine() {
                if predicate(line) { return line }
            }
            return nil
        }

        public func signal(_ number: Int32) { child.signal(number) }

        /// Waits for the end and collects all output.
        public func wait() -> Result {
            let rest = child.stderrPipe!.readDataToEndOfFile()
            let status = child.wait()
            let earlier = stderrLines.map { $0 + "\n" }.joined()
            return Result(
                status: status,
                stdout: (try? String(contentsOf: folder.file("stdout"), encoding: .utf8)) ?? "",
                stderr: earlier + String(decoding: stderrBuffer + rest, as: UTF8.self))
        }
    }
}

/// Seconds on `CLOCK_MONOTONIC`, the clock `narrate record --progress json` stamps capture with.
public func monotonicNow() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
