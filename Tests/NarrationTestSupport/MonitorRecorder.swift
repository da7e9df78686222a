public import Foundation
import Glibc

/// `parec` recording what a `PulseServer`'s null sink plays (its monitor), as raw 16-bit mono:
/// what a listener would have heard, paced in real time.
public final class MonitorRecorder {
    private let process: ChildProcess
    private let file: URL

    /// Starts recording at `rate` Hz and waits half a second for the stream to be up.
    public init(_ pulse: PulseServer, rate: Int = 44_100) throws {
        file = pulse.folder.file("monitor-\(Int.random(in: 0..<1_000_000)).raw")
        process = try ChildProcess(
            "parec",
            ["--device", "vspk.monitor", "--raw", "--format=s16le", "--rate=\(rate)", "--channels=1"],
            environment: ProcessInfo.processInfo.environment.merging(pulse.environment) { $1 },
            stdoutFile: file, stderrFile: pulse.folder.file("parec.log"))
        usleep(500_000)
    }

    /// Stops recording (after half a second more, for the sink's last block) and returns the samples.
    public func finish() throws -> [Int16] {
        usleep(500_000)
        process.signal(SIGTERM)
        _ = process.wait()
        return Splices.int16([UInt8](try Data(contentsOf: file)))
    }

    /// `samples` without runs of 32 or more zeros: the silence a sink plays before, between (while
    /// paused) and after a stream. Noise has no such run, so what is left is what was played.
    public static func withoutSilence(_ samples: [Int16]) -> [Int16] {
        var kept: [Int16] = []
        var zeros = 0
        for sample in samples {
            if sample == 0 {
                zeros += 1
                continue
            }
            if zeros > 0 && zeros < 32 { kept += repeatElement(0, count: zeros) }
            zeros = 0
            kept.append(sample)
        }
        return kept
    }
}
