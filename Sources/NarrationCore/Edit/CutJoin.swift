/// How accepting proposed cuts joins what is left of a take: the frames before each cut, a short
/// crossfade from the audio at the cut's start into the audio at its end, and on.
///
/// At a cut `s..<e` of a take of `F` frames, the overlap is `n = min(crossfade, e − s, F − e)`
/// frames: the take's frames `s..<s+n` fade out while `e..<e+n` fade in (equal-power, as
/// `PunchJoin`), then the take goes on from `e + n`. So the result is exactly the take without
/// `s..<e`, but for the `n` frames after each join; both sides of it lie in a pause, where the
/// cut's edges are placed.
public enum CutJoin {
    public static let defaultCrossfadeSeconds = 0.010

    /// One piece of the joined take, in order: frames copied as they are, or a crossfade.
    public enum Piece: Sendable, Equatable {
        case copy(Range<Int>)
        case crossfade(fadingOut: Range<Int>, fadingIn: Range<Int>)
    }

    /// The pieces of the take of `frames` frames once `cuts` (ranges of its frames, in order,
    /// not overlapping, within the take) are cut.
    public static func pieces(cutting cuts: [Range<Int>], from frames: Int, crossfade: Int) -> [Piece] {
        var pieces: [Piece] = []
        var position = 0
        for cut in cuts {
            precondition(cut.lowerBound >= position && cut.upperBound <= frames, "cuts are in order, apart and within the take")
            if cut.lowerBound > position { pieces.append(.copy(position..<cut.lowerBound)) }
            let overlap = max(0, min(crossfade, cut.count, frames - cut.upperBound))
            if overlap > 0 {
                pieces.append(.crossfade(fadingOut: cut.lowerBound..<(cut.lowerBound + overlap), fadingIn: cut.upperBound..<(cut.upperBound + overlap)))
            }
            position = cut.upperBound + overlap
        }
        if position < frames { pieces.append(.copy(position..<frames)) }
        return pieces
    }

    /// The frames a piece adds to the joined take.
    public static func length(of pieces: [Piece]) -> Int {
        pieces.reduce(0) { total, piece in
            switch piece {
            case .copy(let range): total + range.count
            case .crossfade(let out, _): total + out.count
            }
        }
    }
}
