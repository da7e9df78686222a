/// A word a speech recogniser heard in a take: its spelling (as `SpokenWords` spells), when it
/// was said, and how sure the recogniser was.
public struct RecognisedWord: Codable, Sendable, Equatable {
    public var word: String
    /// Seconds from the start of the take.
    public var start: Double
    public var end: Double
    /// The recogniser's posterior probability for the word, 0…1.
    public var confidence: Double

    public init(_ word: String, start: Double, end: Double, confidence: Double = 1) {
        self.word = word
        self.start = start
        self.end = end
        self.confidence = confidence
    }
}

/// A hint that a take may not read its paragraph as written. Hints never block anything: the
/// volunteer listens and decides.
public struct TakeHint: Codable, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Codable, Sendable {
        /// The take is far faster than the narrator reads: words may be missing.
        case possiblySkipped
        /// A run of the paragraph's words was not heard; `seconds` is where they would be.
        case unheard
        /// The take sounds like another paragraph (`paragraph`) more than its own.
        case wrongParagraph
        /// Words were said that are not in the paragraph (an aside, a line of another
        /// paragraph); `words` are the words heard.
        case notInText
    }

    public var kind: Kind
    /// The words concerned: those not heard, or the first words of the paragraph the take
    /// sounds like; empty for `possiblySkipped`.
    public var words: String
    /// Where in the take, in seconds from its start.
    public var seconds: Double
    /// For `wrongParagraph`, the index of the paragraph the take sounds like.
    public var paragraph: Int?

    public init(_ kind: Kind, words: String, seconds: Double, paragraph: Int? = nil) {
        self.kind = kind
        self.words = words
        self.seconds = seconds
        self.paragraph = paragraph
    }

    /// "at 4.2 s: not heard: “the council voted on Tuesday”"
    public var description: String {
        let time = "at \(String(format1: seconds)) s"
        switch kind {
        case .possiblySkipped: return "possibly skipped: far faster than usual"
        case .unheard: return "\(time): not heard: “\(words)”"
        case .wrongParagraph: return "sounds like paragraph \((paragraph ?? 0) + 1): “\(words)”"
        case .notInText: return "\(time): not in the text: “\(words)”"
        }
    }
}

/// Where one sentence of the paragraph was heard in the take, for transcripts and captions.
public struct SentenceCue: Codable, Sendable, Equatable {
    /// The sentence's index among `ScriptParagraph.sentences`.
    public var sentence: Int
    /// Seconds from the start of the take.
    public var start: Double
    public var end: Double

    public init(sentence: Int, start: Double, end: Double) {
        self.sentence = sentence
        self.start = start
        self.end = end
    }
}

/// What the check of one take found; the catalog stores it as JSON beside the take.
public struct TakeCheckReport: Codable, Sendable, Equatable {
    /// Hints, in the order of the take: `wrongParagraph` first, then `possiblySkipped`, then
    /// `unheard` and `notInText` by time.
    public var hints: [TakeHint]
    /// The restarts found, each a cut the volunteer may accept, by time (`Fumbles`).
    public var cuts: [ProposedCut]
    /// Cues for the sentences heard with confidence; a sentence without one has no cue.
    public var sentenceCues: [SentenceCue]
    public var rate: SpeakingRate
    /// Whether speech recognition ran (it does for English only); without it there are no
    /// `unheard` or `wrongParagraph` hints and no cues.
    public var recognised: Bool
    /// The share of the paragraph's words the recogniser heard in order, 0…1; nil without
    /// recognition.
    public var match: Double?
    /// The paragraph's words the recogniser cannot hear (not in its dictionary, numbers among
    /// them): they count neither as heard nor as unheard.
    public var unknownWords: [String]

    public init(
        hints: [TakeHint], cuts: [ProposedCut] = [], sentenceCues: [SentenceCue], rate: SpeakingRate, recognised: Bool,
        match: Double? = nil, unknownWords: [String] = []
    ) {
        self.hints = hints
        self.cuts = cuts
        self.sentenceCues = sentenceCues
        self.rate = rate
        self.recognised = recognised
        self.match = match
        self.unknownWords = unknownWords
    }

    private enum CodingKeys: String, CodingKey { case hints, cuts, sentenceCues, rate, recognised, match, unknownWords }

    /// Reads a report as any narrate wrote it: those written before restarts were found have no cuts.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        hints = try container.decode([TakeHint].self, forKey: .hints)
        cuts = try container.decodeIfPresent([ProposedCut].self, forKey: .cuts) ?? []
        sentenceCues = try container.decode([SentenceCue].self, forKey: .sentenceCues)
        rate = try container.decode(SpeakingRate.self, forKey: .rate)
        recognised = try container.decode(Bool.self, forKey: .recognised)
        match = try container.decodeIfPresent(Double.self, forKey: .match)
        unknownWords = try container.decodeIfPresent([String].self, forKey: .unknownWords) ?? []
    }

    /// The report of the take once the stretch `removed` (frames) is cut from it: the hints,
    /// cues and other cuts after it move earlier by its length, those within it go, and the
    /// speech cut no longer counts in the speaking rate.
    public func cutting(_ removed: Range<Int>, sampleRate: Int) -> TakeCheckReport {
        let from = Double(removed.lowerBound) / Double(sampleRate)
        let to = Double(removed.upperBound) / Double(sampleRate)
        let length = to - from
        func moved(_ seconds: Double) -> Double? { seconds <= from ? seconds : seconds >= to ? seconds - length : nil }
        var report = self
        report.cuts = cuts.compactMap { $0.shifted(byRemoving: removed, sampleRate: sampleRate) }
        report.hints = hints.compactMap { hint in
            guard hint.kind == .unheard || hint.kind == .notInText else { return hint }
            guard let seconds = moved(hint.seconds) else { return nil }
            var hint = hint
            hint.seconds = seconds
            return hint
        }
        report.sentenceCues = sentenceCues.compactMap { cue in
            // A sentence whose first attempt was cut now starts where the second begins.
            let start = moved(cue.start) ?? from
            guard let end = moved(cue.end), start <= end else { return nil }
            return SentenceCue(sentence: cue.sentence, start: start, end: end)
        }
        report.rate.speechSeconds = max(0, rate.speechSeconds - length)
        return report
    }
}

extension TakeCheckReport {
    /// The report on a take of `paragraphs[paragraphIndex]`: its speaking rate from `activity`
    /// against `narratorMedianRate` and, when a recogniser ran, what the words it `heard` say
    /// (`TakeAlignment`). A take that sounds like another paragraph gets that hint alone (its
    /// own paragraph's words would all be "unheard"); `possiblySkipped` is left out when an
    /// `unheard` hint already says what is missing and where.
    /// - Parameters:
    ///   - heard: the words recognised, or nil when no recogniser ran (a language without one).
    ///   - vocabulary: the words the recogniser can say.
    ///   - unknownWords: the article's words it cannot say; those of this paragraph are reported.
    ///   - envelope: the take's levels, where the restarts' cuts are placed (`Fumbles`).
    ///   - frames: the take's cepstra, to find what its sound says twice (`RepeatedSpeech`, which
    ///     needs the envelope too); nil finds restarts from the words alone.
    public init(
        paragraphs: [ScriptParagraph], paragraphIndex: Int, activity: SpeechActivity, narratorMedianRate: Double?,
        heard: [RecognisedWord]?, vocabulary: Set<String>? = nil, unknownWords: [String] = [],
        envelope: LevelEnvelope? = nil, frames: SpeechFrames? = nil, sampleRate: Int = 16_000,
        settings: TakeAlignment.Settings = TakeAlignment.Settings(), fumbleSettings: Fumbles.Settings = Fumbles.Settings()
    ) {
        let paragraph = paragraphs[paragraphIndex]
        let rate = SpeakingRate(paragraph: paragraph, activity: activity)
        let fast = rate.isPossiblySkipped(narratorMedian: narratorMedianRate)
        let skipHint = TakeHint(.possiblySkipped, words: "", seconds: 0)
        guard let heard else {
            self.init(hints: fast ? [skipHint] : [], sentenceCues: [], rate: rate, recognised: false)
            return
        }
        let hearable = paragraph.spokenWords.filter { vocabulary?.contains($0) ?? true }
        let repeats = frames.flatMap { frames in
            envelope.map { RepeatedSpeech(frames: frames, envelope: $0, wordStarts: heard.map(\.start), settings: fumbleSettings.repeats).repeats }
        }
        let fumbles = Fumbles(
            heard: heard, text: hearable, envelope: envelope, sampleRate: sampleRate, settings: fumbleSettings, repeats: repeats ?? [],
            frames: frames)
        let alignment = TakeAlignment(
            heard: heard, paragraphs: paragraphs, paragraphIndex: paragraphIndex, vocabulary: vocabulary, notText: fumbles.notText, settings: settings)
        var hints = alignment.hints
        let wrong = hints.contains { $0.kind == .wrongParagraph }
        if !wrong {
            hints = (hints + fumbles.strays).sorted { $0.seconds < $1.seconds }
        }
        if fast, !hints.contains(where: { $0.kind != .possiblySkipped }) {
            hints.insert(skipHint, at: 0)
        }
        let words = Set(paragraph.spokenWords)
        self.init(
            hints: hints, cuts: wrong ? [] : fumbles.cuts, sentenceCues: alignment.sentenceCues, rate: rate, recognised: true, match: alignment.match,
            unknownWords: unknownWords.filter(words.contains))
    }
}
