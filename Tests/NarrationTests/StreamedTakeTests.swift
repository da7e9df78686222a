import Foundation
import Narration
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

/// A take whose audio another program sends (the web studio's browser microphone) goes through
/// the same recording as a device's: its partial file, checkpoints and commit.
@Suite("Takes from a streamed microphone")
struct StreamedTakeTests {

    /// A started take from a new stream into a new article of `fixture`'s library.
    private func streamedTake(_ fixture: LibraryFixture, title: String) throws -> (Article, StreamedCapture, Recording) {
        let article = try fixture.library.newArticle(title: title, publication: "", narrator: "", format: .speech)
        let stream = StreamedCapture(name: "the browser's microphone", format: .speech)
        let take = try fixture.library.prepareRecording(into: article, placement: .append, input: .streamed(stream), duration: nil)
        try take.start()
        return (article, stream, take)
    }

    @Test("what is sent, in pieces of any size, is the chunk sample for sample; a stop keeps what was sent before it")
    func exact() throws {
        let fixture = try LibraryFixture()
        let (article, stream, take) = try streamedTake(fixture, title: "Streamed")
        var generator = SeededGenerator(seed: 19)
        let samples = (0..<22_050).map { _ in Int16.random(in: .min ... .max, using: &generator) }
        let sent = Signals.littleEndian(samples)
        var offset = 0
        for size in [1, 3, 4_410, 999, 2, 8_820] + Array(repeating: 5_000, count: 20) where offset < sent.count {
            stream.append(sent[offset..<min(sent.count, offset + size)])
            offset += size
        }
        take.requestStop()  // at once: what the stream holds is still written
        let outcome = take.finish()
        #expect(outcome.reason == .requested)
        #expect(outcome.chunk?.frames == 22_050)
        let entry = try #require(try fixture.library.chunkEntries(of: article).first)
        #expect(try fixture.samples(of: entry) == samples.map { Int32($0) << 16 })
    }

    @Test("a sender that goes away stops the take with a sentence, and what it sent is kept")
    func senderGone() throws {
        let fixture = try LibraryFixture()
        let (article, stream, take) = try streamedTake(fixture, title: "Gone")
        stream.append(Signals.littleEndian((0..<4_410).map { Int16($0 % 1_000) }))
        stream.fail(NarrationError(.deviceFailed, "The browser stopped sending audio."))
        let outcome = take.finish()
        #expect(outcome.reason == .deviceFailed(NarrationError(.deviceFailed, "The browser stopped sending audio.")))
        #expect(outcome.chunk?.frames == 4_410)
        #expect(TakeReport(outcome, detail: .brief).stopped == "Recording stopped: The browser stopped sending audio. What was captured before is kept as chunk 1.")
    }

    @Test("a stream in another format than the article's is refused before a take starts")
    func wrongFormat() throws {
        let fixture = try LibraryFixture()
        let article = try fixture.library.newArticle(title: "Format", publication: "", narrator: "", format: .speech)
        let stream = StreamedCapture(name: "the browser's microphone", format: AudioFormat(sampleRate: 48_000, channels: 1, bitsPerSample: 16))
        #expect(throws: NarrationError.usage("The browser's microphone sends 48000 Hz, mono, 16-bit but the article is 44100 Hz, mono, 16-bit: reload the page.")) {
            try fixture.library.prepareRecording(into: article, placement: .append, input: .streamed(stream), duration: nil)
        }
        #expect(try fixture.library.chunkEntries(of: article).isEmpty)
    }
}
