public import Foundation
import NarrationAudio
public import NarrationCore

/// The whole pipeline on virtual devices, for a newcomer on any machine: a new article, three
/// chunks recorded from a virtual microphone that speaks the paragraphs, played back to a
/// virtual speaker, queued as a tagged MP3, and the file checked. Every step is checked against
/// what went in, so the demo is also a smoke test of the installation.
///
/// The devices are ALSA `file` PCMs defined in process (no sound card, no configuration): each
/// paragraph's microphone reads its raw samples from a file, the speaker writes what it plays to
/// one. Both run as fast as the machine can, not in real time. The demo's library is a folder of
/// its own; the volunteer's library is never touched.
public struct Demo: Sendable {
    /// A paragraph the virtual microphone speaks: its text and a recording of it (the bytes of
    /// any file libsndfile reads, in the article's rate and channels).
    public struct Paragraph: Sendable {
        public let text: String
        public let audio: [UInt8]

        public init(text: String, audio: [UInt8]) {
            self.text = text
            self.audio = audio
        }
    }

    /// A step the demo is starting, for a progress line.
    public enum Step: Sendable, Equatable {
        case creatingArticle
        case recording(chunk: Int, of: Int)
        case playing
        case queueing(done: FrameCount, total: FrameCount)
        case checking
    }

    /// What the demo did and found.
    public struct Report: Sendable {
        public struct RecordedChunk: Sendable {
            public let index: ChunkIndex
            public let chunk: Chunk
            public let file: URL
            public let text: String
        }

        public let folder: URL
        public var article: Article
        public var chunks: [RecordedChunk] = []
        /// Frames the virtual speaker received; they equal the chunks' samples in order.
        public var playedFrames: FrameCount = 0
        public var speakerFile: URL
        public var job: OutboxJob?
        public var sidecar: Sidecar?
        public var decodedFrames: FrameCount = 0
        public var measurements: Measurements?
        public var verdict = ""
        public var tags: ID3TagReader?
    }

    public static let title = "How narrate works"
    public static let publication = "narrate demo"
    public static let narrator = "espeak-ng"
    /// The profile the demo queues with: an MP3 at 128 kbit/s, normalised to −19 LUFS (mono).
    public static let profile = DeliveryProfile.podcast

    public let folder: URL
    public let paragraphs: [Paragraph]

    /// - Parameter folder: the demo's data root; created if missing, and must hold no library yet.
    public init(folder: URL, paragraphs: [Paragraph]) {
        precondition(!paragraphs.isEmpty, "the demo needs something to say")
        self.folder = folder
        self.paragraphs = paragraphs
    }

    var devicesURL: URL { folder.appendingPathComponent("devices", isDirectory: true) }
    func microphoneName(_ number: Int) -> String { "narrate_demo_microphone_\(number)" }
    let speakerName = "narrate_demo_speaker"

    /// Runs every step; `progress` hears of each as it starts.
    /// - Throws: the engine's errors as they are; `fileCorrupt` when a step's check finds the
    ///   output differs from its input (which would be a fault in narrate, named precisely).
    public func run(progress: (Step) -> Void = { _ in }) throws(NarrationError) -> Report {
        if FileManager.default.fileExists(atPath: DataRoot(url: folder).catalogURL.path) {
            throw .usage("\(folder.path) already holds a narrate library; give the demo an empty or new folder.")
        }
        try FileSystem.createDirectory(devicesURL)
        let library = try NarrationLibrary(root: DataRoot(url: folder))

        var speech: [[Int16]] = []
        for (offset, paragraph) in paragraphs.enumerated() {
            let file = devicesURL.appendingPathComponent("speech-\(offset + 1)")
            try FileSystem.writeAtomically(Data(paragraph.audio), to: file)
            speech.append(try Self.samples(of: file, format: .speech))
        }

        progress(.creatingArticle)
        let article = try library.newArticle(title: Self.title, publication: Self.publication, narrator: Self.narrator, format: .speech)
        let speakerFile = devicesURL.appendingPathComponent("speaker.raw")
        var report = Report(folder: folder, article: article, speakerFile: speakerFile)
        let definitions = try makeDevices(speech, speaker: speakerFile)

        for (offset, paragraph) in paragraphs.enumerated() {
            progress(.recording(chunk: offset + 1, of: paragraphs.count))
            report.chunks.append(try record(
                paragraph.text, speech[offset], number: offset + 1, into: article, library: library, definitions: definitions))
        }

        progress(.playing)
        // Each chunk was checked equal to its paragraph, so the paragraphs joined are what must be heard.
        report.playedFrames = try play(article, library: library, definitions: definitions, speakerFile: speakerFile, expected: speech.flatMap { $0 })

        let queued = try library.queue(article, profile: Self.profile) { progress(.queueing(done: $0, total: $1)) }
        report.article = try library.article(article.id.rawValue)
        report.job = queued.job
        report.sidecar = queued.sidecar

        progress(.checking)
        try check(queued.job.file, article: article, chunks: report.chunks, into: &report)
        return report
    }

    /// One `file` PCM per paragraph reading its samples, and the speaker.
    private func makeDevices(_ speech: [[Int16]], speaker: URL) throws(NarrationError) -> ALSADefinitions {
        var text = ""
        for (offset, samples) in speech.enumerated() {
            let raw = devicesURL.appendingPathComponent("microphone-\(offset + 1).raw")
            try FileSystem.writeAtomically(Self.littleEndian16(samples), to: raw)
            text += "pcm.\(microphoneName(offset + 1)) { type file slave.pcm { type null } file \"/dev/null\" infile \(Self.quoted(raw.path)) format \"raw\" }\n"
        }
        text += "pcm.\(speakerName) { type file slave.pcm { type null } file \(Self.quoted(speaker.path)) format \"raw\" }\n"
        return ALSADefinitions(text)
    }

    /// Records exactly the paragraph's length from its microphone and checks the chunk holds
    /// exactly its samples.
    private func record(
        _ text: String, _ spoken: [Int16], number: Int, into article: Article, library: NarrationLibrary, definitions: ALSADefinitions
    ) throws(NarrationError) -> Report.RecordedChunk {
        let recording = try library.prepareRecording(
            into: article, placement: .append, device: microphoneName(number),
            duration: article.format.seconds(spoken.count / article.format.channels), definitions: definitions)
        do {
            try recording.start()
        } catch {
            _ = recording.finish()
            throw error
        }
        let outcome = recording.finish()  // returns once capture has ended, here at the paragraph's length
        switch outcome.reason {
        case .deviceFailed(let error), .diskFull(let error): throw error
        case .durationReached, .requested: break
        }
        guard let chunk = outcome.chunk, let index = outcome.index else {
            throw outcome.deferredBecause ?? NarrationError(.fileSystem, "Chunk \(number) of the demo was not committed.")
        }
        let recorded = try SoundFileReader(path: outcome.file.path).readAll()
        guard recorded == spoken.map({ Int32($0) << 16 }) else {
            throw NarrationError(.fileCorrupt, "Chunk \(number) of the demo holds \(recorded.count) samples that differ from the \(spoken.count) the microphone gave.")
        }
        return Report.RecordedChunk(index: index, chunk: chunk, file: outcome.file, text: text)
    }

    /// Plays every chunk to the speaker and checks it received exactly `expected`, in order.
    private func play(
        _ article: Article, library: NarrationLibrary, definitions: ALSADefinitions, speakerFile: URL, expected: [Int16]
    ) throws(NarrationError) -> FrameCount {
        let plan = try library.playbackPlan(of: article, from: nil, to: nil, skipMissing: false)
        let player = try library.preparePlayback(of: article, plan: plan, device: speakerName, speed: 1, volume: 1, definitions: definitions)
        player.play()
        let status = player.wait()
        if case .failed(let error) = status.state { throw error }
        let played = try FileSystem.contents(of: speakerFile)
        guard played == [UInt8](Self.littleEndian16(expected)) else {
            throw NarrationError(.fileCorrupt, "The virtual speaker received \(played.count / 2) samples that differ from the chunks' \(expected.count).")
        }
        return expected.count / article.format.channels
    }

    /// Decodes the queued MP3 (its length must equal the chunks'), measures it against the
    /// profile and reads its ID3 tag back.
    private func check(_ file: URL, article: Article, chunks: [Report.RecordedChunk], into report: inout Report) throws(NarrationError) {
        let measured = try Analyzer.measure(file: file)
        report.measurements = measured
        report.decodedFrames = measured.frames
        let recorded = chunks.reduce(0) { $0 + $1.chunk.frames }
        guard report.decodedFrames == recorded else {
            throw NarrationError(.fileCorrupt, "The demo's MP3 decodes to \(report.decodedFrames) frames; the chunks hold \(recorded).")
        }
        report.verdict = Self.profile.verdict(on: measured).sentence
        let tags = try ID3TagReader(FileSystem.contents(of: file))
        report.tags = tags
        let expected: [(String, String?, String)] = [
            ("TIT2", tags.text("TIT2"), article.title), ("TPE1", tags.text("TPE1"), article.narrator),
            ("TALB", tags.text("TALB"), article.publication), ("TXXX:NARRATE_ARTICLE_ID", tags.userText("NARRATE_ARTICLE_ID"), article.id.rawValue),
        ]
        for (frame, found, wanted) in expected where found != wanted {
            throw NarrationError(.fileCorrupt, "The demo's MP3 has \(frame) \(found.map { "\"\($0)\"" } ?? "missing"); it should be \"\(wanted)\".")
        }
        guard tags.chapters.count == chunks.count else {
            throw NarrationError(.fileCorrupt, "The demo's MP3 has \(tags.chapters.count) chapters; it should have one per chunk, \(chunks.count).")
        }
    }

    /// The file's samples as 16-bit values, checked to be in `format`'s rate and channels.
    static func samples(of file: URL, format: AudioFormat) throws(NarrationError) -> [Int16] {
        let reader = try SoundFileReader(path: file.path)
        defer { reader.close() }
        guard reader.format.sampleRate == format.sampleRate, reader.format.channels == format.channels else {
            throw NarrationError(.fileCorrupt, "\(file.path) is \(reader.format.sampleRate) Hz with \(reader.format.channels) channel(s); the demo needs \(format.sampleRate) Hz with \(format.channels).")
        }
        return try reader.readAll().map { Int16(truncatingIfNeeded: $0 >> 16) }
    }

    static func littleEndian16(_ samples: [Int16]) -> Data {
        var data = Data(capacity: samples.count * 2)
        for sample in samples {
            let value = UInt16(bitPattern: sample)
            data.append(UInt8(value & 0xFF))
            data.append(UInt8(value >> 8))
        }
        return data
    }

    /// `text` as an ALSA configuration string.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
