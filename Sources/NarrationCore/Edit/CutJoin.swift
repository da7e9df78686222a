/// How accepting proposed cuts joins what is left of a take: the frames before each cut, a short
/// crossfade into the audio at its end, and on.
///
/// A cut's edges lie in the pauses just before the first attempt and just before the second
/// (`ProposedCut`), so the quiet frames are those *before* each edge. At a cut `s..<e` the
/// overlap is `n = min(crossfade, s, e − s)` frames: the take's frames `s−n..<s` (the pause
/// before the first attempt) fade out while `e−n..<e` (the pause before the second) fade in
/// (equal-power, as `PunchJoin`), then the take goes on from `e`. So the result is exactly the
/// take without `s..<e`, but for the `n` frames before each join, and no speech is faded.
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
            let overlap = max(0, min(crossfade, cut.lowerBound - position, cut.count))
            if cut.lowerBound - overlap > position { pieces.append(.copy(position..<(cut.lowerBound - overlap))) }
            if overlap > 0 {
                pieces.append(.crossfade(fadingOut: (cut.lowerBound - overlap)..<cut.lowerBound, fadingIn: (cut.upperBound - overlap)..<cut.upperBound))
            }
            position = cut.upperBound
        }
        if position < frames { pieces.append(.copy(position..<frames)) }
        return pieces
    }
}
