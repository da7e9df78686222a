/// Where the next segment's encoder takes over from the one before, in a parallel MP3 encode.
///
/// Both encoders made the frames around the nominal seam (the one on the right started from a
/// pre-roll before it). The seam is the first frame in the window that the two made identically
/// (side info and main data): joining there is exact. Failing that, it is the first frame whose
/// main data begins no further back than the left encoder's did (so that it fits in the space
/// the left stream left free) and whose block type may follow the left stream's; the right
/// encoder's reservoir bytes for it are copied into that space (the recipe in
/// shared/MP3-PARALLEL.md, step 4).
public enum MP3Seam {
    public struct Join: Sendable, Equatable {
        /// Global index of the first frame taken from the right run.
        public let frame: Int
        /// Whether the two encoders made that frame identically (no bytes patched).
        public let exact: Bool
    }

    /// Chooses the seam among frames `window` of both runs and patches `left` for it.
    /// - Returns: nil when no frame in the window can be joined (both runs must hold the window,
    ///   the 511 bytes of reservoir before it and the frame before it).
    public static func join(_ left: inout MP3FrameRun, _ right: MP3FrameRun, within window: Range<Int>) -> Join? {
        var legal: Int?
        for index in window {
            guard let a = left.frame(index), let b = right.frame(index), let before = left.frame(index - 1) else { break }
            if left.sideInfo(index) == right.sideInfo(index), let mainA = left.mainData(index), mainA == right.mainData(index) {
                return Join(frame: index, exact: true)
            }
            if legal == nil, b.mainDataBegin <= a.mainDataBegin, b.mayFollow(before.lastBlockTypes) { legal = index }
        }
        guard let index = legal else { return nil }
        let count = right.frame(index)!.mainDataBegin
        for distance in stride(from: count, through: 1, by: -1) {
            guard let target = left.byteBefore(frame: index, distance: distance),
                let source = right.byteBefore(frame: index, distance: distance)
            else { return nil }
            left.setByte(at: target, to: right.bytes[source])
        }
        return Join(frame: index, exact: false)
    }
}
