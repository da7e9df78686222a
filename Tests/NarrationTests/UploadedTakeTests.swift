import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@testable import Narration

/// Takes a page uploads in numbered pieces (`TakeUploads`): each frame is taken once whatever
/// order and repeats the pieces come in; a take set aside when its page or the server goes is
/// left alone by recovery and resumed from its partial file, to a chunk equal to what the page
/// captured; another account's or article's take is refused.
@Suite("Takes uploaded in pieces")
struct UploadedTakeTests {
    private static let key = TakeUploadKey("0123456789abcdef0123456789abcdef")!

    /// A started take uploaded under `tag` into a new article.
    private func uploadedTake(_ library: NarrationLibrary, title: String, tag: TakeUploadTag) throws -> (Article, StreamedCapture, Recording) {
        let article = try library.newArticle(title: title, publication: "", narrator: "", format: .speech)
        let stream = StreamedCapture(name: "the browser's microphone", format: .speech)
        let take = try library.prepareRecording(into: article, placement: .append, input: .streamed(stream), duration: nil, upload: tag)
        try take.start()
        return (article, stream, take)
    }

    @Test("a page that stored less than it sent (reloaded before its last piece was stored) ends the take at what the server holds")
    func endBelowReceived() {
        let stream = StreamedCapture(name: "the browser's microphone", format: .speech)
        _ = stream.receive(Signals.littleEndian(Signals.noise(900, seed: 4)), at: 0)
        #expect(stream.end(atFrame: 800))
        #expect(stream.endFrame == 900)
        #expect(stream.receive(Signals.littleEndian(Signals.noise(100, seed: 4)), at: 800) == .duplicate(received: 900))
    }

    @Test("pieces repeated, overlapping and past a gap: each frame is taken once, and the take ends at the length the page gave")
    func receipts() throws {
        let stream = StreamedCapture(name: "the browser's microphone", format: .speech)
        let samples = Signals.littleEndian(Signals.noise(1_000, seed: 3))
        #expect(stream.receive(Array(samples[0..<400]), at: 0) == .taken(received: 200))
        #expect(stream.receive(Array(samples[0..<400]), at: 0) == .duplicate(received: 200))
        #expect(stream.receive(Array(samples[600..<800]), at: 300) == .gap(expected: 200))
        #expect(stream.receive(Array(samples[200..<800]), at: 100) == .taken(received: 400))  // overlaps: its tail only
        #expect(stream.end(atFrame: 500) == true)
        #expect(stream.end(atFrame: 600) == false)  // another length
        #expect(stream.end(atFrame: 300) == false)  // shorter than what came, and another length
        #expect(stream.hasEnded == false)
        #expect(stream.receive(Array(samples[800..<1_200]), at: 400) == .pastTheEnd(received: 400))
        #expect(stream.receive(Array(samples[800..<1_000]), at: 400) == .taken(received: 500))
        #expect(stream.endFrame == 500)
        var read = [Int32](repeating: 0, count: 600)
        var frames = 0
        while frames < 500 {
            let got = try read.withUnsafeMutableBufferPointer { buffer in
                try stream.read(into: UnsafeMutableBufferPointer(rebasing: buffer[frames...]), frames: 600 - frames)
            }
            frames += got
            if got == 0 { break }
        }
        #expect(frames == 500)
        #expect(stream.hasEnded)
        let expected = Signals.samples(Array(samples[0..<1_000]), bitsPerSample: 16)
        #expect(Array(read[0..<500]) == expected)
    }

    @Test("a take set aside, then resumed after the library is opened again (the server restarted), is one chunk equal to every piece sent")
    func resumedAfterRestart() throws {
        let fixture = try LibraryFixture()
        let tag = TakeUploadTag(key: Self.key, account: "vol")
        let (article, stream, take) = try uploadedTake(fixture.library, title: "Resumed", tag: tag)
        let samples = Signals.noise(44_100, seed: 11)
        let sent = Signals.littleEndian(samples)
        _ = stream.receive(Array(sent[0..<30_000]), at: 0)  // 15,000 frames, then the page goes
        let kept = take.setAside()
        #expect(kept == 15_000)
        #expect(try fixture.library.chunkEntries(of: article).isEmpty)
        // The server restarts: recovery, which runs as the library opens, leaves the take alone.
        let reopened = try NarrationLibrary(root: fixture.library.root)
        #expect(reopened.notices.isEmpty)
        let record = try #require(try reopened.takeUpload(Self.key))
        #expect(record.stage == .uploading)
        #expect(record.account == "vol")
        #expect(reopened.uploadedFrames(record, format: .speech) == 15_000)
        #expect(try reopened.uploads(into: article.id).map(\.key) == [Self.key])
        // The page comes back: it sends on from where the server's disk ends, and the end.
        let (resumed, again) = try reopened.resumeUploadedTake(tag, into: article)
        #expect(resumed.resumedFrom == 15_000)
        try resumed.start()
        #expect(again.receive(Array(sent[20_000..<40_000]), at: 10_000) == .taken(received: 20_000))  // a repeat, then new frames
        #expect(again.end(atFrame: 44_100))
        #expect(again.receive(Array(sent[40_000...]), at: 20_000) == .taken(received: 44_100))
        let outcome = resumed.finish()
        #expect(outcome.chunk?.frames == 44_100)
        #expect(outcome.deferredBecause == nil)
        let entry = try #require(try reopened.chunkEntries(of: article).first)
        #expect(try fixture.samples(of: entry) == samples.map { Int32($0) << 16 })
        #expect(try reopened.takeUpload(Self.key)?.stage == .committed)
        #expect(try reopened.uploads(into: article.id).isEmpty)
    }

    @Test("recovery keeps an uploaded take whose page has not come back for a week, and keeps one at once when asked")
    func patience() throws {
        let fixture = try LibraryFixture()
        let (article, stream, take) = try uploadedTake(fixture.library, title: "Patience", tag: TakeUploadTag(key: Self.key, account: nil))
        _ = stream.receive(Signals.littleEndian(Signals.noise(8_000, seed: 5)), at: 0)
        #expect(take.setAside() == 8_000)
        let root = fixture.library.root
        let catalog = try Catalog(path: root.catalogURL.path)
        #expect(TakeRecovery.run(root: root, catalog: catalog, now: Date().addingTimeInterval(6 * 24 * 3600)).isEmpty)
        #expect(try fixture.library.chunkEntries(of: article).isEmpty)
        let notices = TakeRecovery.run(root: root, catalog: catalog, now: Date().addingTimeInterval(8 * 24 * 3600))
        #expect(notices.count == 1)
        #expect(notices.first?.hasPrefix("Recovered an interrupted take of \"Patience\"") == true)
        #expect(try fixture.library.chunkEntries(of: article).map(\.chunk.frames) == [8_000])
        #expect(try fixture.library.takeUpload(Self.key)?.stage == .committed)

        // Kept when asked: another take, at once.
        let other = TakeUploadKey("fedcba9876543210fedcba9876543210")!
        let second = StreamedCapture(name: "the browser's microphone", format: .speech)
        let secondTake = try fixture.library.prepareRecording(
            into: article, placement: .append, input: .streamed(second), duration: nil, upload: TakeUploadTag(key: other, account: nil))
        try secondTake.start()
        _ = second.receive(Signals.littleEndian(Signals.noise(2_000, seed: 6)), at: 0)
        #expect(secondTake.setAside() == 2_000)
        let sentence = try #require(try fixture.library.keepWhatArrived(other))
        #expect(sentence.contains("as chunk 2"))
        #expect(try fixture.library.chunkEntries(of: article).map(\.chunk.frames) == [8_000, 2_000])
        #expect(try fixture.library.keepWhatArrived(other) == nil)  // nothing left to keep
    }

    @Test("a resume by another account, into another article or of a take on the server already is refused, and a key is never used twice", arguments: CatalogEngines.Kind.allCases)
    func refusals(_ catalog: CatalogEngines.Kind) throws {
        let fixture = try LibraryFixture(catalog: catalog)
        let tag = TakeUploadTag(key: Self.key, account: "vol")
        let (article, stream, take) = try uploadedTake(fixture.library, title: "Mine", tag: tag)
        _ = stream.receive(Signals.littleEndian(Signals.noise(4_000, seed: 8)), at: 0)
        #expect(take.setAside() == 4_000)
        let partial = fixture.library.root.partialURL(try #require(try fixture.library.takeUpload(Self.key)).chunk, of: article.id)
        let before = try Data(contentsOf: partial)
        let elsewhere = try fixture.library.newArticle(title: "Other", publication: "", narrator: "", format: .speech)
        let make = { (frames: FrameCount) in StreamedCapture(name: "the browser's microphone", format: .speech, startFrame: frames) }
        let notOurs = NarrationError.usage("That take is not one of this article's: reload the page.")
        #expect(throws: notOurs) { try fixture.library.resumeUpload(TakeUploadTag(key: Self.key, account: "someone"), into: article, stream: make) }
        #expect(throws: notOurs) { try fixture.library.resumeUpload(tag, into: elsewhere, stream: make) }
        #expect(throws: notOurs) { try fixture.library.resumeUpload(TakeUploadTag(key: TakeUploadKey(String(repeating: "a", count: 32))!, account: "vol"), into: article, stream: make) }
        #expect(throws: NarrationError.usage("The page named its new take with a key another take has: reload the page.")) {
            try fixture.library.prepareRecording(into: elsewhere, placement: .append, input: .streamed(make(0)), duration: nil, upload: tag)
        }
        #expect(try Data(contentsOf: partial) == before)
        #expect(try fixture.library.chunkEntries(of: elsewhere).isEmpty)
        // Resumed and finished: a further resume hears that it is on the server.
        let resumed = try fixture.library.resumeUpload(tag, into: article, stream: make)
        try resumed.start()
        resumed.requestStop()
        #expect(resumed.finish().chunk?.frames == 4_000)
        #expect(throws: NarrationError.usage("That take is on the server already.")) { try fixture.library.resumeUpload(tag, into: article, stream: make) }
    }

    @Test("a symbolic link planted where a set-aside take's file was is not followed: the resume is refused and its target untouched")
    func plantedLink() throws {
        let fixture = try LibraryFixture()
        let tag = TakeUploadTag(key: Self.key, account: nil)
        let (article, stream, take) = try uploadedTake(fixture.library, title: "Planted", tag: tag)
        _ = stream.receive(Signals.littleEndian(Signals.noise(1_000, seed: 9)), at: 0)
        _ = take.setAside()
        let partial = fixture.library.root.partialURL(try #require(try fixture.library.takeUpload(Self.key)).chunk, of: article.id)
        let target = fixture.folder.url.appendingPathComponent("precious.txt")
        try Data("not audio".utf8).write(to: target)
        try FileManager.default.removeItem(at: partial)
        try FileManager.default.createSymbolicLink(at: partial, withDestinationURL: target)
        #expect(throws: NarrationError.self) {
            try fixture.library.resumeUpload(tag, into: article) { StreamedCapture(name: "the browser's microphone", format: .speech, startFrame: $0) }
        }
        #expect(try Data(contentsOf: target) == Data("not audio".utf8))
    }
}
