import Foundation

/// A stretch of one chunk's file whose sound is the room's noise alone, for the noise profile.
public struct NoiseProfileStretch: Sendable, Equatable {
    /// The chunk's position among those measured (not its 1-based number).
    public let chunk: Int
    /// Frames of the chunk's file.
    public let frames: Range<FrameCount>

    public init(chunk: Int, frames: Range<FrameCount>) {
        self.chunk = chunk
        self.frames = frames
    }
}

/// Where an article's noise profile is taken from: its own quiet stretches, found in the chunks'
/// 100 ms windows (the rule of `nr-study/REPORT.md` §6.2).
///
/// - Windows at most 4 dB above the noise floor (the quietest 500 ms) are quiet.
/// - Runs of quiet windows of at least 0.3 s within one chunk are stretches, less 50 ms at each
///   end (a breath or a word's tail is not the room).
/// - The quietest stretches are taken first, up to 10 s in all: several seconds gathered from
///   across the article describe a room whose noise swells (traffic, air conditioning) better
///   than its quietest moment alone, which underestimates it (pauses then rose from −63.5 to
///   −60.0 dBFS in the study).
/// - Less than 0.5 s found: the quietest 500 ms itself.
///
/// Each stretch is profiled on its own (`NoiseProfile`), never joined to the next.
public enum NoiseProfileStretches {
    public static let margin = 4.0
    public static let shortestRunSeconds = 0.3
    public static let trimSeconds = 0.05
    public static let mostSeconds = 10.0
    public static let leastSeconds = 0.5

    /// The stretches to profile, in the order of the article; empty when the article has not
    /// even 500 ms of whole windows.
    /// - Parameters:
    ///   - levels: the article's levels over the stretches an export keeps.
    ///   - measures: the chunks' measures `levels` was made from, in the same order.
    public static func choose(from levels: MeasuredLevels, measures: [ChunkMeasure]) -> [NoiseProfileStretch] {
        guard let quietest = levels.quietestStretch, let rate = measures.first?.sampleRate else { return [] }
        let threshold = pow(10, (quietest.rms.value + margin) / 10)
        let powers = levels.windowPowers
        let sources = levels.windowSources
        /// Whether window `index` follows window `index − 1` without a gap in the same chunk.
        func continues(_ index: Int) -> Bool {
            index > 0 && sources[index].chunk == sources[index - 1].chunk && sources[index].window == sources[index - 1].window + 1
        }
        /// The frames of windows `run` (contiguous, in one chunk), less `trim` at each end.
        func stretch(_ run: Range<Int>, trim: FrameCount) -> NoiseProfileStretch {
            let chunk = sources[run.lowerBound].chunk
            let size = measures[chunk].windowFrames
            let start = sources[run.lowerBound].window * size + trim
            let end = sources[run.upperBound - 1].window * size + measures[chunk].frames(inWindow: sources[run.upperBound - 1].window) - trim
            return NoiseProfileStretch(chunk: chunk, frames: start..<max(start, end))
        }

        var runs: [(windows: Range<Int>, power: Double)] = []
        var start: Int?
        for index in 0...powers.count {
            let quiet = index < powers.count && powers[index] <= threshold
            if let first = start, !quiet || !continues(index) {
                if Double(index - first) * ChunkMeasure.windowSeconds >= shortestRunSeconds - 1e-9 {
                    runs.append((first..<index, powers[first..<index].reduce(0, +) / Double(index - first)))
                }
                start = nil
            }
            if quiet && start == nil { start = index }
        }
        // The quietest first (the earlier of two equally quiet), up to `mostSeconds` in all.
        let ordered = runs.enumerated().sorted { ($0.element.power, $0.offset) < ($1.element.power, $1.offset) }.map(\.element)
        let trim = Int((Double(rate) * trimSeconds).rounded())
        let most = Int((Double(rate) * mostSeconds).rounded())
        var chosen: [NoiseProfileStretch] = []
        var total = 0
        for run in ordered where total < most {
            let whole = stretch(run.windows, trim: trim)
            let kept = NoiseProfileStretch(chunk: whole.chunk, frames: whole.frames.lowerBound..<min(whole.frames.upperBound, whole.frames.lowerBound + most - total))
            guard !kept.frames.isEmpty else { continue }
            chosen.append(kept)
            total += kept.frames.count
        }
        if Double(total) < Double(rate) * leastSeconds {
            // The quietest 500 ms, split where it crosses from one chunk into the next.
            chosen = []
            var first = quietest.first
            for index in (quietest.first + 1)...(quietest.first + 5) where index == quietest.first + 5 || !continues(index) {
                chosen.append(stretch(first..<index, trim: 0))
                first = index
            }
        }
        return chosen.sorted { ($0.chunk, $0.frames.lowerBound) < ($1.chunk, $1.frames.lowerBound) }
    }
}
