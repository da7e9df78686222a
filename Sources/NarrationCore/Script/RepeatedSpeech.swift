/// Where a take says the same thing twice in a row, found from its sound alone: the stretch
/// after a pause that sounds like the stretch before it, as when a reader stops and begins
/// the sentence again. The recogniser's words often miss such a restart (its language model of
/// the article pulls a repeat toward the text's next words); one voice saying the same words
/// twice within seconds sounds alike whatever was heard.
///
/// For each pause of at least `Settings.pauseBefore` (where a second attempt may begin, B), and
/// each earlier place where speech begins within `Settings.lookBack` (a first attempt, A: after a
/// pause, or at a word the recogniser placed), the speech from A is aligned with the speech from
/// B by dynamic time warping of their `SpeechFrames` (steps of one frame in either or both,
/// the cost the mean distance between aligned frames). The longest stretch from A that aligns
/// with the start of B's at a mean distance of at most `Settings.sameness` is read twice if it
/// lasts `Settings.shortest` or more and at most `Settings.longestBetween` of speech lies
/// between its end and B (a broken-off word, "sorry"). Of several A for one B the longest
/// match is kept; it is then begun earlier while the speech before both attempts still sounds
/// alike (`extendedBack`), and of finds that overlap the longest stays.
///
/// Pure logic.
public struct RepeatedSpeech: Sendable, Equatable {
    public struct Settings: Sendable, Equatable {
        /// The shortest pause (seconds) before a second attempt.
        public var pauseBefore: Double
        /// How far back (seconds) from a second attempt its first may begin.
        public var lookBack: Double
        /// The longest first attempt compared (seconds).
        public var longestAttempt: Double
        /// The shortest stretch (seconds of the first attempt) that shows words said twice.
        public var shortest: Double
        /// The most speech (seconds) between the end of the first attempt's match and the
        /// second attempt.
        public var longestBetween: Double
        /// The largest mean frame distance of two attempts at the same words.
        public var sameness: Float

        public init(
            pauseBefore: Double = 0.15, lookBack: Double = 6, longestAttempt: Double = 3, shortest: Double = 0.55,
            longestBetween: Double = 1.6, sameness: Float = 8
        ) {
            self.pauseBefore = pauseBefore
            self.lookBack = lookBack
            self.longestAttempt = longestAttempt
            self.shortest = shortest
            self.longestBetween = longestBetween
            self.sameness = sameness
        }
    }

    /// One stretch said twice: the first attempt from `first` (seconds) matching for
    /// `matched` seconds, the second from `second`; `distance` the mean frame distance.
    public struct Repeat: Sendable, Equatable {
        public var first: Double
        public var matched: Double
        public var second: Double
        public var distance: Float

        public init(first: Double, matched: Double, second: Double, distance: Float) {
            self.first = first
            self.matched = matched
            self.second = second
            self.distance = distance
        }
    }

    public let repeats: [Repeat]

    /// - Parameters:
    ///   - frames: the take's `SpeechFrames`.
    ///   - envelope: its levels, for where speech begins after a pause.
    ///   - wordStarts: where the recogniser placed words (seconds), more places a first
    ///     attempt may begin.
    public init(frames: SpeechFrames, envelope: LevelEnvelope, wordStarts: [Double], settings: Settings = Settings()) {
        let found = Self.candidates(frames: frames, envelope: envelope, wordStarts: wordStarts, settings: settings)
            .compactMap { $0.max { ($0.matched, -$0.distance) < ($1.matched, -$1.distance) } }
            .map { Self.extendedBack($0, frames: frames, envelope: envelope, sameness: settings.sameness) }
        // One restart is often found again at a later pause inside it (the same words, the
        // same distance apart): of overlapping finds the longest match stays.
        var kept: [Repeat] = []
        for candidate in found.sorted(by: { ($0.matched, -$0.distance) > ($1.matched, -$1.distance) })
        where !kept.contains(where: { $0.first < candidate.second && candidate.first < $0.second }) {
            kept.append(candidate)
        }
        repeats = kept.sorted { $0.first < $1.first }
    }

    /// `found` begun earlier while what comes before both attempts still sounds alike: a
    /// second attempt that follows the first without a pause is first found at a later pause,
    /// both attempts' starts inside the words read twice. Going back frame by frame at the
    /// same distance apart, through speech in both or silence in both, until one speaks where
    /// the other is silent (more than 3 frames) or 10 frames of speech differ on average by
    /// more than `sameness`; the start moves back to the earliest frame of speech before that.
    static func extendedBack(_ found: Repeat, frames: SpeechFrames, envelope: LevelEnvelope, sameness: Float) -> Repeat {
        let first = frames.frame(at: found.first), second = frames.frame(at: found.second)
        let dimensions = frames.dimensions, window = 10
        func speaking(_ frame: Int) -> Bool {
            let level = Int((Double(frame) * frames.frameSeconds / LevelEnvelope.frameSeconds).rounded())
            return envelope.levels.indices.contains(level) && envelope.levels[level] > envelope.speechThreshold
        }
        var spoken: [(back: Int, distance: Float)] = []  // frames back where both speak
        var unlike = 0
        var back = 1
        while first - back >= 0 {
            let a = first - back, b = second - back
            let (speakingA, speakingB) = (speaking(a), speaking(b))
            if speakingA != speakingB {
                unlike += 1
                if unlike > 3 { break }
            } else {
                unlike = 0
            }
            if speakingA && speakingB {
                var sum: Float = 0
                for k in 0..<dimensions {
                    let difference = frames.values[a * dimensions + k] - frames.values[b * dimensions + k]
                    sum += difference * difference
                }
                spoken.append((back, sum.squareRoot()))
                if spoken.count >= window, spoken.suffix(window).reduce(0, { $0 + $1.distance }) / Float(window) > sameness {
                    spoken.removeLast(window)
                    break
                }
            }
            back += 1
        }
        guard let furthest = spoken.last?.back else { return found }
        var extended = found
        let seconds = Double(furthest) * frames.frameSeconds
        extended.first -= seconds
        extended.second -= seconds
        extended.matched += seconds
        return extended
    }

    /// The stretches of speech in the envelope (seconds), gaps under 0.1 s closed.
    static func speech(_ envelope: LevelEnvelope) -> [Range<Double>] {
        let closing = Int((0.1 / LevelEnvelope.frameSeconds).rounded()) - 1
        return SpeechActivity.runs(of: envelope.levels, above: envelope.speechThreshold, closingGapsOf: closing).map {
            Double($0.lowerBound) * LevelEnvelope.frameSeconds..<Double($0.upperBound) * LevelEnvelope.frameSeconds
        }
    }

    /// For each second attempt (a pause of `pauseBefore` or more), every first attempt that
    /// aligns with it (none when nothing does).
    static func candidates(frames: SpeechFrames, envelope: LevelEnvelope, wordStarts: [Double], settings: Settings) -> [[Repeat]] {
        let runs = speech(envelope)
        guard runs.count > 1, frames.count > 0 else { return [] }
        var found: [[Repeat]] = []
        for b in 1..<runs.count where runs[b].lowerBound - runs[b - 1].upperBound >= settings.pauseBefore {
            let second = runs[b].lowerBound
            let starts = Set(
                runs[..<b].map(\.lowerBound).filter { second - $0 <= settings.lookBack }
                    + wordStarts.filter { second - $0 <= settings.lookBack && $0 < runs[b - 1].upperBound }
                        .map { envelope.onset(near: $0, notBefore: $0 - 0.15) }
            ).sorted()
            var repeats: [Repeat] = []
            for first in starts where first < runs[b - 1].upperBound - settings.shortest {
                let attemptEnd = min(runs[b - 1].upperBound, first + settings.longestAttempt)
                guard let (length, distance) = longestMatch(
                    frames, from: frames.frame(at: first), to: frames.frame(at: attemptEnd), against: frames.frame(at: second),
                    shortest: Int((settings.shortest / frames.frameSeconds).rounded()), sameness: settings.sameness)
                else { continue }
                let matched = Double(length) * frames.frameSeconds
                let between = runs.reduce(0.0) { sum, run in
                    sum + max(0, min(run.upperBound, second) - max(run.lowerBound, first + matched))
                }
                guard between <= settings.longestBetween else { continue }
                repeats.append(Repeat(first: first, matched: matched, second: second, distance: distance))
            }
            found.append(repeats)
        }
        return found
    }

    /// The longest run of frames from `from` (up to `to`) that aligns with frames from
    /// `against` at a mean distance of at most `sameness`, and that distance; nil when it is
    /// shorter than `shortest` frames. The search stops once the rows' best mean passes twice
    /// `sameness`.
    static func longestMatch(_ frames: SpeechFrames, from: Int, to: Int, against: Int, shortest: Int, sameness: Float) -> (Int, Float)? {
        guard to - from >= shortest else { return nil }
        var best: (Int, Float)?
        aligning(frames, from: from, to: to, against: against) { row, mean in
            if mean <= sameness, row + 1 >= shortest { best = (row + 1, mean) }
            return !(mean > 2 * sameness && row + 1 >= shortest)
        }
        return best
    }

    /// Where a second attempt that follows the first without a pause begins: of the frames
    /// within `reach` seconds of `near` (where the recogniser put it) and at least `span` after
    /// `first`, the one whose speech aligns best with the `span` seconds from `first`, if that
    /// alignment's mean distance is at most `sameness`; nil otherwise. Within speech the level
    /// shows no edge, and the recogniser's boundary there can be a syllable out.
    public static func alignedStart(of first: Double, near: Double, frames: SpeechFrames, reach: Double = 0.25, span: Double = 0.4, sameness: Float) -> Double? {
        guard first.isFinite, near.isFinite, frames.count > 0 else { return nil }
        let from = frames.frame(at: first), rows = Int((span / frames.frameSeconds).rounded())
        let low = max(from + rows, frames.frame(at: near - reach)), high = min(frames.count - rows, frames.frame(at: near + reach))
        guard rows > 0, from + rows <= frames.count, low <= high else { return nil }
        var best: (frame: Int, mean: Float)?
        for candidate in low...high {
            var last = Float.greatestFiniteMagnitude
            aligning(frames, from: from, to: from + rows, against: candidate) { _, mean in
                last = mean
                return true
            }
            if last <= sameness, last < best?.mean ?? .greatestFiniteMagnitude { best = (candidate, last) }
        }
        return best.map { Double($0.frame) * frames.frameSeconds }
    }

    /// Dynamic time warping of the frames from `from` (up to `to`) against those from
    /// `against` (up to one and a half times as many), steps of one frame in either or both, the
    /// cost of a path the mean distance of its aligned frames. `row` is told each row's cheapest
    /// mean, in order, until it returns false.
    static func aligning(_ frames: SpeechFrames, from: Int, to: Int, against: Int, row body: (Int, Float) -> Bool) {
        let rows = to - from
        let columns = min(frames.count - against, rows * 3 / 2 + 10)
        guard rows > 0, columns > 0, from >= 0, against >= 0 else { return }
        let dimensions = frames.dimensions
        let infinity = Float.greatestFiniteMagnitude
        // cost[j], steps[j]: the cheapest path to (row, j) and its length in frames of both.
        var previous = [Float](repeating: infinity, count: columns), previousSteps = [Int](repeating: 0, count: columns)
        var current = previous, currentSteps = previousSteps
        frames.values.withUnsafeBufferPointer { values in
            func distance(_ a: Int, _ b: Int) -> Float {
                var sum: Float = 0
                for k in 0..<dimensions {
                    let difference = values[a * dimensions + k] - values[b * dimensions + k]
                    sum += difference * difference
                }
                return sum.squareRoot()
            }
            for row in 0..<rows {
                let low = max(0, row * 3 / 5 - 10), high = min(columns, row * 8 / 5 + 11)
                for j in 0..<columns { current[j] = infinity }
                var rowBest = infinity
                for j in low..<max(low, high) {
                    let d = distance(from + row, against + j)
                    var cost = infinity, steps = 0
                    if row == 0 && j == 0 {
                        cost = 2 * d
                        steps = 2
                    } else {
                        if row > 0, j > 0, previous[j - 1] < infinity, previous[j - 1] + 2 * d < cost {
                            cost = previous[j - 1] + 2 * d
                            steps = previousSteps[j - 1] + 2
                        }
                        if row > 0, previous[j] < infinity, previous[j] + d < cost {
                            cost = previous[j] + d
                            steps = previousSteps[j] + 1
                        }
                        if j > 0, current[j - 1] < infinity, current[j - 1] + d < cost {
                            cost = current[j - 1] + d
                            steps = currentSteps[j - 1] + 1
                        }
                    }
                    current[j] = cost
                    currentSteps[j] = steps
                    if cost < infinity { rowBest = min(rowBest, cost / Float(steps)) }
                }
                guard body(row, rowBest) else { return }
                swap(&previous, &current)
                swap(&previousSteps, &currentSteps)
            }
        }
    }
}
