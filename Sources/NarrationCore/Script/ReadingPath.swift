/// How a reader went through a paragraph, as the words a recogniser heard tell it: word by word
/// forward, with words misheard, left out or added, and now and then back to an earlier word to
/// read on from there again (a restart).
///
/// It is the least-cost alignment of the words heard to the paragraph's words in which the
/// position in the text may also jump back: a match costs nothing; a word left out and one
/// added cost one each (an aside word added, `AsideWords`, a little less: it is expected between
/// attempts, and one taken for another text word costs a word left out more); a word misheard costs 1.4, so that words read twice are not slid onto the text's
/// words they do not match; a jump back costs 1.2. With a jump dearer than one added word and
/// cheaper than two, a single word said twice stays an added word, while two or more words read
/// again are a jump. The costs were chosen on `FumbleTestSet` (FumbleMeasurementTests): with
/// 1 and 1.5, 7 restarts of 16 were found, with these 9, and no right take was cut with either.
/// `TakeAlignment` keeps the text's order strictly; this path is what finds the restarts.
///
/// The cost is computed row by row over the heard words (m) and text positions (n), O(m·n)
/// time and memory: a jump to position k is reached from the cheapest later position of the
/// same row, a suffix minimum. Pure logic; no words means an empty path.
public struct ReadingPath: Sendable, Equatable {
    public struct Costs: Sendable, Equatable {
        public var mismatch: Double
        public var added: Double
        public var addedAside: Double
        public var leftOut: Double
        public var jump: Double

        public init(mismatch: Double = 1.4, added: Double = 1, addedAside: Double = 0.6, leftOut: Double = 1, jump: Double = 1.2) {
            self.mismatch = mismatch
            self.added = added
            self.addedAside = addedAside
            self.leftOut = leftOut
            self.jump = jump
        }
    }

    /// What the reader did at one heard word.
    public enum Step: Sendable, Equatable {
        /// Read text word `text` (heard as it or, when `matched` is false, as another word).
        case read(text: Int, matched: Bool)
        /// Said a word that is not the text's next one.
        case added
    }

    /// One step per heard word, in order.
    public let steps: [Step]
    /// Where the reader went back: before heard word `heard`, from text position `from` (the
    /// words before it read) back to `to` (< `from`), in order.
    public let jumps: [(heard: Int, from: Int, to: Int)]

    public static func == (lhs: ReadingPath, rhs: ReadingPath) -> Bool {
        lhs.steps == rhs.steps && lhs.jumps.elementsEqual(rhs.jumps) { $0 == $1 }
    }

    /// The path of `heard` (words) through `text` (words).
    public init(heard: [String], text: [String], costs: Costs = Costs()) {
        let m = heard.count, n = text.count
        guard m > 0 else {
            steps = []
            jumps = []
            return
        }
        let width = n + 1
        let infinity = Double.infinity
        var cost = [Double](repeating: infinity, count: (m + 1) * width)
        // How each cell was reached: 1 read (i-1, j-1), 2 added (i-1, j), 3 left out (i, j-1), 4 jump from (i, jumpFrom).
        var move = [UInt8](repeating: 0, count: (m + 1) * width)
        var jumpFrom = [Int32](repeating: -1, count: (m + 1) * width)
        cost[0] = 0
        for i in 0...m {
            let row = i * width
            if i > 0 {
                let previous = (i - 1) * width
                let word = heard[i - 1]
                let aside = AsideWords.words.contains(word)
                let added = aside ? costs.addedAside : costs.added
                // An aside word is said, not misheard: reading it as another text word costs more.
                let mismatch = aside ? costs.mismatch + costs.leftOut : costs.mismatch
                for j in 0...n {
                    var best = cost[previous + j] + added
                    var how: UInt8 = 2
                    if j > 0 {
                        let read = cost[previous + j - 1] + (text[j - 1] == word ? 0 : mismatch)
                        if read <= best {
                            best = read
                            how = 1
                        }
                    }
                    cost[row + j] = best
                    move[row + j] = how
                }
            }
            func leaveOut() {
                guard n > 0 else { return }
                for j in 1...n where cost[row + j - 1] + costs.leftOut < cost[row + j] {
                    cost[row + j] = cost[row + j - 1] + costs.leftOut
                    move[row + j] = 3
                }
            }
            leaveOut()
            // Jumps back, from the cheapest later position of this row; none before any word is heard.
            if i > 0, n > 0 {
                var cheapest = infinity
                var cheapestAt = -1
                for k in stride(from: n - 1, through: 0, by: -1) {
                    if cost[row + k + 1] < cheapest {
                        cheapest = cost[row + k + 1]
                        cheapestAt = k + 1
                    }
                    if cheapest + costs.jump < cost[row + k] {
                        cost[row + k] = cheapest + costs.jump
                        move[row + k] = 4
                        jumpFrom[row + k] = Int32(cheapestAt)
                    }
                }
                leaveOut()
            }
        }
        // The reader may stop anywhere: the words after are left out.
        var j = 0
        var best = infinity
        for position in 0...n {
            let total = cost[m * width + position] + Double(n - position) * costs.leftOut
            if total < best {
                best = total
                j = position
            }
        }
        var i = m
        var steps: [Step] = []
        var jumps: [(heard: Int, from: Int, to: Int)] = []
        while i > 0 || j > 0 {
            let cell = i * width + j
            switch move[cell] {
            case 1:
                steps.append(.read(text: j - 1, matched: text[j - 1] == heard[i - 1]))
                i -= 1
                j -= 1
            case 2:
                steps.append(.added)
                i -= 1
            case 3:
                j -= 1
            case 4:
                let from = Int(jumpFrom[cell])
                jumps.append((heard: i, from: from, to: j))
                j = from
            default:
                // Only the start (0, 0) has no move.
                i = 0
                j = 0
            }
        }
        self.steps = steps.reversed()
        self.jumps = jumps.reversed()
    }
}
