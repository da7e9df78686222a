import Foundation
import Narration
import NarrationCore
import NarrationTestSupport
import Studio
import Testing
@testable import WebStudio

/// A take a page uploads, through an article's studio (`StudioHost`) in process: the pieces of
/// the account that began it make the chunk, sample for sample, whatever their order and repeats;
/// another account's page can neither send pieces of it, stop it nor resume it; a page that goes
/// away leaves the take set aside, and a new page of the same account finishes it.
@Suite("Takes uploaded through an article's studio")
struct TakeUploadHostTests {
    static let passphrase = "summer lantern over the weir"
    static let key = TakeUploadKey("00112233445566778899aabbccddeeff")!

    let folder = TemporaryFolder("narrate-upload-host")
    let library: NarrationLibrary
    let accounts: AccountService

    init() throws {
        library = try NarrationLibrary(root: DataRoot(url: folder.url.appendingPathComponent("home")))
        accounts = AccountService(store: library.accountStore, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
        for (name, role) in [("cora", Role.coordinator), ("ann", .volunteer)] {
            let invitation = try accounts.add(try AccountName(name), role: role, by: "test")
            try accounts.acceptInvitation(account: name, token: invitation.token, passphrase: Self.passphrase)
        }
    }

    private func host(_ article: Article) async throws -> StudioHost {
        let options = Studio.Options(
            captureDevice: "memory microphone", playbackDevice: "memory speaker", profile: .archive, destination: nil,
            retry: RetrySchedule(attempts: 1, first: 0, limit: 0), publication: "Daily Post", narrator: "Ann Reader", format: .speech,
            checksTakes: false)
        let host = StudioHost(library: library, options: options, article: article, settings: [], isArticleStudio: true)
        while host.article == nil { try await Task.sleep(for: .milliseconds(10)) }
        return host
    }

    /// A new article's studio with ann's page on it, her take `key` started and answered "receiving".
    private func annRecording(_ title: String) async throws -> (Article, StudioHost, Account, StudioHost.PageID, AsyncStream<String>) {
        let article = try library.newArticle(title: title, publication: "Daily Post", narrator: "Ann", format: .speech)
        let host = try await host(article)
        let ann = try accounts.account(try AccountName("ann"))
        let (page, messages) = host.connect(account: ann)
        var uploads = messages.makeAsyncIterator()
        host.receive(.uploading(.key(.character("r")), take: Self.key), from: page)
        #expect(await nextUpload(&uploads)?["state"] as? String == "receiving")
        return (article, host, ann, page, messages)
    }

    /// The next `upload` message a page receives, decoded.
    private func nextUpload(_ messages: inout AsyncStream<String>.Iterator) async -> [String: Any]? {
        while let message = await messages.next() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any] else { continue }
            if object["type"] as? String == "upload" { return object }
        }
        return nil
    }

    private func pcm(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).flatMap { _ -> [UInt8] in
            let value = Int16.random(in: -20_000...20_000, using: &generator)
            return [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        }
    }

    /// The chunk file's samples as bytes: a take's WAV is its fixed header, then the PCM.
    private func wavData(_ entry: NarrationLibrary.ChunkEntry) throws -> [UInt8] {
        let bytes = [UInt8](try Data(contentsOf: entry.file))
        #expect(bytes.count >= TakeHeader.size)
        return Array(bytes.dropFirst(TakeHeader.size))
    }

    private func chunks(_ article: Article, count: Int) async throws -> [NarrationLibrary.ChunkEntry] {
        for _ in 0..<500 {
            let entries = try library.chunkEntries(of: article)
            if entries.count >= count { return entries }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try library.chunkEntries(of: article)
    }

    @Test("another account's page is refused every piece, stop and resume of ann's take; ann's pieces, repeated and compressed, are the chunk")
    func anotherAccount() async throws {
        let article = try library.newArticle(title: "Budget vote", publication: "Daily Post", narrator: "Ann", format: .speech)
        let host = try await host(article)
        let ann = try accounts.account(try AccountName("ann"))
        let cora = try accounts.account(try AccountName("cora"))
        let (annPage, annMessages) = host.connect(account: ann)
        let (coraPage, coraMessages) = host.connect(account: cora)
        var annUploads = annMessages.makeAsyncIterator()
        var coraUploads = coraMessages.makeAsyncIterator()

        host.receive(.uploading(.key(.character("r")), take: Self.key), from: annPage)
        #expect(await nextUpload(&annUploads)?["state"] as? String == "receiving")
        let audio = pcm(8_000, seed: 21)
        let first = TakePiece(key: Self.key, firstFrame: 0, samples: Array(audio[0..<6_000]))
        host.receiveAudio(first.message, from: annPage)
        host.receiveAudio(first.message(compressed: true, channels: 1), from: annPage)  // the same piece again, compressed

        // cora's page: a piece, a stop and a resume of ann's take, each refused, nothing taken.
        host.receiveAudio(TakePiece(key: Self.key, firstFrame: 3_000, samples: pcm(500, seed: 99)).message, from: coraPage)
        let refusedPiece = await nextUpload(&coraUploads)
        #expect(refusedPiece?["state"] as? String == "refused")
        #expect(refusedPiece?["problem"] as? String == "That take is not one this page may send: reload the page.")
        host.receive(.stopTake(Self.key, frames: 3_000), from: coraPage)
        #expect(await nextUpload(&coraUploads)?["state"] as? String == "refused")
        host.receive(.resumeTake(Self.key, frames: nil), from: coraPage)
        #expect(await nextUpload(&coraUploads)?["state"] as? String == "refused")

        // ann goes on past a gap: told where to go on from, then sends it and stops.
        host.receiveAudio(TakePiece(key: Self.key, firstFrame: 5_000, samples: Array(audio[10_000...])).message, from: annPage)
        let gap = await nextUpload(&annUploads)
        #expect(gap?["state"] as? String == "receiving")
        #expect(gap?["received"] as? Int == 3_000)
        host.receiveAudio(TakePiece(key: Self.key, firstFrame: 3_000, samples: Array(audio[6_000...])).message(compressed: true, channels: 1), from: annPage)
        host.receive(.stopTake(Self.key, frames: 8_000), from: annPage)
        let entries = try await chunks(article, count: 1)
        #expect(entries.count == 1)
        #expect(try wavData(try #require(entries.first)) == audio)
        // Asked again, the take is done.
        host.receive(.resumeTake(Self.key, frames: 8_000), from: annPage)
        #expect(await nextUpload(&annUploads)?["state"] as? String == "done")
        host.disconnect(annPage)
        host.disconnect(coraPage)
        await host.shutDown()
    }

    @Test("a start that reaches the studio while a take records waits: it never stops the take under way")
    func startWhileRecording() async throws {
        let (article, host, _, page, messages) = try await annRecording("Two starts")
        var uploads = messages.makeAsyncIterator()
        let audio = pcm(4_000, seed: 7)
        host.receiveAudio(TakePiece(key: Self.key, firstFrame: 0, samples: Array(audio[0..<4_000])).message, from: page)
        let second = try #require(TakeUploadKey("ffeeddccbbaa99887766554433221100"))
        host.receive(.uploading(.key(.character("r")), take: second), from: page)
        let answer = await nextUpload(&uploads)
        #expect(answer?["take"] as? String == second.rawValue)
        #expect(answer?["state"] as? String == "waiting")
        host.receiveAudio(TakePiece(key: Self.key, firstFrame: 2_000, samples: Array(audio[4_000...])).message, from: page)
        host.receive(.stopTake(Self.key, frames: 4_000), from: page)
        let entries = try await chunks(article, count: 1)
        #expect(entries.count == 1)
        #expect(try wavData(try #require(entries.first)) == audio)
        #expect(try library.takeUpload(second) == nil)  // never begun
        host.disconnect(page)
        await host.shutDown()
    }

    @Test("ann's page goes away mid-take: the take is set aside, no chunk; her next page resumes it from the server's frames and finishes it")
    func pageGoesAway() async throws {
        let (article, host, ann, page, _) = try await annRecording("Harbour lights")
        let audio = pcm(10_000, seed: 5)
        host.receiveAudio(TakePiece(key: Self.key, firstFrame: 0, samples: Array(audio[0..<8_000])).message, from: page)
        host.disconnect(page)
        var record: TakeUploadRecord?
        for _ in 0..<500 where try record?.stage != .uploading || library.uploads(into: article.id).isEmpty {
            record = try library.takeUpload(Self.key)
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try library.chunkEntries(of: article).isEmpty)

        let (again, againMessages) = host.connect(account: ann)
        var againUploads = againMessages.makeAsyncIterator()
        host.receive(.resumeTake(Self.key, frames: 10_000), from: again)
        let resumed = await nextUpload(&againUploads)
        #expect(resumed?["state"] as? String == "receiving")
        let from = try #require(resumed?["received"] as? Int)
        #expect(from <= 4_000)
        host.receiveAudio(TakePiece(key: Self.key, firstFrame: 0, samples: audio).message(compressed: true, channels: 1), from: again)
        let entries = try await chunks(article, count: 1)
        #expect(try wavData(try #require(entries.first)) == audio)
        #expect(try #require(entries.first).chunk.recovered == false)
        host.disconnect(again)
        await host.shutDown()
    }

    @Test("ann's page goes away and will not come back: cora may not keep what arrived of ann's take; ann's other page keeps it, a recovered chunk of exactly the frames sent")
    func keepWhatArrived() async throws {
        let (article, host, ann, page, _) = try await annRecording("Ferry timetable")
        let audio = pcm(8_000, seed: 13)
        // 100 pieces, then the connection closes at once: each piece was the account's when it
        // came, and is taken, however far behind the run loop is when the page leaves.
        for first in stride(from: 0, to: 8_000, by: 80) {
            host.receiveAudio(TakePiece(key: Self.key, firstFrame: first, samples: Array(audio[(2 * first)..<(2 * first + 160)])).message, from: page)
        }
        host.disconnect(page)  // the take is set aside before any later message is performed: one inbox, in order
        let cora = try accounts.account(try AccountName("cora"))
        let (coraPage, coraMessages) = host.connect(account: cora)
        var coraUploads = coraMessages.makeAsyncIterator()
        host.receive(.keepTake(Self.key), from: coraPage)
        let refused = await nextUpload(&coraUploads)
        #expect(refused?["state"] as? String == "refused")
        #expect(refused?["problem"] as? String == "That take is not one this page may send: reload the page.")
        #expect(try library.chunkEntries(of: article).isEmpty)

        let (tablet, tabletMessages) = host.connect(account: ann)
        var tabletUploads = tabletMessages.makeAsyncIterator()
        // "waiting" while the take is still being let go of (a loaded machine): asked again.
        var answer: String?
        for _ in 0..<50 {
            host.receive(.keepTake(Self.key), from: tablet)
            answer = await nextUpload(&tabletUploads)?["state"] as? String
            if answer != "waiting" { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(answer == "done")
        let entries = try await chunks(article, count: 1)
        let chunk = try #require(entries.first)
        #expect(chunk.chunk.recovered)
        #expect(try wavData(chunk) == audio)
        #expect(try library.uploads(into: article.id).isEmpty)
        // Kept once: asked again, the take is done, and still one chunk.
        host.receive(.keepTake(Self.key), from: tablet)
        #expect(await nextUpload(&tabletUploads)?["state"] as? String == "done")
        #expect(try library.chunkEntries(of: article).count == 1)
        host.disconnect(coraPage)
        host.disconnect(tablet)
        await host.shutDown()
    }
}
