/// A stretch of a take the take check proposes to cut: the reader went back and read words
/// again (a restart), perhaps after breaking off mid-word (a false start), saying something
/// between ("sorry") or pausing. The cut takes out the first attempt and whatever came between,
/// so the take reads on from the second attempt.
///
/// Its edges are exact frames of the take, each at the quietest point of the pause before an
/// attempt (`LevelEnvelope.cutPoint`), so a short crossfade joins two quiet moments.
public struct ProposedCut: Codable, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Codable, Sendable {
        /// Words read again.
        case restart
        /// Broken off mid-word and begun again.
        case falseStart
    }

    public var kind: Kind
    /// The text's words the first attempt read, the ones read again ("the council met on").
    public var words: String
    /// What was said between the attempts that is not in the text ("sorry"); empty when nothing.
    public var aside: String
    /// The first frame cut and the first frame kept after it, in the take's frames.
    public var startFrame: Int
    public var endFrame: Int
    /// The same edges in seconds from the start of the take.
    public var start: Double
    public var end: Double

    public init(kind: Kind, words: String, aside: String, startFrame: Int, endFrame: Int, sampleRate: Int) {
        self.kind = kind
        self.words = words
        self.aside = aside
        self.startFrame = startFrame
        self.endFrame = endFrame
        start = Double(startFrame) / Double(sampleRate)
        end = Double(endFrame) / Double(sampleRate)
    }

    /// The frames cut.
    public var frames: Range<Int> { startFrame..<max(startFrame, endFrame) }

    /// "at 12.4 s: “the council met on” read twice: cut 12.40–14.05 s"
    public var description: String {
        let what: String
        switch kind {
        case .restart: what = "“\(words)” read twice"
        case .falseStart: what = "“\(words)” broken off and begun again"
        }
        let between = aside.isEmpty ? "" : " (“\(aside)” between)"
        return "at \(String(format1: start)) s: \(what)\(between): cut \(String(format2: start))–\(String(format2: end)) s"
    }

    /// Moves both edges to `startFrame` and `endFrame`, the seconds with them.
    public mutating func setEdges(_ startFrame: Int, _ endFrame: Int, sampleRate: Int) {
        self.startFrame = startFrame
        self.endFrame = endFrame
        start = Double(startFrame) / Double(sampleRate)
        end = Double(endFrame) / Double(sampleRate)
    }

    /// The cut as it stands once the stretch `removed` (frames) of the same take is cut: moved
    /// earlier when after it, nil when the two overlap (the cut is gone with it).
    public func shifted(byRemoving removed: Range<Int>, sampleRate: Int) -> ProposedCut? {
        if endFrame <= removed.lowerBound { return self }
        guard startFrame >= removed.upperBound else { return nil }
        var moved = self
        moved.setEdges(startFrame - removed.count, endFrame - removed.count, sampleRate: sampleRate)
        return moved
    }
}

extension String {
    /// `value` with exactly two decimals, without Foundation's locale-dependent formatting.
    init(format2 value: Double) {
        guard value.isFinite, abs(value) < 1e15 else {
            self = value.isNaN ? "nan" : value < 0 ? "-inf" : "inf"
            return
        }
        let scaled = (abs(value) * 100).rounded()
        let whole = Int(scaled / 100)
        let fraction = Int(scaled) % 100
        self = (value < 0 && scaled > 0 ? "-" : "") + "\(whole)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
