/// How fast a take was read: the paragraph's words per minute of speech, pauses excluded.
///
/// It works for any language, since it needs only the paragraph's `WordCount` and the take's
/// `SpeechActivity`. A take read far faster than the narrator usually reads is "possibly
/// skipped": words were left out, or the take was cut short. A slow take is not flagged: reading
/// slowly is not a fault.
public struct SpeakingRate: Codable, Sendable, Equatable {
    /// The words of the paragraph (`WordCount`).
    public var words: Int
    /// Seconds of speech in the take, pauses excluded.
    public var speechSeconds: Double

    public init(words: Int, speechSeconds: Double) {
        self.words = words
        self.speechSeconds = speechSeconds
    }

    /// The rate of a take of `paragraph` whose speech `activity` measured.
    public init(paragraph: ScriptParagraph, activity: SpeechActivity) {
        self.init(words: paragraph.wordCount, speechSeconds: activity.speechSeconds)
    }

    /// Words per minute of speech; nil when the take has no speech or the paragraph no words.
    public var wordsPerMinute: Double? {
        guard speechSeconds > 0, words > 0 else { return nil }
        return Double(words) / speechSeconds * 60
    }

    /// How many times faster than the narrator's median a take must be to be "possibly
    /// skipped". Leaving out one sentence of three makes a take 1.5 times as fast; one of four,
    /// 1.33 times. In the measurements with synthetic speech (SpeechRecognitionTests, four
    /// voices and paces for one narrator) right takes ran 0.76–1.21 times the median of the
    /// others (1.21 for a nine-word heading) and takes missing a sentence 1.15–1.70 times: 1.25
    /// flagged 7 of 8 skips and no right take. The margin is thin; speech recognition, where it
    /// runs, finds the skips by their words.
    public static let skipRatio = 1.25

    /// The fewest other takes a narrator's median needs; with fewer, `typicalWordsPerMinute`
    /// stands in for it.
    public static let takesForMedian = 3

    /// A typical rate of reading aloud, pauses excluded, used when the narrator has read too
    /// few takes to have a median of their own. Speech without its pauses runs faster than the
    /// 150–160 words a minute usually quoted for reading aloud.
    public static let typicalWordsPerMinute = 190.0

    /// The median of a narrator's rates, or nil when there are fewer than `takesForMedian`.
    public static func median(of rates: [Double]) -> Double? {
        guard rates.count >= takesForMedian else { return nil }
        let sorted = rates.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The fewest words a paragraph needs to be judged by its speaking rate. A heading or a line
    /// of a few words lasts a second or two, in which a breath or a slower first word changes
    /// the rate by more than `skipRatio` allows (a four-word heading read normally measured
    /// "far faster than usual"); such a take is judged by its words where recognition runs, and
    /// by whether it has speech at all.
    public static let fewestWordsToJudge = 8

    /// Whether this take is far faster than `narratorMedian` (words per minute, nil when the
    /// narrator has too few takes): at least `skipRatio` times it, or times
    /// `typicalWordsPerMinute` without a median. A take without speech is possibly skipped too;
    /// a paragraph of fewer than `fewestWordsToJudge` words is never judged by its rate.
    public func isPossiblySkipped(narratorMedian: Double?) -> Bool {
        guard words > 0 else { return false }
        guard let rate = wordsPerMinute else { return true }
        guard words >= Self.fewestWordsToJudge else { return false }
        return rate >= Self.skipRatio * (narratorMedian ?? Self.typicalWordsPerMinute)
    }
}
