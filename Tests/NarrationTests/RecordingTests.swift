import Foundation
@testable import Narration
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("Recording chunks into an article")
struct RecordingTests {
    @Test("a take holds exactly the microphone's samples", arguments: [0.25, 1.0, 2.3456])
    func bitExact(seconds: Double) throws {
        let fixture = try LibraryFixture()
        let article = try fixture.library.newArticle(title: "Bit exact", publication: "", narrator: "", format: .speech)
        let outcome = try fixture.record(article, seconds: seconds)
        let frames = AudioFormat.speech.frames(forSeconds: seconds)
        #expect(outcome.reason == .durationReached)
        #expect(outcome.chunk?.frames == frames)
        let entries = try fixture.library.chunkEntries(of: article)
        #expect(entries.count == 1)
        #expect(try fixture.samples(of: entries[0]) == fixture.sourceSamples(frames: frames))
        #expect(!FileManager.default.fileExists(atPath: outcome.file.path.replacingOccurrences(of: ".wav", with: ".partial.wav")))
    }

    @Test("a 24-bit stereo article records 24-bit stereo chunks bit for bit")
    func deepStereo() throws {
        let format = AudioFormat(sampleRate: 48_000, channels: 2, bitsPerSample: 24)
        let fixture = try LibraryFixture(format: format)
        let article = try fixture.library.newArticle(title: "Stereo", publication: "", narrator: "", format: format)
        try fixture.record(article, seconds: 0.5)
        let entry = try #require(try fixture.library.chunkEntries(of: article).first)
        let reader = try SoundFileReader(path: entry.file.path)
        #expect(reader.format == format)
        #expect(try reader.readAll() == fixture.sourceSamples(frames: 24_000, format: format))
    }

    @Test("five record/stop cycles in a row give five exact chunks in order")
    func fiveCycles() throws {
        let fixture = try LibraryFixture()
        let article = try fixture.library.newArticle(title: "Five", publication: "", narrator: "", format: .speech)
        let durations = [0.3, 0.7, 0.1, 1.2, 0.45]
        for seconds in durations { try fixture.record(article, seconds: seconds) }
        let entries = try fixture.library.chunkEntries(of: article)
        #expect(entries.map(\.chunk.frames) == durations.map { AudioFormat.speech.frames(forSeconds: $0) })
        #expect(entries.map(\.index.number) == [1, 2, 3, 4, 5])
        for entry in entries {
            #expect(try fixture.samples(of: entry) == fixture.sourceSamples(frames: entry.chunk.frames))
        }
    }

    @Test("delete, re-record and insert leave the chunks in the order the volunteer asked for")
    func edits() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let article = try library.newArticle(title: "Edits", publication: "", narrator: "", format: .speech)
        // Distinct lengths name the takes: 100 ms is take A, 200 ms take B, and so on.
        for tenths in 1...4 { try fixture.record(article, seconds: Double(tenths) / 10) }  // A B C D
        let frames = { try library.chunkEntries(of: article).map { $0.chunk.frames / 4_410 } }
        #expect(try frames() == [1, 2, 3, 4])

        let removed = try library.deleteChunk(at: ChunkIndex(2), of: article).chunk  // A C D
        #expect(try frames() == [1, 3, 4])
        #expect(FileManager.default.fileExists(atPath: library.root.trashedChunkURL(removed.id, of: article.id).path))

        let replaced = try fixture.record(article, seconds: 0.5, placement: .replace(ChunkIndex(1)))  // E C D
        #expect(replaced.index == ChunkIndex(1))
        #expect(try frames() == [5, 3, 4])
        let oldFirst = try #require(replaced.replaced.first)
        #expect(FileManager.default.fileExists(atPath: library.root.trashedChunkURL(oldFirst, of: article.id).path))

        try fixture.record(article, seconds: 0.6, placement: .insert(before: ChunkIndex(3)))  // E C F D
        #expect(try frames() == [5, 3, 6, 4])
        try fixture.record(article, seconds: 0.7, placement: .insert(before: ChunkIndex(1)))  // G E C F D
        #expect(try frames() == [7, 5, 3, 6, 4])
    }

    @Test("an out-of-range placement is refused before anything is recorded")
    func outOfRange() throws {
        let fixture = try LibraryFixture()
        let article = try fixture.library.newArticle(title: "Range", publication: "", narrator: "", format: .speech)
        try fixture.record(article, seconds: 0.1)
        #expect(throws: NarrationError.chunkIndexOutOfRange(ChunkIndex(3), count: 1)) {
            try fixture.record(article, seconds: 0.1, placement: .replace(ChunkIndex(3)))
        }
        #expect(throws: NarrationError.chunkIndexOutOfRange(ChunkIndex(2), count: 1)) {
            try fixture.library.deleteChunk(at: ChunkIndex(2), of: article)
        }
        #expect(try fixture.library.chunkEntries(of: article).count == 1)
        #expect(try fixture.library.catalog.pendingTakes().isEmpty)
    }

    @Test("a second recorder on the same article is refused while the first holds it")
    func secondRecorder() throws {
        let fixture = try LibraryFixture()
        let article = try fixture.library.newArticle(title: "Busy", publication: "", narrator: "", format: .speech)
        let first = try fixture.library.prepareRecording(
            into: article, placement: .append, device: "vmic", duration: 0.2, definitions: fixture.devices.definitions)
        #expect {
            try fixture.record(article, seconds: 0.1)
        } throws: { error in
            (error as? NarrationError)?.kind == .articleBusy
                && (error as? NarrationError)?.message.hasPrefix("Article \"Busy\" (\(article.id)) is busy: another narrate command (process ") == true
        }
        try first.start()
        #expect(first.finish().chunk?.frames == 8_820)
        #expect(try fixture.library.chunkEntries(of: article).count == 1)
        // finish() frees the article at once, while the finished recording is still around.
        try fixture.record(article, seconds: 0.1)
        #expect(try fixture.library.chunkEntries(of: article).map(\.chunk.frames) == [8_820, 4_410])
        withExtendedLifetime(first) {}
    }

    @Test("a pulled microphone stops the take and keeps what was captured")
    func unplugged() throws {
        let fixture = try LibraryFixture()
        let article = try fixture.library.newArticle(title: "Unplug", publication: "", narrator: "", format: .speech)
        let recording = try fixture.library.prepareRecording(
            into: article, placement: .append, device: "usbmic", duration: nil, definitions: fixture.devices.definitions)
        try recording.start()
        while recording.status.frames < 22_050 { usleep(10_000) }
        try Data().write(to: fixture.devices.unplugFile)
        let outcome = recording.finish()
        guard case .deviceFailed(let error) = outcome.reason else {
            Issue.record("expected a device failure, got \(outcome.reason)")
            return
        }
        #expect(error.kind == .deviceFailed)
        let chunk = try #require(outcome.chunk)
        #expect(chunk.frames >= 22_050)
        // The emulated microphone plays a sine at -12 dBFS peak.
        #expect(abs(chunk.peak.value - -12.04) < 0.1)
        let entries = try fixture.library.chunkEntries(of: article)
        #expect(try SoundFileReader(path: entries[0].file.path).frames == chunk.frames)
    }
}

@Suite("What holds an article")
struct ArticleLockTests {
    @Test("an article held by an export or a queue says so, naming the process; a take's lock says recording", arguments: [
        (ArticleLock.Purpose.export, "is exporting it. Wait for it to finish, then try again."),
        (.queue, "is queuing it (exporting it into the outbox). Wait for it to finish, then try again."),
        (.recording, "is recording into it. Stop that recording first."),
    ])
    func busyMessage(purpose: ArticleLock.Purpose, ending: String) throws {
        let fixture = try LibraryFixture()
        let article = try fixture.library.newArticle(title: "Held", publication: "", narrator: "", format: .speech)
        try fixture.record(article, seconds: 0.2)
        var held = try ArticleLock.tryAcquire(fixture.library.root.lockURL(article.id), purpose: purpose)
        #expect(held != nil)
        #expect(throws: NarrationError(
            .articleBusy, "Article \"Held\" (\(article.id)) is busy: another narrate command (process \(getpid())) \(ending)")) {
            try fixture.library.deleteChunk(at: ChunkIndex(1), of: article)
        }
        held = nil  // released: the edit goes through
        let deleted = try fixture.library.deleteChunk(at: ChunkIndex(1), of: article)
        #expect(held == nil && deleted.chunk.frames == 8_820)
    }
}

@Suite("What a refused command reads in the lock file")
struct ArticleLockHolderTests {
    private let article = Article(id: ArticleID("k3v9"), title: "Held", publication: "", narrator: "", format: .speech, createdAt: Date())

    @Test("a lock file read before its holder wrote its line (two undos racing) says only that another command uses it", arguments: [
        ("", "another narrate command is using it. Wait for it to finish, then try again."),
        ("\n", "another narrate command is using it. Wait for it to finish, then try again."),
        ("77 edit\n", "another narrate command (process 77) is changing its chunks. Wait for it to finish, then try again."),
        ("77 edit\nording\n", "another narrate command (process 77) is changing its chunks. Wait for it to finish, then try again."),
        // An older narrate wrote its process id alone, and only when recording.
        ("77\n", "another narrate command (process 77) is recording into it. Stop that recording first."),
    ])
    func holderWords(text: String, ending: String) {
        #expect(ArticleLock.busy(article, holder: text).message == "Article \"Held\" (k3v9) is busy: \(ending)")
    }
}
