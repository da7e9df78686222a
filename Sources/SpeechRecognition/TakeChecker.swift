public import NarrationCore
import Synchronization

/// The check of a take after it is recorded: the engine calls `check` on a background thread
/// of its own, never on the capture path, and stores the report; its hints never block a take.
///
/// What runs for which language:
/// - every language: the speaking rate (the paragraph's words per minute of speech, pauses
///   excluded) against the narrator's median; far faster is `possiblySkipped`.
/// - English (`en`, `en-GB`, `en_US`…): speech recognition with PocketSphinx against a language
///   model of the article's own text, giving `wrongParagraph`, `unheard` and `notInText` hints,
///   the restarts to cut (`Fumbles`, with the stretches its sound says twice: `RepeatedSpeech`
///   over the take's cepstra) and sentence cues.
///
/// The decoder is single-threaded and `check` runs on the calling thread only; calls from
/// several threads take turns.
public final class TakeChecker: Sendable {
    public let paragraphs: [ScriptParagraph]
    public let language: String
    public let settings: TakeAlignment.Settings
    public let fumbleSettings: Fumbles.Settings
    /// The article's recogniser, nil for a language without one or once closed.
    private let recogniser: Mutex<ArticleRecogniser?>

    /// Whether takes in `language` (a BCP 47 tag) are checked by speech recognition.
    public static func recognises(language: String) -> Bool {
        let lowered = language.lowercased()
        return lowered == "en" || lowered.hasPrefix("en-") || lowered.hasPrefix("en_")
    }

    /// Prepares the check of an article's takes; for English this makes its recogniser (about a
    /// second: the acoustic model is loaded).
    /// - Throws: `speechRecognition` when English needs the model and it is not installed or
    ///   cannot be read.
    public init(
        paragraphs: [ScriptParagraph], language: String, model: SpeechModel = .english,
        settings: TakeAlignment.Settings = TakeAlignment.Settings(), fumbleSettings: Fumbles.Settings = Fumbles.Settings()
    ) throws(NarrationError) {
        precondition(!paragraphs.isEmpty, "an article to check takes of has paragraphs")
        self.paragraphs = paragraphs
        self.language = language
        self.settings = settings
        self.fumbleSettings = fumbleSettings
        let recogniser = Self.recognises(language: language) ? try ArticleRecogniser(paragraphs: paragraphs, model: model) : nil
        self.recogniser = Mutex(recogniser)
    }

    /// Checks a take of `paragraphs[paragraphIndex]`.
    /// - Parameters:
    ///   - samples: the take, mono, full scale 1.0 (`mono(interleaved:channels:)` for more
    ///     channels), at any rate.
    ///   - frames: the take's cepstra (`SpeechFrames(cepstraOf:sampleRate:)` in NarrationAudio),
    ///     to find what its sound says twice; nil finds restarts from the words alone.
    ///   - narratorMedianRate: the median words per minute of the narrator's other takes
    ///     (`SpeakingRate.median(of:)`), nil when they have fewer than three.
    /// - Throws: `speechRecognition` when the decoder fails on the take.
    public func check(
        samples: [Float], sampleRate: Int, frames: SpeechFrames?, paragraphIndex: Int, narratorMedianRate: Double?
    ) throws(NarrationError) -> TakeCheckReport {
        precondition(paragraphs.indices.contains(paragraphIndex), "the take's paragraph is one of the article's")
        let activity = SpeechActivity(samples: samples, sampleRate: sampleRate)
        return try recogniser.withLock { (recogniser) throws(NarrationError) -> TakeCheckReport in
            guard let recogniser else {
                return TakeCheckReport(
                    paragraphs: paragraphs, paragraphIndex: paragraphIndex, activity: activity, narratorMedianRate: narratorMedianRate, heard: nil)
            }
            let heard = try recogniser.recognise(samples: samples, sampleRate: sampleRate)
            let envelope = LevelEnvelope(samples: samples, sampleRate: sampleRate, speechThreshold: activity.threshold)
            return TakeCheckReport(
                paragraphs: paragraphs, paragraphIndex: paragraphIndex, activity: activity, narratorMedianRate: narratorMedianRate,
                heard: heard, vocabulary: recogniser.vocabulary, unknownWords: recogniser.unknownWords, envelope: envelope,
                frames: frames, sampleRate: sampleRate, settings: settings, fumbleSettings: fumbleSettings)
        }
    }

    /// The words the recogniser hears in a take, for measurements and tools; nil for a
    /// language without recognition.
    public func recognise(samples: [Float], sampleRate: Int) throws(NarrationError) -> (heard: [RecognisedWord], vocabulary: Set<String>, unknownWords: [String])? {
        try recogniser.withLock { (recogniser) throws(NarrationError) in
            guard let recogniser else { return nil }
            return (try recogniser.recognise(samples: samples, sampleRate: sampleRate), recogniser.vocabulary, recogniser.unknownWords)
        }
    }

    /// One channel from interleaved samples: their mean.
    public static func mono(interleaved samples: [Float], channels: Int) -> [Float] {
        precondition(channels > 0, "audio has channels")
        guard channels > 1 else { return samples }
        let frames = samples.count / channels
        var mono = [Float](repeating: 0, count: frames)
        let scale = 1 / Float(channels)
        for frame in 0..<frames {
            var sum: Float = 0
            for channel in 0..<channels { sum += samples[frame * channels + channel] }
            mono[frame] = sum * scale
        }
        return mono
    }

    /// Frees the recogniser; takes checked afterwards get the rate check only.
    public func close() {
        recogniser.withLock { recogniser in
            recogniser?.close()
            recogniser = nil
        }
    }
}
