import Foundation
import Glibc
@testable import Narration
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("Faults: nothing recorded is lost")
struct FaultTests {
    @Test("a partial take whose header lags its data is adopted whole by the next open")
    func recoverPartial() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let article = try library.newArticle(title: "Crash", publication: "", narrator: "", format: .speech)
        try fixture.record(article, seconds: 0.2)
        try fixture.record(article, seconds: 0.3)

        // What a recorder killed mid-take leaves: a registered take, a header checkpointed at
        // 10 000 frames, 5 000.5 more frames of data after it, and no lock holder.
        let take = ChunkID.random()
        try library.catalog.beginTake(take, of: article.id, target: .insertBefore(try library.catalog.order(of: article.id).ids[1]), paragraph: nil, at: Date())
        let partial = library.root.partialURL(take, of: article.id)
        let samples = fixture.sourceSamples(frames: 15_000)
        let writer = try SoundFileWriter(creating: partial.path, format: .speech)
        try samples.withUnsafeBufferPointer { try writer.write(UnsafeBufferPointer(rebasing: $0[0..<10_000])) }
        try writer.checkpoint()
        try samples.withUnsafeBufferPointer { try writer.write(UnsafeBufferPointer(rebasing: $0[10_000...])) }
        let handle = try FileHandle(forWritingTo: partial)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0x7F]))  // a torn frame
        try handle.close()
        #expect(try SoundFileReader(path: partial.path).frames == 10_000)

        let reopened = try NarrationLibrary(root: library.root)
        #expect(reopened.notices == ["Recovered an interrupted take of \"Crash\" (\(article.id)) as chunk 2: 00:00:00.340."])
        let entries = try reopened.chunkEntries(of: article)
        #expect(entries.map(\.chunk.frames) == [8_820, 15_000, 13_230])
        #expect(entries.map(\.chunk.recovered) == [false, true, false])
        #expect(try fixture.samples(of: entries[1]) == samples)
        #expect(!FileManager.default.fileExists(atPath: partial.path))
        #expect(try reopened.catalog.pendingTakes().isEmpty)
        #expect(try NarrationLibrary(root: library.root).notices.isEmpty)
        writer.abandonForTest()
    }

    @Test("while a real-time take runs, its partial file is a valid WAV lagging capture by at most 250 ms")
    func partialFileStaysValid() throws {
        let fixture = try LibraryFixture()
        let article = try fixture.library.newArticle(title: "Live file", publication: "", narrator: "", format: .speech)
        let recording = try fixture.library.prepareRecording(
            into: article, placement: .append, device: "usbmic", duration: nil, definitions: fixture.devices.definitions)
        try recording.start()
        var worstLag = 0
        for _ in 0..<12 {
            usleep(110_000)
            let captured = recording.status.frames
            let onDisk = try SoundFileReader(path: recording.partialURL.path).frames
            #expect(onDisk <= captured)
            worstLag = max(worstLag, captured - onDisk)
        }
        recording.requestStop()
        #expect(recording.finish().chunk != nil)
        #expect(worstLag <= 11_025, "the header lagged capture by \(worstLag) frames")
        print("figure: partial file header lagged capture by at most \(worstLag) frames (\(worstLag * 1000 / 44_100) ms)")
    }

    @Test("an interrupted re-record goes after the take it was replacing, never over it")
    func recoverRerecord() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let article = try library.newArticle(title: "Redo", publication: "", narrator: "", format: .speech)
        try fixture.record(article, seconds: 0.1)
        try fixture.record(article, seconds: 0.2)
        let first = try library.catalog.order(of: article.id).ids[0]
        let take = ChunkID.random()
        try library.catalog.beginTake(take, of: article.id, target: .replace(first), paragraph: nil, at: Date())
        let writer = try SoundFileWriter(creating: library.root.partialURL(take, of: article.id).path, format: .speech)
        try fixture.sourceSamples(frames: 300).withUnsafeBufferPointer { try writer.write($0) }
        try writer.close()
        let reopened = try NarrationLibrary(root: library.root)
        #expect(reopened.notices.first?.contains("as chunk 2 (a re-record of the chunk before it, which was kept)") == true)
        #expect(try reopened.chunkEntries(of: article).map(\.chunk.frames) == [4_410, 300, 8_820])
    }

    @Test("a take whose recorder still holds the article is left alone")
    func liveTakeUntouched() throws {
        let fixture = try LibraryFixture()
        let article = try fixture.library.newArticle(title: "Live", publication: "", narrator: "", format: .speech)
        let recording = try fixture.library.prepareRecording(
            into: article, placement: .append, device: "vmic", duration: 0.1, definitions: fixture.devices.definitions)
        let other = try NarrationLibrary(root: fixture.library.root)
        #expect(other.notices.isEmpty)
        #expect(FileManager.default.fileExists(atPath: recording.partialURL.path))
        try recording.start()
        #expect(recording.finish().chunk?.frames == 4_410)
    }

    @Test("a damaged catalog is named, and no chunk file is touched")
    func corruptCatalog() throws {
        let fixture = try LibraryFixture()
        let article = try fixture.library.newArticle(title: "Damaged", publication: "", narrator: "", format: .speech)
        try fixture.record(article, seconds: 0.1)
        let chunkFile = try #require(try fixture.library.chunkEntries(of: article).first?.file)
        let before = try Data(contentsOf: chunkFile)
        let catalog = fixture.library.root.catalogURL
        try Data(repeating: 0x41, count: 8_192).write(to: catalog)
        #expect {
            try NarrationLibrary(root: fixture.library.root)
        } throws: { error in
            guard let error = error as? NarrationError else { return false }
            return error.kind == .catalogCorrupt && error.message.hasPrefix("The catalog \(catalog.path) is damaged")
                && error.message.contains("No recording was changed")
        }
        #expect(try Data(contentsOf: chunkFile) == before)
    }

    @Test("a missing chunk file is reported for that chunk only")
    func missingChunkFile() throws {
        let fixture = try LibraryFixture()
        let article = try fixture.library.newArticle(title: "Missing", publication: "", narrator: "", format: .speech)
        for seconds in [0.1, 0.2, 0.3] { try fixture.record(article, seconds: seconds) }
        let entries = try fixture.library.chunkEntries(of: article)
        try FileManager.default.removeItem(at: entries[1].file)
        let after = try fixture.library.chunkEntries(of: article)
        #expect(after.map(\.fileMissing) == [false, true, false])
        #expect(try fixture.samples(of: after[2]) == fixture.sourceSamples(frames: 13_230))
        try fixture.record(article, seconds: 0.1)
        #expect(try fixture.library.chunkEntries(of: article).count == 4)
    }

    @Test("a chunk file an interrupted delete left in the trash is put back")
    func interruptedDelete() throws {
        let fixture = try LibraryFixture()
        let article = try fixture.library.newArticle(title: "Trash", publication: "", narrator: "", format: .speech)
        try fixture.record(article, seconds: 0.1)
        let entry = try #require(try fixture.library.chunkEntries(of: article).first)
        try FileManager.default.moveItem(at: entry.file, to: fixture.library.root.trashedChunkURL(entry.chunk.id, of: article.id))
        let after = try #require(try fixture.library.chunkEntries(of: article).first)
        #expect(!after.fileMissing)
        #expect(try fixture.samples(of: after) == fixture.sourceSamples(frames: 4_410))
    }

    @Test("a data root that cannot be written is named with the way out", .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func readOnlyRoot() throws {
        let mount = try TemporaryMount(sizeKiB: 64, readOnly: true)
        #expect {
            try NarrationLibrary(root: DataRoot(url: mount.url.appendingPathComponent("narrate")))
        } throws: { error in
            (error as? NarrationError)?.kind == .dataRootNotWritable
                && (error as? NarrationError)?.message == "Cannot write to the data folder \(mount.url.path)/narrate (Read-only file system). Make it writable or set NARRATE_HOME to a folder you can write."
        }
    }

    @Test("a full disk stops the take, keeps every sample written, and says so", .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func diskFull() throws {
        let mount = try TemporaryMount(sizeKiB: 1_024)
        let fixture = try LibraryFixture(root: mount.url.appendingPathComponent("home"), sourceSeconds: 14)
        let article = try fixture.library.newArticle(title: "Full", publication: "", narrator: "", format: .speech)
        let outcome = try fixture.record(article, seconds: 13)
        guard case .diskFull(let error) = outcome.reason else {
            Issue.record("expected a full disk, got \(outcome.reason)")
            return
        }
        #expect(error.message.hasPrefix("The disk holding \(fixture.library.root.url.path)"))
        #expect(error.message.contains("is full (No space left on device)"))
        let entries = try fixture.library.chunkEntries(of: article)
        let chunk = try #require(entries.first?.chunk)
        // 1 MiB holds at most 11.9 s of 44.1 kHz mono 16-bit, less the catalog and the reserve.
        #expect(chunk.frames > 4 * 44_100 && chunk.frames < 12 * 44_100)
        #expect(chunk.frames == outcome.chunk?.frames)
        #expect(try fixture.samples(of: entries[0]) == fixture.sourceSamples(frames: chunk.frames))
        #expect(try fixture.library.catalog.pendingTakes().isEmpty)

        // Still full: the next take is refused before it starts, and the first is untouched.
        #expect {
            try fixture.record(article, seconds: 1)
        } throws: { error in
            (error as? NarrationError)?.kind == .diskFull && (error as? NarrationError)?.message.contains(" is full") == true
        }
        #expect(try fixture.library.chunkEntries(of: article).map(\.chunk.frames) == [chunk.frames])
    }

    @Test("a new article on a full disk is refused as a full disk, not a damaged catalog; the articles before it stay", .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func catalogOnAFullDisk() throws {
        // Room for a new catalog's tables and their first write-ahead log, then filled.
        let mount = try TemporaryMount(sizeKiB: 512)
        let path = mount.url.appendingPathComponent("catalog.sqlite").path
        let catalog = try Catalog(path: path)
        let first = Article(id: .random(), title: "Before", publication: "Post", narrator: "Ann", format: .speech, createdAt: Date())
        try catalog.add(first)
        // Fill what is left of the disk.
        let filler = mount.url.appendingPathComponent("filler")
        FileManager.default.createFile(atPath: filler.path, contents: nil)
        let handle = try FileHandle(forWritingTo: filler)
        while (try? handle.write(contentsOf: Data(count: 4096))) != nil {}
        try? handle.close()
        let long = String(repeating: "A long title that will not fit. ", count: 400)
        #expect {
            try catalog.add(Article(id: .random(), title: long, publication: "Post", narrator: "Ann", format: .speech, createdAt: Date()))
        } throws: { error in
            (error as? NarrationError)?.kind == .diskFull
                && (error as? NarrationError)?.message == "The disk holding the catalog \(path) is full. Free some space and try again."
        }
        #expect(try catalog.articles().map(\.title) == ["Before"])
    }
}

extension SoundFileWriter {
    /// Closes a writer whose file a test has already taken over, without asserting.
    func abandonForTest() { try? close() }
}
