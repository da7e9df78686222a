/// What the words a recogniser heard in a take say about it: how well each paragraph of the
/// article matches, whether the take reads another paragraph than its own, which runs of its
/// own paragraph's words were not heard, and where each of its sentences was heard.
///
/// The words heard are aligned to a paragraph's words by edit distance over words (a word heard
/// in its place matches; one heard wrongly, left out or added costs one), which keeps the order
/// of the text: a word that was said in another place does not count as heard here.
///
/// Words the recogniser cannot hear (outside `vocabulary`, numbers among them) are left out of
/// the alignment: they count neither as heard nor as unheard, and cannot start or end a run.
///
/// Pure logic, no errors: no words heard means nothing matches (every word of the paragraph is
/// unheard, no cue).
public struct TakeAlignment: Sendable, Equatable {
    /// The thresholds the check uses. The defaults come from the measurements with synthetic
    /// speech in SpeechRecognitionTests; see there for the figures they give.
    public struct Settings: Sendable, Equatable {
        /// The fewest consecutive words of the paragraph, not heard, that make an `unheard` hint.
        public var unheardRun: Int
        /// A run is unheard only when the recogniser heard less speech in its place than this
        /// share of the time its words would take at the take's own pace: words heard wrongly
        /// take time, words left out do not.
        public var speechShareInGap: Double
        /// How much better (in match score) another paragraph must match to be `wrongParagraph`.
        public var wrongParagraphMargin: Double
        /// The least match score another paragraph needs to be `wrongParagraph`.
        public var wrongParagraphMinimum: Double
        /// The least posterior a word needs to place a sentence cue.
        public var cueConfidence: Double

        public init(
            unheardRun: Int = 5, speechShareInGap: Double = 0.5, wrongParagraphMargin: Double = 0.2,
            wrongParagraphMinimum: Double = 0.4, cueConfidence: Double = 0.5
        ) {
            self.unheardRun = unheardRun
            self.speechShareInGap = speechShareInGap
            self.wrongParagraphMargin = wrongParagraphMargin
            self.wrongParagraphMinimum = wrongParagraphMinimum
            self.cueConfidence = cueConfidence
        }
    }

    /// Each paragraph's match score, 0…1: twice the words matched over the paragraph's words
    /// plus the words heard, so that a short paragraph inside a long take scores low.
    public let scores: [Double]
    /// The share of the take's own paragraph's words heard in order, 0…1.
    public let match: Double
    /// `wrongParagraph` alone, or the `unheard` runs by time.
    public let hints: [TakeHint]
    public let sentenceCues: [SentenceCue]

    /// Aligns the words `heard` in a take of `paragraphs[paragraphIndex]`.
    /// - Parameters:
    ///   - vocabulary: the words the recogniser can say; nil when it can say any.
    ///   - notText: the heard words (indices) that are not the paragraph's (`Fumbles.notText`).
    public init(
        heard: [RecognisedWord], paragraphs: [ScriptParagraph], paragraphIndex: Int,
        vocabulary: Set<String>? = nil, notText: Set<Int> = [], settings: Settings = Settings()
    ) {
        precondition(paragraphs.indices.contains(paragraphIndex), "the take's paragraph is one of the article's")
        let heardWords = heard.map(\.word)
        func hearable(_ words: [String]) -> [Int] {
            words.indices.filter { vocabulary?.contains(words[$0]) ?? true }
        }

        var scores: [Double] = []
        var own: (words: [String], hearable: [Int], pairs: [Int: Int]) = ([], [], [:])
        for (index, paragraph) in paragraphs.enumerated() {
            let words = paragraph.spokenWords
            let kept = hearable(words)
            let pairs = Self.align(kept.map { words[$0] }, heardWords)
            let total = kept.count + heardWords.count
            scores.append(total == 0 ? 0 : 2 * Double(pairs.count) / Double(total))
            if index == paragraphIndex {
                // Pairs by the paragraph's own word index.
                var byWord: [Int: Int] = [:]
                for (expected, heardIndex) in pairs { byWord[kept[expected]] = heardIndex }
                own = (words, kept, byWord)
            }
        }
        self.scores = scores
        self.match = own.hearable.isEmpty ? 0 : Double(own.pairs.count) / Double(own.hearable.count)

        let ownScore = scores[paragraphIndex]
        if let best = scores.indices.filter({ $0 != paragraphIndex }).max(by: { scores[$0] < scores[$1] }),
            scores[best] >= settings.wrongParagraphMinimum, scores[best] - ownScore >= settings.wrongParagraphMargin
        {
            hints = [TakeHint(.wrongParagraph, words: paragraphs[best].firstWords(8), seconds: heard.first?.start ?? 0, paragraph: best)]
            sentenceCues = []
            return
        }
        hints = Self.unheardRuns(words: own.words, hearable: own.hearable, pairs: own.pairs, heard: heard, notText: notText, settings: settings)
        sentenceCues = Self.cues(
            sentences: paragraphs[paragraphIndex].sentences, hearable: Set(own.hearable), pairs: own.pairs, heard: heard, settings: settings)
    }

    /// The matched pairs (index into `expected`, index into `heard`) of a least-cost word
    /// alignment: substitution, insertion and deletion each cost one, a match nothing.
    static func align(_ expected: [String], _ heard: [String]) -> [(Int, Int)] {
        let n = expected.count, m = heard.count
        guard n > 0, m > 0 else { return [] }
        let width = m + 1
        var cost = [Int](repeating: 0, count: (n + 1) * width)
        for j in 0...m { cost[j] = j }
        for i in 1...n {
            cost[i * width] = i
            for j in 1...m {
                let diagonal = cost[(i - 1) * width + j - 1] + (expected[i - 1] == heard[j - 1] ? 0 : 1)
                cost[i * width + j] = min(diagonal, cost[(i - 1) * width + j] + 1, cost[i * width + j - 1] + 1)
            }
        }
        var pairs: [(Int, Int)] = []
        var i = n, j = m
        while i > 0, j > 0 {
            let here = cost[i * width + j]
            if expected[i - 1] == heard[j - 1], here == cost[(i - 1) * width + j - 1] {
                pairs.append((i - 1, j - 1))
                i -= 1
                j -= 1
            } else if here == cost[(i - 1) * width + j - 1] + 1 {
                i -= 1
                j -= 1
            } else if here == cost[(i - 1) * width + j] + 1 {
                i -= 1
            } else {
                j -= 1
            }
        }
        return pairs.reversed()
    }

    /// Runs of at least `unheardRun` hearable words without a match, where the recogniser heard
    /// too little speech to have misheard them rather than not heard them; words heard that are
    /// not the text (`notText`: an aside, a stray line) do not count as speech there.
    static func unheardRuns(
        words: [String], hearable: [Int], pairs: [Int: Int], heard: [RecognisedWord], notText: Set<Int> = [], settings: Settings
    ) -> [TakeHint] {
        let matchedDurations = pairs.values.map { heard[$0].end - heard[$0].start }
        let wordSeconds = matchedDurations.isEmpty ? 0.35 : matchedDurations.reduce(0, +) / Double(matchedDurations.count)
        var hints: [TakeHint] = []
        var run: [Int] = []  // hearable word indices without a match
        var lastHeard: Int?  // index into heard of the last match before the run
        func finish(next: Int?) {
            defer { run = [] }
            guard run.count >= settings.unheardRun, let first = run.first, let last = run.last else { return }
            let between = (lastHeard.map { $0 + 1 } ?? 0)..<(next ?? heard.count)
            let spoken = between.filter { !notText.contains($0) }.reduce(0) { $0 + (heard[$1].end - heard[$1].start) }
            guard spoken < settings.speechShareInGap * Double(run.count) * wordSeconds else { return }
            let at = lastHeard.map { heard[$0].end } ?? 0
            hints.append(TakeHint(.unheard, words: words[first...last].joined(separator: " "), seconds: at))
        }
        for index in hearable {
            if let heardIndex = pairs[index] {
                finish(next: heardIndex)
                lastHeard = heardIndex
            } else {
                run.append(index)
            }
        }
        finish(next: nil)
        return hints
    }

    /// A cue for each sentence with at least half its hearable words heard, one of its first
    /// three and one of its last three heard confidently. The cue starts at the first word
    /// heard confidently; when words before it were misheard, it starts as many heard words
    /// earlier, provided that many were heard since the previous sentence's last match (else
    /// the start is unknown and there is no cue). Its end is found the same way.
    static func cues(sentences: [ScriptSentence], hearable: Set<Int>, pairs: [Int: Int], heard: [RecognisedWord], settings: Settings) -> [SentenceCue] {
        let kept = sentences.map { sentence in sentence.words.filter { hearable.contains($0) } }
        let matched = kept.map { words in words.compactMap { pairs[$0] } }
        func sure(_ word: Int) -> Bool { pairs[word].map { heard[$0].confidence >= settings.cueConfidence } ?? false }
        var cues: [SentenceCue] = []
        for (index, words) in kept.enumerated() where !words.isEmpty {
            guard matched[index].count * 2 >= words.count,
                let leading = words.prefix(3).firstIndex(where: sure), let trailing = words.suffix(3).lastIndex(where: sure)
            else { continue }
            let missedBefore = leading, missedAfter = words.count - 1 - trailing
            // Heard words between this sentence's matches and its neighbours' (indices into heard).
            let after = matched[..<index].last(where: { !$0.isEmpty })?.last.map { $0 + 1 } ?? 0
            let before = matched[(index + 1)...].first(where: { !$0.isEmpty })?.first.map { $0 - 1 } ?? heard.count - 1
            let from = pairs[words[leading]]! - missedBefore
            let to = pairs[words[trailing]]! + missedAfter
            guard from >= after, to <= before, from <= to else { continue }
            cues.append(SentenceCue(sentence: index, start: heard[from].start, end: heard[to].end))
        }
        return cues
    }
}
