/// A take's level in short frames (5 ms), fine enough to place a cut between words: where the
/// speech of a word begins, and the quietest moment of the pause before it.
///
/// Pure maths over mono `Float` samples (full scale 1.0).
public struct LevelEnvelope: Sendable, Equatable {
    public static let frameSeconds = 0.005

    public let sampleRate: Int
    /// Samples per frame.
    public let frameLength: Int
    /// Each frame's RMS level in dBFS, no lower than −120.
    public let levels: [Double]
    /// The level above which a frame is speech (`SpeechActivity`'s threshold).
    public let speechThreshold: Double

    public init(samples: [Float], sampleRate: Int, speechThreshold: Double) {
        precondition(sampleRate > 0, "a sample rate is positive")
        self.sampleRate = sampleRate
        self.speechThreshold = speechThreshold
        let frameLength = max(1, Int((Self.frameSeconds * Double(sampleRate)).rounded()))
        self.frameLength = frameLength
        levels = SpeechActivity.levels(of: samples, frameLength: frameLength)
    }

    /// The whole frames from `from` to `to` seconds; none when `to` is not after `from`.
    private func frames(from: Double, to: Double) -> Range<Int> {
        guard from.isFinite, to.isFinite, to > from else { return 0..<0 }
        let first = max(0, min(levels.count, Int((max(0, from) / Self.frameSeconds).rounded(.up))))
        let last = max(0, min(levels.count, Int((max(0, to) / Self.frameSeconds).rounded(.down))))
        return first..<max(first, last)
    }

    /// Where the speech of a word the recogniser placed at `wordStart` begins: the rise into
    /// speech (a frame above the speech threshold after one below it) nearest to it, within
    /// 150 ms before and 350 ms after (the recogniser's boundaries are 10 ms frames and may hold
    /// some of the pause), and not before `earliest` (the previous word's end); `wordStart`
    /// itself when there is none.
    public func onset(near wordStart: Double, notBefore earliest: Double) -> Double {
        rise(near: wordStart, notBefore: earliest, afterQuiet: 1) ?? wordStart
    }

    /// The frame nearest `wordStart` (seconds), within 150 ms before it and 350 ms after and not
    /// before `earliest`, that is above the speech threshold after `afterQuiet` frames below it.
    private func rise(near wordStart: Double, notBefore earliest: Double, afterQuiet quietFrames: Int) -> Double? {
        let window = frames(from: max(earliest, wordStart - 0.15), to: wordStart + 0.35)
        var best: Int?
        for frame in window where levels[frame] > speechThreshold && quietBefore(frame, frames: quietFrames) {
            let seconds = Double(frame) * Self.frameSeconds
            if best.map({ abs(seconds - wordStart) < abs(Double($0) * Self.frameSeconds - wordStart) }) ?? true { best = frame }
        }
        return best.map { Double($0) * Self.frameSeconds }
    }

    /// Where an attempt at reading begins near a word the recogniser placed at `wordStart`: like
    /// `onset(near:notBefore:)`, but a rise after at least `quiet` seconds below the speech
    /// threshold (speech after a pause) is preferred to any rise inside speech, such as the
    /// vowel after a word's first consonant. A recogniser often puts a restarted word's start in
    /// the broken-off attempt before it ("mi- … mill"); the attempt itself begins after the pause.
    public func attemptOnset(near wordStart: Double, notBefore earliest: Double, quiet: Double = 0.1) -> Double {
        rise(near: wordStart, notBefore: earliest, afterQuiet: max(1, Int((quiet / Self.frameSeconds).rounded())))
            ?? onset(near: wordStart, notBefore: earliest)
    }

    /// Whether speech that begins at `seconds` follows at least `quiet` seconds below the speech
    /// threshold: false for a rise inside speech, as where a second attempt runs on from the first.
    public func followsPause(_ seconds: Double, quiet: Double = 0.1) -> Bool {
        guard seconds.isFinite, seconds >= 0 else { return false }
        let frame = Int((seconds / Self.frameSeconds).rounded())
        return quietBefore(frame, frames: max(1, Int((quiet / Self.frameSeconds).rounded())))
    }

    /// Whether the `frames` frames before `frame` are all below the speech threshold.
    private func quietBefore(_ frame: Int, frames count: Int) -> Bool {
        guard frame >= count, frame <= levels.count else { return false }
        return levels[(frame - count)..<frame].allSatisfy { $0 <= speechThreshold }
    }

    /// The frame of the take at which to cut before speech that begins at `onset`: the middle of
    /// the quiet frame nearest the speech among those within 3 dB of the quietest in the 150 ms
    /// before it, but not before `earliest` (the previous word's end); the onset itself when
    /// there is no pause.
    public func cutPoint(before onset: Double, notBefore earliest: Double) -> Int {
        let window = frames(from: max(earliest, onset - 0.15), to: onset - Self.frameSeconds)
        guard let quietest = window.map({ levels[$0] }).min(), let chosen = window.last(where: { levels[$0] <= quietest + 3 }) else {
            return Int((onset * Double(sampleRate)).rounded())
        }
        return chosen * frameLength + frameLength / 2
    }
}
