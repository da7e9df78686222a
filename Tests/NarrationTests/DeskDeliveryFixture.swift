import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport

@testable import Narration

/// A library whose desk has an article ann recorded, and a destination folder, for the tests of
/// an article's delivery as a job (`ApprovedDeliveryTests`, `SentDeliveryTests`). With review on
/// the article is sent for review; with review off it stays Recording for ann to send.
struct DeskDeliveryFixture {
    let fixture: LibraryFixture
    let desk: DeskService
    let accounts: AccountService
    let article: ArticleID
    let destination: URL
    var library: NarrationLibrary { fixture.library }

    init(_ kind: CatalogEngines.Kind, reviewIsOn: Bool = true) throws {
        fixture = try LibraryFixture(catalog: kind, sourceSeconds: 3)
        let library = fixture.library
        desk = DeskService(store: library.deskStore, reviewIsOn: reviewIsOn)
        accounts = AccountService(store: library.accountStore, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
        for name in ["ann", "bob"] { _ = try accounts.add(try AccountName(name), role: .volunteer, by: "test") }
        let entry = try desk.add(.init(title: "Harbour", publication: "Gazette"), by: .service) { (new) throws(NarrationError) in
            try library.makeDeskArticle(new, text: nil)
        }
        try desk.assign(entry.article, to: try accounts.account(try AccountName("ann")), by: .service)
        _ = try fixture.record(try library.article(entry.article.rawValue), seconds: 1.5)
        try desk.recordedTake(entry.article, by: .service)
        if reviewIsOn { try desk.send(entry.article, by: .service) }
        article = entry.article
        destination = fixture.folder.url.appendingPathComponent("delivered")
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
    }

    var sending: DeskDelivery.Sending {
        DeskDelivery.Sending(
            destination: .folder(destination.path), profile: nil, fallback: .archive, language: "en", retry: RetrySchedule(attempts: 1, first: 0, limit: 0))
    }

    func account(_ name: String) throws -> Account { try accounts.account(try AccountName(name)) }

    /// The files at the destination, by their paths below it.
    func delivered() -> [String] {
        var files: [String] = []
        let enumerator = FileManager.default.enumerator(at: destination, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                files.append(String(url.path.dropFirst(destination.path.count + 1)))
            }
        }
        return files.sorted()
    }

    /// The samples of the audio file delivered, which must be the only one.
    func deliveredSamples() throws -> [Int32] {
        let audio = delivered().filter { $0.hasSuffix(".flac") }
        guard audio.count == 1 else { throw FixtureError("not one audio file at the destination: \(audio)") }
        return try SoundFileReader(path: destination.appendingPathComponent(audio[0]).path).readAll()
    }

    /// The audit log's entries whose detail says `change` of the article ("publish approved → published").
    func audited(_ change: String) throws -> [AuditEntry] {
        try library.deskStore.auditLog(account: nil, since: nil).filter { $0.detail.contains("article \(article): \(change)") }
    }

    /// The article's chunks' samples, one after the other.
    func chunkSamples() throws -> [Int32] {
        try library.chunkEntries(of: try library.article(article.rawValue)).flatMap { try SoundFileReader(path: $0.file.path).readAll() }
    }

    /// Another host of the service on the same catalog: on PostgreSQL a second library with its
    /// own data folder, as a second machine would be, which finds the chunks in `recordings`
    /// (copied there now); on SQLite this library.
    func anotherHost(_ kind: CatalogEngines.Kind, recordings: RecordingStore) async throws -> NarrationLibrary {
        guard kind == .postgreSQL else { return library }
        guard try await library.copyChunks(to: recordings).copied.count == 1 else { throw FixtureError("the chunk was not copied to the store") }
        return try NarrationLibrary(
            root: DataRoot(url: fixture.folder.url.appendingPathComponent("second-host")),
            catalog: Catalog(engine: try CatalogEngines.another(library.catalog.engine), name: "the second host"), host: "second-host 2 bbbb")
    }

    static func now() -> Double { Date().timeIntervalSince1970 }

    /// Waits up to `seconds` for `done` to hold, sleeping as a task (a runner needs the threads).
    static func wait(_ seconds: Double, _ done: () throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try done() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try done()
    }
}
