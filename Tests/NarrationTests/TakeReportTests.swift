import Foundation
@testable import Narration
import NarrationCore
import Testing

/// What the volunteer is told after a take: `narrate record` with every figure, the studio in
/// one line under its chunk list.
@Suite("After a take")
struct TakeReportTests {
    static let full = NarrationError(.fileSystem, "The disk holding the data root is full.")

    /// A take of 1.55 s (68 355 frames) committed as chunk 3, or nothing captured when `frames` is nil.
    static func outcome(frames: FrameCount? = 68_355, overruns: Int = 0, replaced: Bool = false, reason: Recording.StopReason = .requested) -> Recording.Outcome {
        let chunk = frames.map {
            Chunk(
                id: ChunkID("take"), articleID: ArticleID("article"), frames: $0, format: .speech, peak: Decibels(-6),
                rms: Decibels(-9), overruns: overruns, recovered: false, recordedAt: Date())
        }
        return Recording.Outcome(
            chunk: chunk, index: chunk.map { _ in ChunkIndex(3) }, file: URL(fileURLWithPath: "/data/take.wav"),
            replaced: replaced ? [ChunkID("older")] : [], reason: reason, deferredBecause: nil)
    }

    @Test("a saved take: the command line gives milliseconds, RMS and overruns even when none; the studio tenths and overruns only when some")
    func saved() {
        #expect(TakeReport(Self.outcome(), detail: .full).saved == "Chunk 3 recorded: 00:00:01.550, peak -6.0 dBFS, RMS -9.0 dBFS, no overruns.")
        #expect(TakeReport(Self.outcome(), detail: .brief).saved == "Chunk 3 recorded: 00:00:01.5, peak -6.0 dBFS.")
        #expect(TakeReport(Self.outcome(overruns: 2, replaced: true), detail: .full).saved
            == "Chunk 3 re-recorded: 00:00:01.550, peak -6.0 dBFS, RMS -9.0 dBFS, 2 overruns (some audio was lost).")
        #expect(TakeReport(Self.outcome(overruns: 1), detail: .brief).saved == "Chunk 3 recorded: 00:00:01.5, peak -6.0 dBFS, 1 overrun (some audio was lost).")
        #expect(TakeReport(Self.outcome(), detail: .full).stopped == nil)
        #expect(TakeReport(Self.outcome(), detail: .full).empty == nil)
    }

    @Test("a full disk or a failing device: the problem, then what was kept")
    func stopped() {
        let kept = Self.outcome(reason: .diskFull(Self.full))
        #expect(TakeReport(kept, detail: .full).stopped == "\(Self.full.message) Recording stopped; the 00:00:01.550 captured before that was kept as chunk 3.")
        #expect(TakeReport(kept, detail: .brief).stopped == "Recording stopped: \(Self.full.message) What was captured before is kept as chunk 3.")
        let nothing = Self.outcome(frames: nil, reason: .deviceFailed(Self.full))
        #expect(TakeReport(nothing, detail: .full).stopped == "\(Self.full.message) Nothing was captured, so nothing was added.")
        #expect(TakeReport(nothing, detail: .brief).stopped == "Recording stopped: \(Self.full.message) Nothing had been captured.")
        #expect(TakeReport(nothing, detail: .brief).problem == Self.full)
        #expect(TakeReport(nothing, detail: .brief).empty == nil, "the problem is said instead")
    }

    @Test("stopped before any audio came: the same words in both", arguments: [TakeReport.Detail.full, .brief])
    func empty(detail: TakeReport.Detail) {
        let report = TakeReport(Self.outcome(frames: nil), detail: detail)
        #expect(report.empty == "Stopped before any audio was captured; nothing was added.")
        #expect(report.saved == nil && report.stopped == nil && report.problem == nil)
    }
}
