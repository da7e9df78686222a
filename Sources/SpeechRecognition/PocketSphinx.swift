internal import CPocketSphinx
import Glibc
import NarrationCore

/// The single owner of a PocketSphinx decoder (`ps_decoder_t`) and of the argument strings its
/// configuration was parsed from. Every call into PocketSphinx is in this file.
///
/// Not thread-safe: one thread at a time decodes (`TakeChecker` serialises its calls).
final class SphinxDecoder {
    private var decoder: OpaquePointer?
    /// `cmd_ln_parse_r` may keep pointers to its argv strings ("assumed to be allocated
    /// statically"): they live as long as the decoder and are freed with it.
    private var argumentStrings: [UnsafeMutablePointer<CChar>?]

    /// Frames of features per second (PocketSphinx's `-frate`, 100 by default and in every model).
    static let framesPerSecond = 100.0

    /// The sample rate PocketSphinx's English model expects.
    static let sampleRate = 16000

    /// Makes a decoder with the acoustic model folder `acousticModel`, the ARPA language model
    /// `languageModel` and the pronouncing dictionary `dictionary`. Both files are read here and
    /// not needed afterwards. Logging goes nowhere.
    /// - Throws: `speechRecognition` when a file is missing or unreadable, or the arguments are
    ///   refused. The corresponding C functions are `cmd_ln_parse_r` and `ps_init`.
    init(acousticModel: String, languageModel: String, dictionary: String) throws(NarrationError) {
        // The language weight stays at its default (6.5): 10 made right takes match worse in the
        // measurements (SpeechRecognitionTests), the article's model pulling words to the wrong place.
        // SphinxBase logs to stderr until told otherwise, from the first call on; -logfn then
        // sends the decoder's own log to /dev/null.
        err_set_logfp(nil)
        let arguments = [
            "narrate", "-hmm", acousticModel, "-lm", languageModel, "-dict", dictionary,
            "-logfn", "/dev/null", "-bestpath", "yes",
        ]
        argumentStrings = arguments.map { strdup($0) }
        let config = argumentStrings.withUnsafeMutableBufferPointer { argv in
            cmd_ln_parse_r(nil, ps_args(), Int32(argv.count), argv.baseAddress, 1)
        }
        guard let config else {
            close()
            throw NarrationError(.speechRecognition, "The speech recogniser refused its configuration (\(arguments.dropFirst().joined(separator: " "))).")
        }
        // ps_init retains the configuration; our reference goes either way.
        defer { _ = cmd_ln_free_r(config) }
        guard let decoder = ps_init(config) else {
            close()
            throw NarrationError(
                .speechRecognition,
                "The speech recogniser cannot start: its model (\(acousticModel)), dictionary or language model is missing or unreadable.",
                subject: .file(acousticModel))
        }
        self.decoder = decoder
    }

    /// Decodes one utterance: mono 16-bit samples at `sampleRate`.
    /// - Returns: the words of the best hypothesis with their frames and posteriors, fillers
    ///   and silences left out, alternate pronunciations ("read(2)") under their word.
    /// - Throws: `speechRecognition` when the decoder refuses the audio. The corresponding C
    ///   functions are `ps_start_utt`, `ps_process_raw`, `ps_end_utt`, `ps_seg_iter`.
    func decode(_ samples: [Int16]) throws(NarrationError) -> [RecognisedWord] {
        guard let decoder else { preconditionFailure("decode after close") }
        try check(ps_start_utt(decoder), "ps_start_utt")
        let frames = samples.withUnsafeBufferPointer { buffer in
            // The whole take at once (full_utt): batch cepstral mean normalisation, as the model wants.
            ps_process_raw(decoder, buffer.baseAddress, buffer.count, 0, 1)
        }
        try check(frames, "ps_process_raw")
        try check(ps_end_utt(decoder), "ps_end_utt")

        let logmath = ps_get_logmath(decoder)
        var words: [RecognisedWord] = []
        var segment = ps_seg_iter(decoder)
        while let current = segment {
            let spelling = String(cString: ps_seg_word(current))
            var startFrame: Int32 = 0, endFrame: Int32 = 0
            ps_seg_frames(current, &startFrame, &endFrame)
            var acoustic: Int32 = 0, language: Int32 = 0, backoff: Int32 = 0
            let posterior = logmath_exp(logmath, ps_seg_prob(current, &acoustic, &language, &backoff))
            if let word = Self.word(spelling) {
                words.append(RecognisedWord(
                    word, start: Double(startFrame) / Self.framesPerSecond, end: Double(endFrame + 1) / Self.framesPerSecond,
                    confidence: min(max(posterior, 0), 1)))
            }
            segment = ps_seg_next(current)  // frees the iterator at the end
        }
        return words
    }

    /// A segment's word, or nil for sentence markers, silence and fillers ("<s>", "<sil>",
    /// "[NOISE]", "(NULL)").
    static func word(_ spelling: String) -> String? {
        guard let first = spelling.first, first != "<", first != "[", first != "(" else { return nil }
        if let open = spelling.firstIndex(of: "(") { return String(spelling[..<open]) }
        return spelling
    }

    /// Frees the decoder. The corresponding C function is `ps_free`, which returns the
    /// remaining reference count and cannot fail.
    func close() {
        if let decoder { _ = ps_free(decoder) }
        decoder = nil
        Self.free(argumentStrings)
        argumentStrings = []
    }

    deinit { close() }

    private static func free(_ strings: [UnsafeMutablePointer<CChar>?]) {
        for string in strings { Glibc.free(string) }
    }

    /// The one funnel for PocketSphinx's results: negative is failure.
    private func check<Result: BinaryInteger>(_ result: Result, _ call: String) throws(NarrationError) {
        guard result >= 0 else {
            throw NarrationError(.speechRecognition, "The speech recogniser failed in \(call) (\(result)).")
        }
    }
}
