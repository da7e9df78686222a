import Foundation
import Glibc
import GRDB
@testable import Narration
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import SQLEngines
import Testing

@Suite("Queue and submit to a folder")
struct OutboxTests {
    static let awkwardTitle = "Mayor's \"budget\"/plan:\u{07} " + String(repeating: "long ", count: 60)

    private func queuedArticle(_ fixture: LibraryFixture, title: String = "Budget vote") throws -> (Article, OutboxJob, Sidecar) {
        let article = try fixture.library.newArticle(title: title, publication: "Daily/Post", narrator: "Ann", format: .speech)
        for seconds in [0.4, 0.6] { try fixture.record(article, seconds: seconds) }
        let (job, sidecar) = try fixture.library.queue(article, profile: .archive)
        return (article, job, sidecar)
    }

    @Test("queue exports into the outbox with a sidecar, marks the article queued and clears the current one", arguments: CatalogEngines.Kind.allCases)
    func queue(_ catalog: CatalogEngines.Kind) throws {
        let fixture = try LibraryFixture(catalog: catalog)
        let (article, job, sidecar) = try queuedArticle(fixture)
        #expect(job.file.path == fixture.library.outboxURL.appendingPathComponent("\(job.id)/Budget vote-\(article.id).flac").path)
        #expect(try SoundFileReader(path: job.file.path).readAll() == fixture.sourceSamples(frames: 17_640) + fixture.sourceSamples(frames: 26_460))
        let onDisk = try JSONDecoder.narrate.decode(Sidecar.self, from: Data(contentsOf: job.sidecarFile))
        #expect(onDisk == sidecar)
        #expect(sidecar.sha256 == (try Signals.run("sha256sum", [job.file.path]).split(separator: " ").first.map(String.init)))
        #expect(sidecar.chunks == [.init(index: 1, start: 0, duration: 0.4), .init(index: 2, start: 0.4, duration: 0.6)])
        #expect(sidecar.duration == 1.0 && sidecar.recordingSeconds == 1.0 && sidecar.profile == "archive")
        #expect(try fixture.library.catalog.currentArticle() == nil)
        #expect(try fixture.library.article(article.id.rawValue).state == .queued)
        #expect(try fixture.library.chunkEntries(of: article).count == 2)  // chunks are kept
    }

    @Test("submit copies both files under publication and date, verified, and records the delivery", arguments: CatalogEngines.Kind.allCases)
    func deliver(_ catalog: CatalogEngines.Kind) async throws {
        let fixture = try LibraryFixture(catalog: catalog)
        let (article, job, sidecar) = try queuedArticle(fixture)
        let share = fixture.folder.file("share")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        let delivered = try await fixture.library.deliver(job, toFolder: share)
        let target = share.appendingPathComponent("Daily-Post/\(sidecar.date)/Budget vote-\(article.id).flac")
        #expect(delivered.remotePath == target.path)
        #expect(try Data(contentsOf: target) == Data(contentsOf: job.file))
        #expect(FileManager.default.fileExists(atPath: target.deletingPathExtension().appendingPathExtension("json").path))
        #expect(delivered.state == .delivered && delivered.attempts == 1)
        #expect(try fixture.library.outboxJobs().first?.state == .delivered)
        #expect(try fixture.library.article(article.id.rawValue).state == .delivered)
        // A second delivery of the same export finds it there: nothing is copied again, never a duplicate.
        let inode = try FileManager.default.attributesOfItem(atPath: target.path)[.systemFileNumber] as? UInt64
        let again = try await fixture.library.deliver(job, toFolder: share)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: share.path).filter { $0.hasSuffix(".flac") }.count == 1)
        #expect(try FileManager.default.attributesOfItem(atPath: target.path)[.systemFileNumber] as? UInt64 == inode)
        #expect(again.state == .delivered && again.attempts == 2)
    }

    @Test("a file changed in the outbox is refused, and the job stays queued with its error", arguments: CatalogEngines.Kind.allCases)
    func changedFile(_ catalog: CatalogEngines.Kind) async throws {
        let fixture = try LibraryFixture(catalog: catalog)
        let (_, job, _) = try queuedArticle(fixture)
        let handle = try FileHandle(forWritingTo: job.file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([1, 2, 3]))
        try handle.close()
        let share = fixture.folder.file("share")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        await #expect(throws: NarrationError(
            .fileCorrupt,
            "\(job.file.path) changed since it was queued (its SHA-256 no longer matches), so it was not delivered. Queue the article again.")) {
            try await fixture.library.deliver(job, toFolder: share)
        }
        let stored = try #require(try fixture.library.outboxJobs().first)
        #expect(stored.state == .queued && stored.attempts == 1 && stored.lastError?.contains("changed since it was queued") == true)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: share.path).filter { $0.hasSuffix(".flac") }.isEmpty)
    }

    @Test("a read-only destination fails the delivery, which push then completes elsewhere", .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func failedThenPushed() async throws {
        let fixture = try LibraryFixture()
        let (_, job, _) = try queuedArticle(fixture)
        let readOnly = try TemporaryMount(sizeKiB: 64, readOnly: true)
        await #expect { try await fixture.library.deliver(job, toFolder: readOnly.url) } throws: { ($0 as? NarrationError)?.kind == .fileSystem }
        let failed = try #require(try fixture.library.outboxJobs().first)
        #expect(failed.state == .queued && failed.attempts == 1 && failed.destination == readOnly.url.path && failed.lastError != nil)
        let share = fixture.folder.file("share")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        let delivered = try await fixture.library.deliver(failed, toFolder: share)
        #expect(delivered.state == .delivered && delivered.attempts == 2)
    }

    @Test("awkward titles keep their text in the tags; file names are made safe", arguments: CatalogEngines.Kind.allCases)
    func awkwardTitle(_ catalog: CatalogEngines.Kind) throws {
        let fixture = try LibraryFixture(catalog: catalog)
        let (article, job, sidecar) = try queuedArticle(fixture, title: Self.awkwardTitle)
        let name = job.file.lastPathComponent
        #expect(!name.contains("/") && !name.contains("\"") && !name.contains("'") && !name.contains("\u{07}"))
        #expect(name.utf8.count <= 100 + 14)
        #expect(name.hasSuffix("-\(article.id).flac"))
        #expect(sidecar.title == article.title)
        let probe = try Signals.run("ffprobe", ["-v", "error", "-show_entries", "format_tags=title", "-of", "default=nw=1:nk=1", job.file.path])
        #expect(probe.trimmingCharacters(in: .newlines) == article.title)
    }
}

@Suite("A catalog made by an older narrate")
struct OutboxMigrationTests {
    @Test("its queued exports are withdrawn and their articles reopened; delivered ones stay delivered; chunks are untouched")
    func olderOutbox() throws {
        let folder = TemporaryFolder("narrate-migration")
        let path = folder.file("catalog.sqlite").path
        try CatalogSchema.migrator.migrate(SQLiteEngine(path: path), upTo: "v3-object-storage")
        let old = try DatabaseQueue(path: path)
        try old.write { db in
            for (id, state) in [("aaaaaaaa", "queued"), ("bbbbbbbb", "submitted")] {
                try db.execute(
                    sql: "INSERT INTO article VALUES (?, ?, 'Post', 'Ann', 44100, 1, 16, ?, ?)", arguments: [id, "Article \(id)", Date(), state])
                try db.execute(
                    sql: "INSERT INTO chunk VALUES (?, ?, 0, 4410, -6, -20, 0, 0, ?)", arguments: ["c" + id, id, Date()])
                try db.execute(
                    sql: """
                        INSERT INTO outbox (id, articleId, file, sidecar, sha256, bytes, profile, queuedAt, state, attempts)
                        VALUES (?, ?, '/x/outbox/A.flac', '/x/outbox/A.json', 'ff', 10, 'archive', ?, ?, 0)
                        """,
                    arguments: ["j" + id, id, Date(), state == "queued" ? "queued" : "delivered"])
            }
        }
        try old.close()

        let catalog = try Catalog(path: path)
        let states = Dictionary(uniqueKeysWithValues: try catalog.articles().map { ($0.id.rawValue, $0.state) })
        #expect(states == ["aaaaaaaa": .open, "bbbbbbbb": .delivered])
        let jobs = try catalog.outbox()
        #expect(jobs.count == 2 && jobs.allSatisfy { $0.state == "retired" && $0.retiredReason == "older" })
        #expect(try catalog.articles().map { try catalog.chunks(of: $0).count } == [1, 1])
    }
}

@Suite("A job found stale when it is about to be sent")
struct StaleJobTests {
    @Test("is withdrawn, sends nothing, and its files leave the outbox at once", arguments: CatalogEngines.Kind.allCases)
    func staleJob(_ catalog: CatalogEngines.Kind) async throws {
        let fixture = try LibraryFixture(catalog: catalog)
        let article = try fixture.library.newArticle(title: "Stale", publication: "Post", narrator: "Ann", format: .speech)
        try fixture.record(article, seconds: 0.3)
        let job = try fixture.library.queue(article, profile: .archive).job
        // The chunks change behind the outbox's back (no edit withdrew the job): only the fingerprint can tell.
        try fixture.library.catalog.writing { sql in try sql.execute("UPDATE chunk SET frames = frames - 1") }
        let share = fixture.folder.file("share")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        await #expect { try await fixture.library.deliver(job, toFolder: share) } throws: { ($0 as? NarrationError)?.kind == .exportWithdrawn }
        #expect(try fixture.library.outboxJobs().first?.retiredReason == .edited)
        #expect(!FileManager.default.fileExists(atPath: job.file.deletingLastPathComponent().path))
        #expect(try FileManager.default.subpathsOfDirectory(atPath: share.path).isEmpty)
    }
}
