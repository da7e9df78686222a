import func Foundation.log10
import func Foundation.sqrt

/// Where a take holds speech, found from its level envelope: how long the narrator spoke,
/// pauses excluded.
///
/// The envelope is the RMS level of 20 ms frames. A frame is speech when its level is at least
/// `marginAboveFloor` above the take's noise floor (the 10th percentile of the frame levels) and
/// no more than `rangeBelowLoud` below its loud frames (the 95th percentile), so that digital
/// silence between words (a floor of −120 dB) does not make a faint hiss count as speech. Quiet
/// stretches shorter than `longestGap` between speech frames are part of the speech (stops,
/// breaths between words); longer ones are pauses. Silence before the first and after the last
/// speech frame is never speech.
///
/// Pure maths over mono `Float` samples (full scale 1.0); nothing here is an error: a silent or
/// empty take has no speech.
public struct SpeechActivity: Sendable, Equatable {
    /// The length of one envelope frame in seconds.
    public static let frameSeconds = 0.02

    /// Each frame's RMS level in dBFS, no lower than −120.
    public let frameLevels: [Double]
    /// The level a frame must exceed to be speech, in dBFS.
    public let threshold: Double
    /// The stretches of speech, in seconds from the start of the take, pauses between them.
    public let speech: [ClosedRange<Double>]

    /// Total speech in seconds, pauses excluded.
    public var speechSeconds: Double { speech.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) } }

    /// Measures `samples` (mono, `sampleRate` per second).
    public init(
        samples: [Float], sampleRate: Int,
        marginAboveFloor: Double = 12, rangeBelowLoud: Double = 40, longestGap: Double = 0.3
    ) {
        precondition(sampleRate > 0, "a sample rate is positive")
        let frameLength = max(1, Int((Self.frameSeconds * Double(sampleRate)).rounded()))
        let levels = Self.levels(of: samples, frameLength: frameLength)
        frameLevels = levels
        guard !levels.isEmpty else {
            threshold = 0
            speech = []
            return
        }
        let sorted = levels.sorted()
        let floor = sorted[Int(Double(sorted.count - 1) * 0.10)]
        let loud = sorted[Int(Double(sorted.count - 1) * 0.95)]
        threshold = max(floor + marginAboveFloor, loud - rangeBelowLoud)

        let merged = Self.runs(of: levels, above: threshold, closingGapsOf: Int((longestGap / Self.frameSeconds).rounded()))
        speech = merged.map { Double($0.lowerBound) * Self.frameSeconds...Double($0.upperBound) * Self.frameSeconds }
    }

    /// The runs of frames whose level is above `threshold`, with gaps of at most
    /// `longestGapFrames` between two runs closed.
    static func runs(of levels: [Double], above threshold: Double, closingGapsOf longestGapFrames: Int) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var runStart: Int?
        for (frame, level) in levels.enumerated() {
            if level > threshold {
                if runStart == nil { runStart = frame }
            } else if let begun = runStart {
                runs.append(begun..<frame)
                runStart = nil
            }
        }
        if let begun = runStart { runs.append(begun..<levels.count) }
        var merged: [Range<Int>] = []
        for run in runs {
            if let last = merged.last, run.lowerBound - last.upperBound <= longestGapFrames {
                merged[merged.count - 1] = last.lowerBound..<run.upperBound
            } else {
                merged.append(run)
            }
        }
        return merged
    }

    /// The RMS level in dBFS (no lower than −120) of each whole frame of `frameLength` samples.
    static func levels(of samples: [Float], frameLength: Int) -> [Double] {
        var levels: [Double] = []
        levels.reserveCapacity(samples.count / frameLength + 1)
        samples.withUnsafeBufferPointer { samples in
            var start = 0
            while start + frameLength <= samples.count {
                var sum: Float = 0
                for index in start..<(start + frameLength) { sum += samples[index] * samples[index] }
                let rms = Double(sqrt(sum / Float(frameLength)))
                levels.append(rms > 1e-6 ? max(20 * log10(rms), -120) : -120)
                start += frameLength
            }
        }
        return levels
    }
}
