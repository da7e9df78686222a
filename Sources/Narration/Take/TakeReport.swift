public import NarrationCore

/// What the volunteer is told after a take: the chunk it became, the failing device or full disk
/// that stopped it and what was kept, or that nothing was captured. `narrate record` and the
/// studio say the same things, the command line with every figure and the studio in a line that
/// fits under its chunk list (`Detail`).
///
/// A take that could not be committed now (`Recording.Outcome.deferredBecause`) is not said here:
/// each front end says when it will be added.
public struct TakeReport: Sendable {
    /// How much the sentences tell.
    public enum Detail: Sendable {
        /// The length to the millisecond, peak and RMS, and overruns even when there were none
        /// (`narrate record`).
        case full
        /// The length to the tenth of a second and the peak; overruns only when there were some
        /// (the studio).
        case brief
    }

    public let outcome: Recording.Outcome
    public let detail: Detail

    public init(_ outcome: Recording.Outcome, detail: Detail) {
        self.outcome = outcome
        self.detail = detail
    }

    /// The capture device's failure or the full disk that stopped the take; nil when it stopped
    /// as asked or after its duration.
    public var problem: NarrationError? {
        switch outcome.reason {
        case .deviceFailed(let error), .diskFull(let error): error
        case .durationReached, .requested: nil
        }
    }

    /// "Chunk 3 recorded: …" (or "re-recorded") with its length, peak and overruns, when the take
    /// became a chunk; else nil.
    public var saved: String? {
        guard let chunk = outcome.chunk, let index = outcome.index else { return nil }
        if let punch = outcome.punch {
            let at = chunk.format.seconds(punch.at)
            let take = chunk.format.seconds(punch.takeFrames)
            switch detail {
            case .full:
                return "Chunk \(index) punched in at \(Timecode.precise(at)): \(Timecode.precise(take)) recorded over its end; now \(Timecode.precise(chunk.duration)), peak \(chunk.peak), RMS \(chunk.rms)."
            case .brief:
                return "Chunk \(index) punched in at \(Timecode.tenths(at)): now \(Timecode.tenths(chunk.duration)), peak \(chunk.peak)."
            }
        }
        var verb = !outcome.replaced.isEmpty ? "re-recorded" : "recorded"
        if let paragraph = outcome.paragraph {
            verb += " (paragraph \(paragraph.number)\(outcome.replaced.count > 1 ? ", replacing its \(outcome.replaced.count) chunks" : ""))"
        }
        let lost = "\(chunk.overruns) overrun\(chunk.overruns == 1 ? "" : "s") (some audio was lost)"
        switch detail {
        case .full:
            let overruns = chunk.overruns == 0 ? "no overruns" : lost
            return "Chunk \(index) \(verb): \(Timecode.precise(chunk.duration)), peak \(chunk.peak), RMS \(chunk.rms), \(overruns)."
        case .brief:
            let overruns = chunk.overruns == 0 ? "" : ", " + lost
            return "Chunk \(index) \(verb): \(Timecode.tenths(chunk.duration)), peak \(chunk.peak)\(overruns)."
        }
    }

    /// What stopped the take (`problem`'s message) and what was kept of it; nil when there was
    /// no problem.
    public var stopped: String? {
        guard let problem else { return nil }
        switch detail {
        case .full:
            let kept = outcome.chunk.flatMap { chunk in
                outcome.index.map { "Recording stopped; the \(Timecode.precise(chunk.duration)) captured before that was kept as chunk \($0)." }
            } ?? "Nothing was captured, so nothing was added."
            return "\(problem.message) \(kept)"
        case .brief:
            let kept = outcome.index.map { " What was captured before is kept as chunk \($0)." } ?? " Nothing had been captured."
            return "Recording stopped: \(problem.message)\(kept)"
        }
    }

    /// Said when the take stopped as asked before any audio came, so nothing was added (and
    /// nothing waits to be); else nil.
    public var empty: String? {
        guard problem == nil, outcome.chunk == nil, outcome.deferredBecause == nil else { return nil }
        return "Stopped before any audio was captured; nothing was added."
    }
}
