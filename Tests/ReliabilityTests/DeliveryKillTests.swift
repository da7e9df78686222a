import Foundation
import NarrationAudio
import NarrationTestSupport
import Testing

/// `kill -9` at fixed points of `export`, `queue` and `submit` (during the export of a long
/// article, during a folder copy, during a slowed S3 upload), and a destination folder that is
/// full. After each kill one ordinary command (`narrate list`) must leave the outbox clean (no
/// temporary file, no job exporting); a temporary file left beside a destination or an export is
/// removed by the next command that writes there; and `outbox push` then delivers a file equal
/// to the chunks.
@Suite("kill -9 during exports and deliveries, and a full destination", .serialized)
struct DeliveryKillTests {
    /// A fixture whose narrate has the storage's key pair and a lossless WAV profile in config.toml.
    static func fixture(seconds: Double) throws -> (EndToEndFixture, Narrate) {
        let fixture = try EndToEndFixture(source: Signals.noise(seconds: seconds + 1, seed: 0x4B44))
        return (fixture, try fixture.narrateWithWAVProfile(credentials: true))
    }

    /// Starts an article of `seconds` of noise in one chunk. - Returns: its id.
    static func longArticle(_ narrate: Narrate, seconds: Double) throws -> String {
        let created = try narrate.run("new", "Long read", "--json")
        try #require(created.status == 0, "\(created.stderr)")
        let id = try #require((try created.json() as? [String: Any])?["id"] as? String)
        let take = try narrate.run("record", "--article", id, "--device", "vmic", "--duration", "\(seconds)")
        try #require(take.status == 0, "\(take.stderr)")
        return id
    }

    /// Every temporary file of narrate's under `folder`.
    static func partials(in folder: URL) -> [String] {
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            if url.lastPathComponent.hasSuffix(".narrate-partial") { found.append(url.path) }
        }
        return found
    }

    /// Jobs the catalog holds in state exporting (`outbox list` never shows them).
    static func exportingJobs(_ narrate: Narrate) throws -> [String] {
        let catalog = narrate.home.appendingPathComponent("catalog.sqlite").path
        return try Signals.run("sqlite3", ["-cmd", ".timeout 10000", "-readonly", catalog, "SELECT id FROM outbox WHERE state = 'exporting'"])
            .split(separator: "\n").map(String.init)
    }

    /// `outbox list --json --all`.
    static func jobs(_ narrate: Narrate) throws -> [[String: Any]] {
        let listing = try narrate.run("outbox", "list", "--json", "--all")
        try #require(listing.status == 0, "\(listing.stderr)")
        return try #require(try listing.json() as? [[String: Any]])
    }

    /// What the outbox holds that no command is making and no current job owns: temporary files,
    /// jobs exporting, and folders of jobs that are not queued or delivered.
    static func outboxLeftovers(_ narrate: Narrate) throws -> [String] {
        let outbox = narrate.home.appendingPathComponent("outbox")
        let current = Set(try jobs(narrate).filter { ["queued", "delivered"].contains($0["state"] as? String) }.compactMap { $0["id"] as? String })
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: outbox.path)) ?? []).filter { !current.contains($0) }
        return partials(in: outbox) + (try exportingJobs(narrate)).map { "job \($0) exporting" } + folders.map { "folder \($0)" }
    }

    /// The article's chunk samples, one after the other.
    static func chunkSamples(_ narrate: Narrate, _ article: String) throws -> [Int32] {
        let chunks = try #require(try narrate.run("chunks", "--json", "--article", article).json() as? [[String: Any]])
        return try chunks.flatMap { try SoundFileReader(path: try #require($0["file"] as? String)).readAll() }
    }

    /// Runs `arguments` and kills it after `milliseconds`. - Returns: whether the kill ended it.
    static func killAfter(_ narrate: Narrate, _ arguments: [String], after milliseconds: Int) throws -> Bool {
        let running = try narrate.start(arguments)
        usleep(UInt32(milliseconds) * 1_000)
        running.signal(SIGKILL)
        return running.wait().status == 128 + SIGKILL
    }

    enum Victim: String, CaseIterable, CustomStringConvertible {
        case export, queue, submit
        var description: String { rawValue }
    }

    /// Whether two sample arrays are equal, compared as memory (an article of 10 minutes has 26
    /// million samples, too many for an element-wise comparison in a debug build).
    static func same(_ one: [Int32], _ other: [Int32]) -> Bool {
        guard one.count == other.count, !one.isEmpty else { return one.count == other.count }
        return one.withUnsafeBytes { a in other.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 } }
    }

    /// What a kill interrupted, from what it left on disk: a temporary file is a file being written.
    static func phase(outbox: URL, exports: URL, share: URL) -> String {
        if !partials(in: share).isEmpty { return "while copying to the destination" }
        if !partials(in: outbox).isEmpty || !partials(in: exports).isEmpty { return "while exporting" }
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: outbox.path)) ?? []
        return folders.isEmpty && (try? FileManager.default.contentsOfDirectory(atPath: exports.path))?.isEmpty != false
            ? "before exporting" : "after exporting"
    }

    @Test("kill -9 at 50, 150 and 400 ms of export, queue and submit of a 10-minute article: list leaves the outbox clean, the next write removes the export's temporary file, and outbox push delivers the chunks")
    func killDuringExport() throws {
        let (fixture, narrate) = try Self.fixture(seconds: 600)
        let article = try Self.longArticle(narrate, seconds: 600)  // 53 MB of WAV: its export takes about 0.4 s
        let samples = try Self.chunkSamples(narrate, article)
        let pristine = fixture.folder.file("pristine")
        try FileManager.default.copyItem(at: narrate.home, to: pristine)
        let exports = fixture.folder.file("exports")
        let share = fixture.folder.file("share")
        let outbox = narrate.home.appendingPathComponent("outbox")
        let exportFile = exports.appendingPathComponent("long.wav")
        for victim in Victim.allCases {
            for milliseconds in [50, 150, 400] {
                let started = monotonicNow()
                for folder in [narrate.home, exports, share] { try? FileManager.default.removeItem(at: folder) }
                try FileManager.default.copyItem(at: pristine, to: narrate.home)
                for folder in [exports, share] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
                let arguments = switch victim {
                case .export: ["export", "--article", article, "-o", exportFile.path, "--profile", "wav"]
                case .queue: ["queue", "--article", article, "--profile", "wav"]
                case .submit: ["submit", "--article", article, "--profile", "wav", "--to", share.path]
                }
                let killed = try Self.killAfter(narrate, arguments, after: milliseconds)
                let phase = killed ? Self.phase(outbox: outbox, exports: exports, share: share) : "it had ended"
                let context = "\(victim) killed after \(milliseconds) ms (\(phase))"

                let list = try narrate.run("list")
                #expect(list.status == 0, "\(context): \(list.stderr)")
                let outboxLeft = try Self.outboxLeftovers(narrate)
                #expect(outboxLeft.isEmpty, "\(context): \(outboxLeft) left in the outbox after list")
                let exportLeftAfterList = Self.partials(in: exports).count
                let shareLeftAfterList = Self.partials(in: share).count

                var attempts = 0
                if victim == .export {
                    // The next export into that folder removes the killed one's temporary file.
                    let again = try narrate.run("export", "--article", article, "-o", exportFile.path, "--profile", "wav")
                    #expect(again.status == 0, "\(context): \(again.stderr)")
                    #expect(Self.partials(in: exports).isEmpty, "\(context): \(Self.partials(in: exports)) left beside the export")
                    #expect(Self.same(try SoundFileReader(path: exportFile.path).readAll(), samples), "\(context): the export")
                } else {
                    if try !Self.jobs(narrate).contains(where: { ["queued", "delivered"].contains($0["state"] as? String) }) {
                        let queued = try narrate.run("queue", "--article", article, "--profile", "wav")
                        #expect(queued.status == 0, "\(context): \(queued.stderr)")
                    }
                    let push = try narrate.run("outbox", "push", "--to", share.path)
                    #expect(push.status == 0, "\(context): \(push.stderr)")
                    let delivered = try Self.jobs(narrate).first { $0["state"] as? String == "delivered" }
                    #expect(Self.partials(in: share).isEmpty && Self.partials(in: narrate.home).isEmpty, "\(context)")
                    let remote = try #require(delivered?["remotePath"] as? String, "\(context): nothing delivered: \(push.stderr)")
                    #expect(Self.same(try SoundFileReader(path: remote).readAll(), samples), "\(context): the delivered file")
                    #expect(Self.files(in: share).filter { !$0.hasSuffix(".json") } == [remote], "\(context): \(Self.files(in: share))")
                    attempts = delivered?["attempts"] as? Int ?? 0
                }
                let left = outboxLeft.count + Self.partials(in: exports).count + Self.partials(in: share).count
                let delivery = victim == .export ? "exported again" : "outbox push delivered it after \(attempts) attempt\(attempts == 1 ? "" : "s")"
                print("figure: kill -9 of \(victim) after \(milliseconds) ms (\(phase)): 1 try; left after list: outbox \(outboxLeft.count), export folder \(exportLeftAfterList), destination \(shareLeftAfterList); then \(delivery): \(left) files left (\(String(format: "%.1f", monotonicNow() - started)) s)")
            }
        }
    }

    @Test("kill -9 of submit while it copies into the destination folder: list leaves the outbox clean, and outbox push removes the temporary copy and delivers the chunks")
    func killDuringFolderCopy() throws {
        let (fixture, narrate) = try Self.fixture(seconds: 120)
        let article = try Self.longArticle(narrate, seconds: 120)  // 10.6 MB of WAV: a copy and its check take a while
        let share = fixture.folder.file("share")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        var tries = 0
        var landed = false
        while !landed && tries < 10 {
            tries += 1
            let running = try narrate.start(["submit", "--article", article, "--profile", "wav", "--to", share.path])
            // Kill as soon as the copy's temporary file appears beside its target.
            while Self.partials(in: share).isEmpty && !Self.exited(running.pid) { usleep(200) }
            landed = !Self.partials(in: share).isEmpty
            running.signal(SIGKILL)
            let status = running.wait().status
            landed = landed && status == 128 + SIGKILL
            if !landed {
                // Missed: change the article so that the next submit exports and copies afresh.
                #expect(try narrate.run("record", "--article", article, "--device", "vmic", "--duration", "0.1").status == 0)
            }
        }
        try #require(landed, "the kill never landed during the copy in \(tries) tries")
        let list = try narrate.run("list")
        #expect(list.status == 0, "\(list.stderr)")
        let outboxLeft = try Self.outboxLeftovers(narrate)
        #expect(outboxLeft.isEmpty, "\(outboxLeft) left in the outbox after list")
        let shareLeftAfterList = Self.partials(in: share).count
        let waiting = try #require(try Self.jobs(narrate).first { $0["state"] as? String == "queued" })
        #expect(waiting["attempts"] as? Int == 1)

        let push = try narrate.run("outbox", "push", "--to", share.path)
        #expect(push.status == 0, "\(push.stderr)")
        #expect(Self.partials(in: share).isEmpty, "\(Self.partials(in: share)) left in the destination after the push")
        let delivered = try #require(try Self.jobs(narrate).first { $0["state"] as? String == "delivered" })
        #expect(delivered["attempts"] as? Int == 2)
        let remote = try #require(delivered["remotePath"] as? String)
        #expect(try SoundFileReader(path: remote).readAll() == Self.chunkSamples(narrate, article))
        let audio = Self.files(in: share).filter { !$0.hasSuffix(".json") }
        #expect(audio == [remote], "the destination holds \(audio)")
        let left = outboxLeft.count + Self.partials(in: share).count
        print("figure: kill -9 of submit during the folder copy (10.6 MB WAV): landed on try \(tries); left after list: outbox \(outboxLeft.count), destination \(shareLeftAfterList); after outbox push: \(left) files left, delivered after \(delivered["attempts"] as? Int ?? 0) attempts")
    }

    @Test("kill -9 of submit during an S3 upload slowed to 4 MB/s: list leaves the outbox clean, and outbox push completes one object equal to the chunks")
    func killDuringUpload() throws {
        let server = try ObjectStorageServer(buckets: ["radio"])
        let proxy = try FaultProxy(to: server, options: ["--rate", "4000000"])
        let (fixture, narrate) = try Self.fixture(seconds: 120)
        defer { withExtendedLifetime(fixture) {} }
        let article = try Self.longArticle(narrate, seconds: 120)
        let running = try narrate.start([
            "submit", "--article", article, "--profile", "wav", "--to", "s3://radio/kill", "--endpoint", proxy.endpoint, "--path-style",
            "--progress", "json", "--attempts", "1",
        ])
        let midway = running.waitForStderrLine { line in
            guard line.contains("\"stage\":\"upload\""), let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let done = event["done"] as? Int
            else { return false }
            return done > 4_000_000
        }
        running.signal(SIGKILL)
        let killed = running.wait().status == 128 + SIGKILL
        try #require(midway != nil && killed, "the kill did not land during the upload")

        let list = try narrate.run("list")
        #expect(list.status == 0, "\(list.stderr)")
        let outboxLeft = try Self.outboxLeftovers(narrate)
        #expect(outboxLeft.isEmpty, "\(outboxLeft) left in the outbox after list")
        let push = try narrate.run("outbox", "push", "--to", "s3://radio/kill", "--endpoint", server.endpoint, "--path-style")
        #expect(push.status == 0, "\(push.stderr)")
        let delivered = try #require(try Self.jobs(narrate).first { $0["state"] as? String == "delivered" })
        let objects = try server.objects(in: "radio")
        #expect(objects.count == 2, "\(objects.map(\.key))")
        let audio = try #require(objects.first { $0.key.hasSuffix(".wav") })
        let download = fixture.folder.file("downloaded.wav")
        try server.contents(of: audio.key, in: "radio").write(to: download)
        #expect(try SoundFileReader(path: download.path).readAll() == Self.chunkSamples(narrate, article))
        #expect(try server.unfinishedUploads(in: "radio") == 0)
        print("figure: kill -9 of submit during an S3 upload at 4 MB/s (10.6 MB WAV, multipart): landed on try 1 after 4 MB; left after list: outbox \(outboxLeft.count); after outbox push: 0 files left, \(try server.unfinishedUploads(in: "radio")) unfinished uploads, delivered after \(delivered["attempts"] as? Int ?? 0) attempts")
    }

    @Test("a destination folder too small for the export: submit fails with one line saying the disk is full, the job keeps its attempt and error, nothing is left there, and outbox push delivers it to a folder with room", .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func fullDestination() throws {
        let mount = try TemporaryMount(sizeKiB: 256)
        let (fixture, narrate) = try Self.fixture(seconds: 5)
        let article = try Self.longArticle(narrate, seconds: 5)  // 441 KB of WAV
        let submit = try narrate.run("submit", "--article", article, "--profile", "wav", "--to", mount.url.path)
        #expect(submit.status == 1)
        #expect(submit.stderr.split(separator: "\n").count == 1 && submit.stderr.contains(" is full"), "\(submit.stderr)")
        let job = try #require(try Self.jobs(narrate).first)
        #expect(job["state"] as? String == "queued" && job["attempts"] as? Int == 1, "\(job)")
        #expect((job["lastError"] as? String)?.contains(" is full") == true, "\(job["lastError"] ?? "no error")")
        let left = Self.partials(in: mount.url)
        #expect(left.isEmpty, "\(left) left on the full disk")
        #expect(Self.files(in: mount.url).isEmpty, "\(Self.files(in: mount.url)) on the full disk")

        let roomy = fixture.folder.file("roomy")
        try FileManager.default.createDirectory(at: roomy, withIntermediateDirectories: true)
        let push = try narrate.run("outbox", "push", "--to", roomy.path)
        #expect(push.status == 0, "\(push.stderr)")
        let delivered = try #require(try Self.jobs(narrate).first)
        #expect(delivered["state"] as? String == "delivered" && delivered["attempts"] as? Int == 2, "\(delivered)")
        let remote = try #require(delivered["remotePath"] as? String)
        #expect(remote.hasPrefix(roomy.path + "/"))
        #expect(try SoundFileReader(path: remote).readAll() == Self.chunkSamples(narrate, article))
        print("figure: full destination (256 KiB tmpfs, 441 KB WAV): submit exit \(submit.status), attempts \(job["attempts"] as? Int ?? 0), \(left.count) files left on the mount; outbox push to a folder with room: delivered after \(delivered["attempts"] as? Int ?? 0) attempts")
    }

    /// Each try edits the article, queues an export and kills its push to a destination folder as
    /// soon as the copy is renamed into place (the sidecar and the catalog's record come after):
    /// over the article's delivered file when `overDelivered`, else as the article's first file
    /// there (a fresh folder each try). - Returns: the job whose copy stayed, the folder and the tries.
    static func killAfterCopy(
        _ narrate: Narrate, _ article: String, in parent: URL, overDelivered: Bool
    ) throws -> (job: [String: Any], share: URL, tries: Int) {
        var share = parent.appendingPathComponent("share")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        var delivered: String?
        if overDelivered {
            let first = try narrate.run("submit", "--article", article, "--profile", "archive", "--to", share.path)
            try #require(first.status == 0, "\(first.stderr)")
            delivered = try #require(try jobs(narrate).first?["remotePath"] as? String)
        }
        var tries = 0
        while tries < 30 {
            tries += 1
            if !overDelivered && tries > 1 {
                share = parent.appendingPathComponent("share-\(tries)")
                try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
            }
            #expect(try narrate.run("record", "--article", article, "--device", "vmic", "--duration", "0.1").status == 0)
            let queued = try narrate.run("queue", "--article", article, "--profile", "archive", "--json")
            let job = try #require(try queued.json() as? [String: Any], "\(queued.stderr)")
            let before = delivered.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.systemFileNumber] as? UInt64 }
            let running = try narrate.start(["outbox", "push", "--to", share.path])
            while !exited(running.pid) {
                if let delivered {
                    if (try? FileManager.default.attributesOfItem(atPath: delivered)[.systemFileNumber] as? UInt64) != before { break }
                } else if files(in: share).contains(where: { $0.hasSuffix(".flac") && !URL(fileURLWithPath: $0).lastPathComponent.hasPrefix(".") }) {
                    break
                }
                usleep(50)
            }
            running.signal(SIGKILL)
            let killed = running.wait().status == 128 + SIGKILL
            let now = try jobs(narrate).first { $0["id"] as? String == job["id"] as? String }
            let copy = files(in: share).first { $0.hasSuffix(".flac") && !URL(fileURLWithPath: $0).lastPathComponent.hasPrefix(".") }
            if killed, now?["state"] as? String == "queued", let copy, try holds(copy, job) { return (try #require(now), share, tries) }
        }
        throw FixtureError("the kill never landed between the copy and its record in \(tries) tries")
    }

    /// Whether `file` holds the bytes of `job`'s export.
    static func holds(_ file: String, _ job: [String: Any]) throws -> Bool {
        try Signals.run("sha256sum", [file]).hasPrefix(job["sha256"] as? String ?? "-")
    }

    @Test("kill -9 of a push after its copy took the place of the article's delivered file, before the delivery was recorded: once that export is withdrawn, the next delivery there, in another format, leaves one file of the article")
    func copyOverDeliveredThenWithdrawn() throws {
        let (fixture, narrate) = try Self.fixture(seconds: 60)
        let article = try Self.longArticle(narrate, seconds: 60)
        let (copy, share, tries) = try Self.killAfterCopy(narrate, article, in: fixture.folder.url, overDelivered: true)
        #expect(try narrate.run("list").status == 0)

        // The copy's export is withdrawn by an edit; the next delivery there is in another format.
        #expect(try narrate.run("record", "--article", article, "--device", "vmic", "--duration", "0.1").status == 0)
        let submit = try narrate.run("submit", "--article", article, "--profile", "wav", "--to", share.path)
        #expect(submit.status == 0, "\(submit.stderr)")
        let current = try #require(try Self.jobs(narrate).first { $0["state"] as? String == "delivered" })
        let audio = Self.files(in: share).filter { !$0.hasSuffix(".json") }
        let stale = try audio.filter { try Self.holds($0, copy) }
        #expect(audio == [current["remotePath"] as? String ?? ""], "the destination holds \(audio); \(stale) hold export \(copy["id"] ?? ""), withdrawn before any delivery")
        #expect(Self.same(try SoundFileReader(path: current["remotePath"] as? String ?? "").readAll(), try Self.chunkSamples(narrate, article)))
        print("figure: kill -9 of outbox push between its copy over the delivered file and its record: landed on try \(tries); after the export was withdrawn and the next delivery there (WAV): \(audio.count) audio files of the article, \(stale.count) holding the withdrawn export")
    }

    @Test("kill -9 of a push after its copy was renamed into place as the article's first file there: the export then delivered to another folder and withdrawn, the next delivery to the first folder, in another format, leaves one file of the article")
    func copyThenDeliveredElsewhere() throws {
        let (fixture, narrate) = try Self.fixture(seconds: 60)
        let article = try Self.longArticle(narrate, seconds: 60)
        let other = fixture.folder.file("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let (copy, share, tries) = try Self.killAfterCopy(narrate, article, in: fixture.folder.url, overDelivered: false)
        #expect(try narrate.run("list").status == 0)

        // The same export goes to another folder, then an edit withdraws it.
        let elsewhere = try narrate.run("submit", "--article", article, "--to", other.path, "--json")
        #expect(elsewhere.status == 0, "\(elsewhere.stderr)")
        #expect((try? elsewhere.json() as? [String: Any])?["id"] as? String == copy["id"] as? String, "submit sent the same export")
        #expect(try narrate.run("record", "--article", article, "--device", "vmic", "--duration", "0.1").status == 0)
        let submit = try narrate.run("submit", "--article", article, "--profile", "wav", "--to", share.path)
        #expect(submit.status == 0, "\(submit.stderr)")
        let current = try #require(try Self.jobs(narrate).first { $0["state"] as? String == "delivered" })
        let audio = Self.files(in: share).filter { !$0.hasSuffix(".json") }
        let stale = try audio.filter { try Self.holds($0, copy) }
        #expect(audio == [current["remotePath"] as? String ?? ""], "the destination holds \(audio); \(stale) hold the killed push's copy of export \(copy["id"] ?? "")")
        print("figure: kill -9 of outbox push between its copy (the article's first file there) and its record, the export then delivered elsewhere and withdrawn: landed on try \(tries); after the next delivery to the first folder (WAV): \(audio.count) audio files of the article, \(stale.count) holding the killed push's copy")
    }

    @Test("a push to S3 whose connection drops after its upload took the key of the article's delivered object: once that export is withdrawn, the next delivery there, in another format, leaves one object of the article")
    func droppedAfterUploadOverDelivered() throws {
        let server = try ObjectStorageServer(buckets: ["radio"])
        let (fixture, narrate) = try Self.fixture(seconds: 5)
        defer { withExtendedLifetime(fixture) {} }
        let article = try Self.longArticle(narrate, seconds: 5)
        let storage = ["--to", "s3://radio/a", "--endpoint", server.endpoint, "--path-style"]
        let first = try narrate.run(["submit", "--article", article, "--profile", "archive"] + storage)
        try #require(first.status == 0, "\(first.stderr)")

        // Each try: a new export of the same name, whose push loses its connection a little later
        // each time, until one is cut after the audio is stored and before the delivery is recorded.
        var tries = 0
        var job: [String: Any] = [:]
        var landed = false
        while !landed && tries < 12 {
            tries += 1
            #expect(try narrate.run("record", "--article", article, "--device", "vmic", "--duration", "0.1").status == 0)
            let queued = try narrate.run("queue", "--article", article, "--profile", "archive", "--json")
            job = try #require(try queued.json() as? [String: Any], "\(queued.stderr)")
            let bytes = try #require(job["bytes"] as? Int)
            let proxy = try FaultProxy(to: server, options: ["--drop-after", String(bytes + 300 * tries)])
            let push = try narrate.run("outbox", "push", "--to", "s3://radio/a", "--endpoint", proxy.endpoint, "--path-style", "--attempts", "1")
            let now = try Self.jobs(narrate).first { $0["id"] as? String == job["id"] as? String }
            let stored = try server.objects(in: "radio").filter { $0.key.hasSuffix(".flac") }
            landed = push.status == 1 && now?["state"] as? String == "queued" && stored.map { $0.metadata["sha256"] } == [job["sha256"] as? String]
        }
        try #require(landed, "no cut fell between the upload and its record in \(tries) tries")

        // The export is withdrawn by an edit; the next delivery there is in another format.
        #expect(try narrate.run("record", "--article", article, "--device", "vmic", "--duration", "0.1").status == 0)
        let submit = try narrate.run(["submit", "--article", article, "--profile", "wav"] + storage)
        #expect(submit.status == 0, "\(submit.stderr)")
        let audio = try server.objects(in: "radio").filter { !$0.key.hasSuffix(".json") }
        let stale = audio.filter { $0.metadata["sha256"] == job["sha256"] as? String }
        #expect(audio.count == 1 && stale.isEmpty, "the bucket holds \(audio.map(\.key)); \(stale.map(\.key)) hold export \(job["id"] ?? ""), withdrawn before any delivery")
        print("figure: S3 push cut after its upload took the delivered object's key (try \(tries)), its export then withdrawn: after the next delivery there (WAV) the bucket holds \(audio.count) audio objects of the article, \(stale.count) holding the withdrawn export")
    }

    /// Regular files under `folder`, hidden ones included.
    static func files(in folder: URL) -> [String] {
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { found.append(url.standardizedFileURL.path) }
        }
        return found
    }

    /// Whether `pid` has exited (a zombie not yet reaped counts).
    static func exited(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        return status.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") ?? true
    }
}
