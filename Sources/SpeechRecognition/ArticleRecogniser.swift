import Glibc
public import NarrationCore

/// Where PocketSphinx's English model lives: an acoustic model folder and a pronouncing
/// dictionary, as the Debian package `pocketsphinx-en-us` installs them.
public struct SpeechModel: Sendable, Equatable {
    public var acousticModel: String
    public var dictionary: String

    public init(acousticModel: String, dictionary: String) {
        self.acousticModel = acousticModel
        self.dictionary = dictionary
    }

    /// US English from `pocketsphinx-en-us`.
    public static let english = SpeechModel(
        acousticModel: "/usr/share/pocketsphinx/model/en-us/en-us",
        dictionary: "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict")
}

/// Offline speech recognition for the takes of one article, listening for that article's own
/// words: its language model is made from the article's sentences and its dictionary holds
/// only the article's words (those the pronouncing dictionary knows). The junctions of the
/// restarts a narrator makes are in the model too (`ArticleLanguageModel.restartJunctions`), so
/// that words read again are heard again.
///
/// The single owner of its decoder; `close()` frees it (or `deinit` does). One thread at a
/// time.
public final class ArticleRecogniser {
    /// The words the recogniser can say: the article's words with a dictionary entry.
    public let vocabulary: Set<String>
    /// The article's words it cannot say, in order of first use (numbers among them).
    public let unknownWords: [String]
    private let decoder: SphinxDecoder

    /// Makes the recogniser for `paragraphs`, writing its language model and dictionary to a
    /// temporary folder that is gone again when this returns.
    /// - Throws: `speechRecognition` when the model is not installed or cannot be read, or the
    ///   article has no word the dictionary knows; `fileSystem` when the temporary folder
    ///   cannot be made.
    public init(paragraphs: [ScriptParagraph], model: SpeechModel = .english) throws(NarrationError) {
        var articleWords: [String] = []
        var seen: Set<String> = []
        for paragraph in paragraphs {
            for word in paragraph.spokenWords where seen.insert(word).inserted { articleWords.append(word) }
        }
        // The dictionary also holds the aside words (not the model: see below); measured, the
        // fumble set's right takes then get no cut (0 of 18, against 1 of 18 without them).
        let dictionary = try PronouncingDictionary(path: model.dictionary, words: seen.union(AsideWords.words))
        vocabulary = dictionary.known.intersection(seen)
        unknownWords = articleWords.filter { !dictionary.known.contains($0) }
        guard !vocabulary.isEmpty else {
            throw NarrationError(.speechRecognition, "None of the article's words is in the speech recogniser's dictionary.")
        }
        let known = dictionary.known
        let sentences = paragraphs.flatMap { paragraph in
            let words = paragraph.spokenWords
            return paragraph.sentences.map { sentence in words[sentence.words].filter { known.contains($0) } }
        }
        // The asides narrators say when they stumble (`AsideWords`) are left out of the model:
        // measured, adding them (as sentences, or as phrases without a sentence's start and end)
        // cost right takes their sentence cues (ScriptCommandTests, BookExportTests).
        let junctions = sentences.flatMap(ArticleLanguageModel.restartJunctions(of:))
        let languageModel = ArticleLanguageModel(sentences: sentences, fragments: junctions).arpa
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let languageModelPath = try folder.write("article.lm", languageModel)
        let dictionaryPath = try folder.write("article.dict", dictionary.lines.joined(separator: "\n") + "\n")
        decoder = try SphinxDecoder(acousticModel: model.acousticModel, languageModel: languageModelPath, dictionary: dictionaryPath)
    }

    /// The words heard in `samples` (mono, full scale 1.0, `sampleRate` per second), with times
    /// in seconds from the first sample. Other rates than 16 kHz are converted (`Resampler`).
    /// - Throws: `speechRecognition` when the decoder fails.
    public func recognise(samples: [Float], sampleRate: Int) throws(NarrationError) -> [RecognisedWord] {
        let converted = Resampler(from: sampleRate, to: SphinxDecoder.sampleRate)(samples)
        let pcm = converted.map { Int16(max(-32768, min(32767, ($0 * 32767).rounded()))) }
        return try decoder.decode(pcm)
    }

    /// Frees the decoder; the recogniser cannot be used afterwards.
    public func close() { decoder.close() }
}

/// A folder of our own under the system's temporary folder, for files a C library reads.
final class TemporaryFolder {
    let path: String
    private var names: [String] = []

    init() throws(NarrationError) {
        let base = ProcessInfoLite.temporaryDirectory
        var template = Array("\(base)/narrate-speech-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw NarrationError(.fileSystem, "Cannot make a temporary folder in \(base).", subject: .file(base), cause: .system(errno: errno))
        }
        path = String(cString: made)
    }

    /// Writes `text` to `name` in the folder; returns its path.
    func write(_ name: String, _ text: String) throws(NarrationError) -> String {
        let file = "\(path)/\(name)"
        names.append(name)
        // "x": created new (O_EXCL), never through a link, in a folder only this user can write.
        guard let handle = fopen(file, "wxe") else {
            throw NarrationError(.fileSystem, "Cannot write \(file).", subject: .file(file), cause: .system(errno: errno))
        }
        let bytes = Array(text.utf8)
        let written = fwrite(bytes, 1, bytes.count, handle)
        let closed = fclose(handle)
        guard written == bytes.count, closed == 0 else {
            throw NarrationError(.fileSystem, "Cannot write \(file).", subject: .file(file), cause: .system(errno: errno))
        }
        return file
    }

    /// Removes the folder and the files in it; what cannot be removed stays (it is temporary).
    func remove() {
        for name in names { unlink("\(path)/\(name)") }
        rmdir(path)
    }
}

/// `$TMPDIR`, or /tmp.
enum ProcessInfoLite {
    static var temporaryDirectory: String {
        if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
        return "/tmp"
    }
}
