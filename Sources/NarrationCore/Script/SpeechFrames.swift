/// A take as a sequence of short frames of numbers that describe the sound of its speech (for
/// the take check, mel-frequency cepstra: `NarrationAudio` computes them), so that two stretches
/// of a take can be compared for whether they say the same words (`RepeatedSpeech`).
///
/// Plain values: `dimensions` numbers per frame, one frame every `frameSeconds`, frame `n`
/// beginning at `n × frameSeconds`.
public struct SpeechFrames: Sendable, Equatable {
    public let frameSeconds: Double
    public let dimensions: Int
    /// Frame after frame, `dimensions` numbers each.
    public let values: [Float]

    public var count: Int { dimensions > 0 ? values.count / dimensions : 0 }

    public init(frameSeconds: Double, dimensions: Int, values: [Float]) {
        precondition(frameSeconds > 0 && dimensions > 0 && values.count % dimensions == 0, "whole frames of a positive length")
        self.frameSeconds = frameSeconds
        self.dimensions = dimensions
        self.values = values
    }

    /// The frame nearest `seconds`, clamped to the take.
    func frame(at seconds: Double) -> Int {
        guard seconds.isFinite, count > 0 else { return 0 }
        return max(0, min(count - 1, Int((seconds / frameSeconds).rounded())))
    }
}
