import NarrationCore

/// Scores proposed cuts against the cuts that are right: which fumbles were found, how far each
/// found cut's edges lie from the true ones, and which takes got a cut where nothing was wrong.
///
/// A fumble is found when a proposed cut covers at least half of it. Every other proposed cut is
/// false: in a take read right, or beside the fumble.
struct FumbleScore {
    struct Tally {
        var fumbles = 0
        var found = 0
        var edgesWithin = 0
        var rightTakes = 0
        var rightTakesCut = 0
        var falseCuts = 0
        var worstEdge = 0.0
        var edgeErrors: [Double] = []

        mutating func add(_ other: Tally) {
            fumbles += other.fumbles
            found += other.found
            edgesWithin += other.edgesWithin
            rightTakes += other.rightTakes
            rightTakesCut += other.rightTakesCut
            falseCuts += other.falseCuts
            worstEdge = max(worstEdge, other.worstEdge)
            edgeErrors += other.edgeErrors
        }

        var line: String {
            let sorted = edgeErrors.sorted()
            let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
            return "found \(found)/\(fumbles), edges within 150 ms \(edgesWithin)/\(found) (median \(Int((median * 1000).rounded())) ms, worst \(Int((worstEdge * 1000).rounded())) ms), "
                + "right takes cut \(rightTakesCut)/\(rightTakes), false cuts \(falseCuts)"
        }
    }

    static let edgeTolerance = 0.150

    /// The tally of one take: `truth` the frames of its fumble (nil when read right), `cuts` what
    /// the check proposed.
    static func score(truth: Range<Int>?, cuts: [ProposedCut], sampleRate: Int) -> Tally {
        var tally = Tally()
        guard let truth else {
            tally.rightTakes = 1
            tally.rightTakesCut = cuts.isEmpty ? 0 : 1
            tally.falseCuts = cuts.count
            return tally
        }
        tally.fumbles = 1
        let covering = cuts.firstIndex { cut in
            let overlap = max(0, min(cut.endFrame, truth.upperBound) - max(cut.startFrame, truth.lowerBound))
            return overlap * 2 >= truth.count
        }
        tally.falseCuts = cuts.count - (covering == nil ? 0 : 1)
        guard let covering else { return tally }
        tally.found = 1
        let cut = cuts[covering]
        let error = max(abs(cut.startFrame - truth.lowerBound), abs(cut.endFrame - truth.upperBound))
        let seconds = Double(error) / Double(sampleRate)
        tally.edgeErrors = [seconds]
        tally.worstEdge = seconds
        tally.edgesWithin = seconds <= edgeTolerance ? 1 : 0
        return tally
    }
}

/// `value` with two decimals, for the figures printed.
func two(_ value: Double) -> String {
    let scaled = Int((value * 100).rounded())
    return "\(scaled / 100).\(String(abs(scaled % 100)).count == 1 ? "0" : "")\(abs(scaled % 100))"
}
