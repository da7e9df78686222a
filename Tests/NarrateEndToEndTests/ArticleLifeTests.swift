import Foundation
import Glibc
import NarrationAudio
import NarrationTestSupport
import Testing

/// One article, one truth: what a destination receives is the article as it was recorded.
/// Each test runs the binary through a case that once delivered the wrong audio, marked it
/// delivered, or left a job that nothing could finish.
@Suite("An article's one current export, delivered as recorded", .serialized)
struct ArticleLifeTests {
    /// A library with a lossless `wav` profile in config.toml, and a share folder.
    private struct Library {
        let fixture: EndToEndFixture
        let narrate: Narrate
        let share: URL

        init(credentials: Bool = false) throws {
            fixture = try EndToEndFixture()
            narrate = try fixture.narrateWithWAVProfile(credentials: credentials)
            share = fixture.folder.file("share")
            try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        }

        @discardableResult
        func run(_ arguments: String...) throws -> Narrate.Result { try narrate.run(arguments) }

        @discardableResult
        func run(_ arguments: [String]) throws -> Narrate.Result { try narrate.run(arguments) }

        /// `narrate new TITLE --json`'s id.
        func newArticle(_ title: String) throws -> String {
            let created = try run("new", title, "--json")
            try #require(created.status == 0, "\(created.stderr)")
            let object = try #require(try created.json() as? [String: Any])
            return try #require(object["id"] as? String)
        }

        func record(_ seconds: Double, _ extra: String...) throws {
            let result = try narrate.run(["record", "--device", "vmic", "--duration", "\(seconds)"] + extra)
            try #require(result.status == 0, "\(result.stderr)")
        }

        /// The samples of the article's chunks, in order, read from their files.
        func chunkSamples(_ article: String) throws -> [Int32] {
            let listing = try run("chunks", "--article", article, "--json")
            let chunks = try #require(try listing.json() as? [[String: Any]], "\(listing.stderr)")
            return try chunks.flatMap { try SoundFileReader(path: try #require($0["file"] as? String)).readAll() }
        }

        func jobs(all: Bool = false) throws -> [[String: Any]] {
            let listing = try narrate.run(["outbox", "list", "--json"] + (all ? ["--all"] : []))
            try #require(listing.status == 0, "\(listing.stderr)")
            return try #require(try listing.json() as? [[String: Any]])
        }

        func state(_ article: String) throws -> String? {
            let list = try #require(try run("list", "--json").json() as? [[String: Any]])
            return list.first { $0["id"] as? String == article }?["state"] as? String
        }

        /// Every file under the share, relative to it.
        func shareFiles() throws -> [String] {
            try FileManager.default.subpathsOfDirectory(atPath: share.path).filter {
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: share.appendingPathComponent($0).path, isDirectory: &isDirectory) && !isDirectory.boolValue
            }.sorted()
        }

        /// The one audio file the share holds for `article`.
        func deliveredAudio(_ article: String) throws -> URL {
            let audio = try shareFiles().filter { $0.contains(article) && !$0.hasSuffix(".json") }
            try #require(audio.count == 1, "one audio file for the article, not \(audio)")
            return share.appendingPathComponent(audio[0])
        }
    }

    enum Edit: String, CaseIterable, CustomTestStringConvertible {
        case record, deleteChunk, replace, insert
        var testDescription: String { rawValue }
    }

    @Test("an edit after queue withdraws the export in one line; submit then delivers exactly the current chunks", arguments: Edit.allCases)
    func editAfterQueue(edit: Edit) throws {
        let library = try Library()
        let article = try library.newArticle("Late fix")
        try library.record(0.4)
        try library.record(0.6)
        #expect(try library.run("queue", "--profile", "wav").status == 0)
        #expect(try library.state(article) == "queued")
        #expect(try library.run("chunks", "--article", article).stdout.hasPrefix("\"Late fix\" (\(article)), 44100 Hz, mono, 16-bit, queued\n"))
        let queuedJob = try #require(try library.jobs().first?["id"] as? String)

        let result: Narrate.Result
        switch edit {
        case .record: result = try library.run("record", "--article", article, "--device", "vmic", "--duration", "0.3")
        case .deleteChunk: result = try library.run("delete-chunk", "1", "--article", article)
        case .replace: result = try library.run("record", "--article", article, "--device", "vmic", "--duration", "0.2", "--replace", "2")
        case .insert: result = try library.run("record", "--article", article, "--device", "vmic", "--duration", "0.5", "--insert", "1")
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasSuffix(
            "The queued export of \"Late fix\" was withdrawn, so the old version will not be sent; queue or submit the article again when it is ready.\n"))
        #expect(try library.state(article) == "open")
        #expect(try library.jobs().isEmpty)
        let withdrawn = try #require(try library.jobs(all: true).first)
        #expect(withdrawn["id"] as? String == queuedJob && withdrawn["state"] as? String == "retired" && withdrawn["retiredReason"] as? String == "edited")
        #expect(!FileManager.default.fileExists(atPath: try #require(withdrawn["file"] as? String)), "the withdrawn export left the outbox")

        let submit = try library.run("submit", "--article", article, "--to", library.share.path)
        #expect(submit.status == 0, "\(submit.stderr)")
        #expect(try SoundFileReader(path: try library.deliveredAudio(article).path).readAll() == library.chunkSamples(article))
        #expect(try library.state(article) == "delivered")
        #expect(try library.shareFiles().count == 2)
        let listed = try #require(try library.run("list", "--json").json() as? [[String: Any]])
        let deliveries = try #require(listed.first?["deliveries"] as? [[String: Any]])
        #expect(deliveries.count == 1 && deliveries.first?["destination"] as? String == library.share.path)
        #expect(deliveries.first?["location"] as? String == (try library.deliveredAudio(article).path) && deliveries.first?["current"] as? Bool == true)
        // A change after delivery: the delivered file is now an older version, and the article is open.
        try library.record(0.1, "--article", article)
        let after = try #require(try library.run("list", "--json").json() as? [[String: Any]])
        #expect((after.first?["deliveries"] as? [[String: Any]])?.first?["current"] as? Bool == false && after.first?["state"] as? String == "open")
    }

    @Test("queued twice in two formats: one current job; the destination holds one file and one sidecar per article; push leaves nothing stuck")
    func queuedTwice() throws {
        let library = try Library()
        let article = try library.newArticle("Twice")
        try library.record(0.5)
        #expect(try library.run("queue", "--profile", "archive").status == 0)
        let first = try #require(try library.jobs().first)
        let firstFolder = URL(fileURLWithPath: try #require(first["file"] as? String)).deletingLastPathComponent()
        #expect(try library.run("queue", "--article", article, "--profile", "wav").status == 0)
        let jobs = try library.jobs()
        #expect(jobs.count == 1 && jobs.first?["profile"] as? String == "wav")
        #expect(!FileManager.default.fileExists(atPath: firstFolder.path), "the earlier export's folder left the outbox")
        #expect(try library.jobs(all: true).first { $0["id"] as? String == first["id"] as? String }?["retiredReason"] as? String == "requeued")

        // No job is left that every push fails on.
        let push = try library.run("outbox", "push", "--to", library.share.path)
        #expect(push.status == 0 && push.stdout.hasSuffix("Delivered 1 file; 0 still waiting.\n"), "\(push.stderr)")
        #expect(try library.shareFiles().filter { $0.contains(article) }.map { URL(fileURLWithPath: $0).pathExtension } == ["json", "wav"])
        #expect(try library.run("outbox", "push").stdout == "Delivered 0 files; 0 still waiting.\n")

        // Submitting in another format replaces the article's file at the destination: still one of each.
        let archive = try library.run("submit", "--article", article, "--profile", "archive", "--to", library.share.path)
        #expect(archive.status == 0, "\(archive.stderr)")
        let files = try library.shareFiles()
        try #require(files.map { URL(fileURLWithPath: $0).pathExtension } == ["flac", "json"], "\(files)")
        let sidecar = try JSONSerialization.jsonObject(with: Data(contentsOf: library.share.appendingPathComponent(files[1]))) as? [String: Any]
        #expect(sidecar?["format"] as? String == "flac")
        #expect(try SoundFileReader(path: try library.deliveredAudio(article).path).readAll() == library.chunkSamples(article))
    }

    @Test("submit --profile librivox on an article queued as archive exports it again as MP3 and delivers that")
    func submitWithAnotherProfile() throws {
        let library = try Library()
        let article = try library.newArticle("Profile change")
        try library.record(0.5)
        #expect(try library.run("queue", "--profile", "archive").status == 0)
        let submit = try library.run("submit", "--article", article, "--profile", "librivox", "--to", library.share.path, "--json")
        #expect(submit.status == 0, "\(submit.stderr)")
        let job = try #require(try submit.json() as? [String: Any])
        #expect(job["profile"] as? String == "librivox" && (job["file"] as? String)?.hasSuffix(".mp3") == true)
        #expect(try library.deliveredAudio(article).pathExtension == "mp3")
        #expect(try library.jobs().count == 1)
        // Without --profile, submit sends the current export as it is: no new export.
        let again = try library.run("submit", "--article", article, "--to", library.share.path, "--json")
        #expect(try #require(try again.json() as? [String: Any])["id"] as? String == job["id"] as? String)
    }

    @Test("a sidecar edited to point outside the destination changes nothing outside it")
    func tamperedSidecar() throws {
        let library = try Library()
        let article = try library.newArticle("Tampered")
        try library.record(0.3)
        #expect(try library.run("queue").status == 0)
        let sidecar = URL(fileURLWithPath: try #require(try library.jobs().first?["sidecar"] as? String))
        var fields = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: sidecar)) as? [String: Any])
        fields["file"] = "../../../x.flac"
        fields["publication"] = "../../.."
        try JSONSerialization.data(withJSONObject: fields).write(to: sidecar)
        let outside = library.fixture.folder.url
        let before = try FileManager.default.contentsOfDirectory(atPath: outside.path).sorted()

        let push = try library.run("outbox", "push", "--to", library.share.path)
        #expect(push.status == 0, "\(push.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).sorted() == before)
        let files = try library.shareFiles()
        #expect(files.count == 2 && files.allSatisfy { $0.hasPrefix("Daily Post/") && $0.contains("Tampered-\(article)") }, "\(files)")
    }

    @Test("outbox remove drops a waiting job after asking; --json does not ask; the article is open again")
    func removeJob() throws {
        let library = try Library()
        let article = try library.newArticle("Not this one")
        try library.record(0.3)
        #expect(try library.run("queue").status == 0)
        let id = try #require(try library.jobs().first?["id"] as? String)

        let unasked = try library.run("outbox", "remove", id)
        #expect(unasked.status == 64 && unasked.stderr == "Removing \(id) needs a yes: run it on a terminal, or pass --yes.\n")
        let unknown = try library.run("outbox", "remove", "zzzz")
        #expect(unknown.status == 64 && unknown.stderr == "No outbox job has the id \"zzzz\". Run \"narrate outbox list --all\" to see them.\n")

        let removed = try library.run("outbox", "remove", String(id.prefix(4)), "--json")
        #expect(removed.status == 0, "\(removed.stderr)")
        let job = try #require(try removed.json() as? [String: Any])
        #expect(job["state"] as? String == "retired" && job["retiredReason"] as? String == "removed")
        #expect(!FileManager.default.fileExists(atPath: try #require(job["file"] as? String)))
        #expect(try library.jobs().isEmpty && library.state(article) == "open")
        #expect(try library.run("outbox", "push", "--to", library.share.path).stdout == "Delivered 0 files; 0 still waiting.\n")
        #expect(try library.shareFiles().isEmpty)
        let twice = try library.run("outbox", "remove", id, "--yes")
        #expect(twice.status == 64 && twice.stderr.hasSuffix("was already withdrawn; nothing to remove.\n"))
    }

    @Test("a failed queue leaves nothing in the outbox; a failed folder delivery records its attempt, destination and error", .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func failures() throws {
        let library = try Library()
        let article = try library.newArticle("Broken")
        try library.record(0.3)
        try library.record(0.3)
        let chunk = try #require(try library.fixture.chunks().last?["file"] as? String)
        let saved = try Data(contentsOf: URL(fileURLWithPath: chunk))
        try FileManager.default.removeItem(atPath: chunk)
        let queue = try library.run("queue")
        #expect(queue.status == 1)
        let outbox = library.narrate.home.appendingPathComponent("outbox")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outbox.path).isEmpty)
        #expect(try library.jobs(all: true).isEmpty && library.state(article) == "open")
        try saved.write(to: URL(fileURLWithPath: chunk))

        let readOnly = try TemporaryMount(sizeKiB: 64, readOnly: true)
        let submit = try library.run("submit", "--article", article, "--to", readOnly.url.path)
        #expect(submit.status == 1 && submit.stderr.split(separator: "\n").count == 1, "\(submit.stderr)")
        let job = try #require(try library.jobs().first)
        #expect(job["attempts"] as? Int == 1 && job["destination"] as? String == readOnly.url.path)
        #expect((job["lastError"] as? String)?.contains("Read-only file system") == true, "\(job)")
        let listing = try library.run("outbox", "list")
        #expect(listing.stdout.contains("queued    Broken-\(article).flac  attempts 1  → \(readOnly.url.path)\n            last error: "))
    }

    @Test("two outbox push at once send the file once: the second says the job is being sent", .timeLimit(.minutes(3)))
    func parallelPush() throws {
        let server = try ObjectStorageServer(buckets: ["radio"])
        let proxy = try FaultProxy(to: server, options: ["--rate", "400000"])  // 400 kB/s: the upload takes seconds
        let library = try Library(credentials: true)
        _ = try library.newArticle("Sent once")
        try library.record(3)
        #expect(try library.run("queue", "--profile", "wav").status == 0)
        let target = ["--to", "s3://radio/once", "--endpoint", proxy.endpoint, "--path-style", "--progress", "json"]
        let first = try library.narrate.start(["outbox", "push"] + target)
        _ = first.waitForStderrLine { $0.contains("\"stage\":\"upload\"") }
        let second = try library.run(["outbox", "push"] + target)
        let firstResult = first.wait()
        #expect(firstResult.status == 0, "\(firstResult.stderr)")
        #expect(second.status == 1)
        #expect(second.stderr.contains("\"Sent once\" is being sent by another narrate command (process \(first.pid)); nothing was sent twice."))
        let job = try #require(try library.jobs().first)
        #expect(job["state"] as? String == "delivered" && job["attempts"] as? Int == 1)
        #expect(try server.objects(in: "radio").count == 2)
    }

    @Test("S3: a newer delivery in another format replaces the article's object; prune then checks it and frees the chunks")
    func objectStorageReplacement() throws {
        let server = try ObjectStorageServer(buckets: ["radio"])
        let library = try Library(credentials: true)
        let article = try library.newArticle("Replaced")
        try library.record(0.4)
        let target = ["--to", "s3://radio/news", "--endpoint", server.endpoint, "--path-style"]
        #expect(try library.run(["submit", "--profile", "wav"] + target).status == 0)
        try library.record(0.2, "--article", article)
        let resubmit = try library.run(["submit", "--article", article, "--profile", "archive"] + target)
        #expect(resubmit.status == 0, "\(resubmit.stderr)")
        let objects = try server.objects(in: "radio")
        #expect(objects.map { URL(fileURLWithPath: $0.key).pathExtension }.sorted() == ["flac", "json"], "\(objects.map(\.key))")
        let audio = try #require(objects.first { $0.key.hasSuffix(".flac") })
        let stored = library.fixture.folder.file("stored.flac")
        try server.contents(of: audio.key, in: "radio").write(to: stored)
        #expect(try SoundFileReader(path: stored.path).readAll() == library.chunkSamples(article))

        let pruned = try library.run("prune", "--all", "--json")
        #expect(pruned.status == 0, "\(pruned.stderr)")
        let result = try #require(try pruned.json() as? [[String: Any]])
        #expect(result.count == 1 && result.first?["deliveredTo"] as? String == "s3://radio/\(audio.key)")
        #expect(try library.fixture.recordings().isEmpty && library.state(article) == "pruned")
    }

    @Test("prune --all frees the articles whose delivered file is confirmed and names the one that is not, keeping its chunks")
    func pruneAllWithOneUnconfirmed() throws {
        let library = try Library()
        let kept = try library.newArticle("Kept")
        try library.record(0.3)
        #expect(try library.run("submit", "--to", library.share.path).status == 0)
        let freed = try library.newArticle("Freed")
        try library.record(0.4)
        #expect(try library.run("submit", "--to", library.share.path).status == 0)
        let changed = try library.deliveredAudio(kept)
        try Data("not the delivered audio".utf8).write(to: changed)
        let keptChunks = try library.chunkSamples(kept)

        let prune = try library.run("prune", "--all", "--json")
        #expect(prune.status == 1)
        #expect(prune.stderr == "The delivery of \"Kept\" could not be confirmed, so no recording was removed: the delivered file \(changed.path) holds other bytes than were delivered. Submit the article again, then prune.\n")
        let pruned = try #require(try prune.json() as? [[String: Any]])
        #expect(pruned.map { $0["articleId"] as? String } == [freed])
        #expect(try library.state(freed) == "pruned" && library.state(kept) == "delivered")
        #expect(try library.chunkSamples(kept) == keptChunks)
    }
}
