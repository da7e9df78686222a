/// How a parallel MP3 encode splits one stream of samples into segments on the MP3 frame grid
/// (shared/MP3-PARALLEL.md, steps 1–3), for CBR MPEG-1 Layer III as LAME makes it.
///
/// LAME delays its output by 576 samples and pads the end to a whole frame, so N samples make
/// `F = (576 + N + padding) / 1152` frames. Global frame j is computed from the input samples
/// `1152 j − 528 ..< 1152 j + 1376`; an encoder fed the input from sample `1152 g` on makes
/// global frame `g + i` as its frame i once its state has settled. Segment k owns frames
/// `boundaries[k] ..< boundaries[k + 1]`; its encoder starts `preRollFrames` before that and
/// runs `seamWindow + 3` frames past the next boundary, so that the seam can be chosen where the
/// two encoders agree.
public struct MP3SegmentPlan: Sendable, Equatable {
    /// Samples per channel in the stream.
    public let samples: Int
    /// Frames in the whole stream.
    public let frames: Int
    /// `boundaries[k]`: the first frame segment k owns; the last entry is `frames`.
    public private(set) var boundaries: [Int]

    /// Frames an encoder runs before the frames it owns, for its state to settle.
    public static let preRollFrames = 24
    /// Frames after each boundary where the seam may fall.
    public static let seamWindow = 256
    /// Frames held before a boundary for the bit reservoir (511 bytes is at most 7 frames at 32 kbit/s).
    public static let reservoirFrames = 12
    /// The shortest segment worth its own encoder: the overlap costs about 2 % of it.
    public static let minimumSegmentFrames = 8 * (preRollFrames + seamWindow)
    /// Samples a frame reads beyond its own 1152 (LAME's look-ahead less its 528-sample delay).
    static let lookaheadSamples = 1_376

    /// - Parameters:
    ///   - segments: how many encoders; fewer when the stream is too short for them.
    ///   - paddingPeriod: frames after which CBR's padding bit repeats (`paddingPeriod(...)`):
    ///     segments then start where a single encoder's padding would be, so that their frames
    ///     are the single encoder's byte for byte.
    public init(samples: Int, segments: Int, paddingPeriod: Int) {
        self.samples = samples
        var padding = MP3Frame.samplesPerFrame - (576 + samples) % MP3Frame.samplesPerFrame
        if padding < 576 { padding += MP3Frame.samplesPerFrame }
        let frames = (576 + samples + padding) / MP3Frame.samplesPerFrame
        self.frames = frames
        let count = max(1, min(segments, frames / Self.minimumSegmentFrames))
        var boundaries = (0...count).map { Int((Double($0) * Double(frames) / Double(count)).rounded()) }
        let preRoll = Self.preRollFrames
        for index in boundaries.indices.dropFirst().dropLast() {
            let aligned = boundaries[index] - preRoll
            boundaries[index] = preRoll + (aligned + paddingPeriod / 2) / paddingPeriod * paddingPeriod
        }
        boundaries[count] = frames
        self.boundaries = boundaries
    }

    /// A plan whose segments start at the frames nearest `starts` (sample positions in the
    /// stream, such as where each chunk begins), so that a segment holds whole chunks and an edit
    /// to one chunk leaves the others' segments as they were (pre-encoding, shared/MP3-PARALLEL.md).
    /// A start closer than `minimumChunkSegmentFrames` to the segment before it, or to the end,
    /// is passed over: that segment then holds several chunks.
    public init(samples: Int, starts: [Int], paddingPeriod: Int) {
        self.init(samples: samples, segments: 1, paddingPeriod: paddingPeriod)
        var boundaries = [0]
        let preRoll = Self.preRollFrames
        for start in starts where start > 0 {
            let nearest = (start + MP3Frame.samplesPerFrame / 2) / MP3Frame.samplesPerFrame
            let aligned = preRoll + (nearest - preRoll + paddingPeriod / 2) / paddingPeriod * paddingPeriod
            guard aligned - boundaries[boundaries.count - 1] >= Self.minimumChunkSegmentFrames,
                frames - aligned >= Self.minimumChunkSegmentFrames
            else { continue }
            boundaries.append(aligned)
        }
        boundaries.append(frames)
        self.boundaries = boundaries
    }

    /// The shortest segment of a plan by chunks: its seam window and the frames held for the bit
    /// reservoir must end before the next segment's begin (about 13 s at 44.1 kHz).
    public static let minimumChunkSegmentFrames = 2 * seamWindow

    public var segmentCount: Int { boundaries.count - 1 }

    /// The global index of the first frame segment `k`'s encoder makes.
    public func firstEncodedFrame(_ k: Int) -> Int { k == 0 ? 0 : boundaries[k] - Self.preRollFrames }

    /// The samples segment `k`'s encoder is fed.
    public func input(_ k: Int) -> Range<Int> {
        let start = firstEncodedFrame(k) * MP3Frame.samplesPerFrame
        guard k < segmentCount - 1 else { return start..<samples }
        return start..<min(samples, (boundaries[k + 1] + Self.seamWindow + 3) * MP3Frame.samplesPerFrame + Self.lookaheadSamples)
    }

    /// The frames where the seam between segments `k − 1` and `k` may fall.
    public func seamWindow(_ k: Int) -> Range<Int> { boundaries[k]..<(boundaries[k] + Self.seamWindow) }

    /// The samples segment `k` owns, for counting progress: each sample in exactly one segment.
    public func ownedSamples(_ k: Int) -> Range<Int> {
        let start = k == 0 ? 0 : min(samples, boundaries[k] * MP3Frame.samplesPerFrame)
        let end = k == segmentCount - 1 ? samples : min(samples, boundaries[k + 1] * MP3Frame.samplesPerFrame)
        return start..<max(start, end)
    }

    /// Frames after which CBR's padding bit repeats at `kbps` and `sampleRate`: LAME pads a frame
    /// whenever the fractional bytes per frame (144 000 × kbps / rate) add up to one more.
    public static func paddingPeriod(kbps: Int, sampleRate: Int) -> Int {
        let remainder = 144_000 * kbps % sampleRate
        guard remainder > 0 else { return 1 }
        var a = remainder, b = sampleRate
        while b != 0 { (a, b) = (b, a % b) }
        return sampleRate / a
    }
}
