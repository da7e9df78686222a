import Foundation
@testable import Narration
import NarrationAudio
import NarrationTestSupport
import Testing

/// Random lives of articles through the real binary: records, re-records, inserts and deletions,
/// queues in two lossless profiles, submits and pushes to a folder and to a real SeaweedFS bucket,
/// prunes, and `kill -9` of a queue, submit or push at a random moment. A small model follows each
/// article (its chunks' samples, the exports made of them, what each destination was last
/// recorded to hold) and every step is checked against it and against what the destinations hold.
///
/// Destination files are compared by SHA-256 with the outbox files of the article's jobs, each of
/// which was decoded when it first appeared and found to hold exactly the chunks' samples of that
/// moment; the bucket is read through boto3. When a delivery was recorded is read from the
/// catalog's delivery table (millisecond times), which `outbox list` cannot tell apart from a killed
/// attempt on a job already delivered elsewhere.
///
/// Four workers run side by side (a quarter of the sequences each, on data roots, folders and
/// bucket prefixes of their own, one SeaweedFS server for all), so that one worker's waits (kills,
/// uploads) leave the cores to the others; they collect what fails and the test records it once
/// they are done. As root their data roots and folders are on a tmpfs (fsyncs queue at the disk).
@Suite("Random article lives: edits, queues, deliveries to a folder and S3, prunes and kill -9s")
struct ArticleLifeFuzzTests {
    /// 200, or `NARRATE_FUZZ_SEQUENCES` (a multiple of the workers, at least one each): the whole
    /// CI run has 100, to stay under 40 minutes on 2 cores.
    static let sequences: Int = {
        let asked = ProcessInfo.processInfo.environment["NARRATE_FUZZ_SEQUENCES"].flatMap { Int($0) } ?? 200
        return max(workers, min(asked, 10_000) / workers * workers)
    }()
    static let workers = 4

    @Test("200 random sequences (NARRATE_FUZZ_SEQUENCES): one file per article at each destination, always an export that was current when delivered; nothing left half-written or stuck; prune only what is delivered")
    func randomArticleLives() throws {
        let started = monotonicNow()
        let seed = SeededGenerator(default: 0x4C49_4645)
        print("figure: article-life fuzz seed \(seed.seed) (NARRATE_FUZZ_SEED=\(seed.seed) replays it)")
        let server = try ObjectStorageServer(buckets: ["radio"])
        // As root, the data roots and destination folders go on a tmpfs: the workers' fsyncs
        // would otherwise queue at the one disk and leave the cores idle.
        let memory = getuid() == 0 ? try TemporaryMount(sizeKiB: 2_097_152) : nil
        let runs = try (0..<Self.workers).map { try ArticleLifeRun(worker: $0, seed: seed, server: server, folder: memory?.url) }
        // Threads of their own: Dispatch's concurrentPerform would run only as many as there are cores.
        let finished = DispatchSemaphore(value: 0)
        for run in runs {
            Thread {
                run.run(sequences: Self.sequences / Self.workers)
                finished.signal()
            }.start()
        }
        for _ in runs { finished.wait() }
        let failures = runs.flatMap(\.failures)
        for failure in failures.prefix(40) { Issue.record("\(failure)") }
        if failures.count > 40 { Issue.record("\(failures.count - 40) more failures") }
        ArticleLifeRun.printFigures(runs, seconds: monotonicNow() - started)
    }
}

/// A worker's own random stream, drawn from the test's seed.
private struct WorkerRandom: RandomNumberGenerator {
    var base: SeededGenerator
    let worker: UInt64

    var seed: UInt64 { base.seed }

    mutating func next() -> UInt64 {
        var mixed = base.next() &+ (worker &+ 1) &* 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Where a delivery goes.
private enum Place: String, CaseIterable, CustomStringConvertible {
    case folder, bucket
    var description: String { rawValue }
}

/// An outbox job as `outbox list --json --all` shows it.
private struct ObservedJob {
    let id: String
    let articleId: String
    let state: String
    let retiredReason: String?
    let destination: String?
    let remotePath: String?
    let lastError: String?
    let attempts: Int
    let file: String
    let sha256: String
    let bytes: Int
    let profile: String

    init?(_ object: [String: Any]) {
        guard let id = object["id"] as? String, let articleId = object["articleId"] as? String, let state = object["state"] as? String,
            let attempts = object["attempts"] as? Int, let file = object["file"] as? String, let sha256 = object["sha256"] as? String,
            let bytes = object["bytes"] as? Int, let profile = object["profile"] as? String
        else { return nil }
        (self.id, self.articleId, self.state, self.attempts, self.file, self.sha256, self.bytes, self.profile) =
            (id, articleId, state, attempts, file, sha256, bytes, profile)
        retiredReason = object["retiredReason"] as? String
        destination = object["destination"] as? String
        remotePath = object["remotePath"] as? String
        lastError = object["lastError"] as? String
    }

    var isCurrent: Bool { state == "queued" || state == "delivered" }
}

/// A delivery as the catalog recorded it: the article's current file at one destination.
private struct RecordedDelivery: Equatable {
    let jobId: String
    let location: String
    let sha256: String
    let deliveredAt: String
}

/// A file an article has at a destination: its place there and the SHA-256 of its bytes.
private struct HeldFile: Equatable {
    let location: String
    let sha256: String
}

/// What a destination holds of one article: audio files, and the places of its sidecars.
private struct ArticleFiles {
    var audio: [HeldFile] = []
    var sidecars: [String] = []
}

/// A file that a killed delivery left at a destination, allowed there until the next delivery to
/// that destination after its job was withdrawn.
private struct KillCopy {
    let article: String
    let place: Place
    let location: String
    let sha256: String
    let jobId: String
    /// The destination's count of deliveries when the job was seen withdrawn.
    var withdrawnAt: Int?
}

/// A sidecar beside no audio file, left by a killed delivery (or removal), allowed until the next
/// delivery to that destination.
private struct LoneSidecar {
    let article: String
    let place: Place
    let location: String
    let leftAt: Int
}

/// `<stem>.<ext>` → `<stem>`: an audio file and its sidecar share it.
private func stem(_ location: String) -> String {
    guard let dot = location.lastIndex(of: "."), !location[dot...].contains("/") else { return location }
    return String(location[..<dot])
}

/// The state of one run: the fixture, the server, the model and the figures.
private final class ArticleLifeRun: @unchecked Sendable {
    let worker: Int
    var random: WorkerRandom
    let server: ObjectStorageServer
    let bucket: BucketReader
    let fixture: EndToEndFixture
    let narrate: Narrate
    let share: URL
    let s3URL: String
    let prefix: String
    var failures: [String] = []
    let catalogPath: String

    // The article of the sequence under way.
    var article = ""
    var chunks: [(id: String, file: String, frames: Int)] = []
    var samplesByChunk: [String: [Int32]] = [:]
    var state = ""
    var jobs: [String: ObservedJob] = [:]
    /// What each job was exported from, checked when it first appeared.
    var exportedSamples: [String: [Int32]] = [:]
    /// The catalog's record of the article's file at each destination.
    var delivered: [Place: RecordedDelivery] = [:]
    /// What each destination holds of the article, as last read.
    var held: [Place: ArticleFiles] = [:]
    var retiredBeforeStep: Set<String> = []
    var context = ""

    // Across sequences.
    var killCopies: [KillCopy] = []
    var loneSidecars: [LoneSidecar] = []
    var deliveriesTo: [Place: Int] = [.folder: 0, .bucket: 0]
    /// A kill may have left a temporary file in the destination folder since the last delivery there.
    var folderPartialAllowed = false
    var folderHashes: [String: (identity: String, sha256: String)] = [:]

    // Figures.
    var steps: [String: Int] = [:]
    var kills = 0
    var killsTried = 0
    var copiesLeft = 0
    var copiesRemovedByNextDelivery = 0
    var copiesDeliveredLater = 0
    var copiesGoneOtherwise = 0
    var loneSidecarsLeft = 0
    var bytesTwice = 0
    var deliveriesTwice = 0
    var resendsSkipped = 0
    var copiesSkipped = 0
    var pruned = 0
    var pruneRefused = 0
    var exportsChecked = 0

    init(worker: Int, seed: SeededGenerator, server: ObjectStorageServer, folder: URL?) throws {
        self.worker = worker
        random = WorkerRandom(base: seed, worker: UInt64(worker))
        self.server = server
        prefix = "fuzz-\(worker)/"
        s3URL = "s3://radio/fuzz-\(worker)"
        bucket = try BucketReader(server: server)
        fixture = try EndToEndFixture(source: Signals.noise(seconds: 1, seed: 0x4C49))
        // The fixture's config.toml and key pair, with a data root of this worker's own.
        var environment = try fixture.narrateWithWAVProfile(credentials: true).environment
        environment["HOME"] = nil
        environment["NARRATE_HOME"] = nil
        let base = folder ?? fixture.folder.url
        narrate = Narrate(home: base.appendingPathComponent("home-\(worker)"), environment: environment)
        share = base.appendingPathComponent("share-\(worker)").standardizedFileURL
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        catalogPath = narrate.home.appendingPathComponent("catalog.sqlite").path
    }

    func destination(_ place: Place) -> [String] {
        place == .folder ? ["--to", share.path] : ["--to", s3URL, "--endpoint", server.endpoint, "--path-style"]
    }

    func place(ofDestination destination: String) -> Place { destination.hasPrefix("s3://") ? .bucket : .folder }

    // MARK: Checks that collect failures (the workers run off the test's task)

    struct Stop: Error {}

    func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { failures.append(message()) }
    }

    func fail(_ message: String) { failures.append(message) }

    func need<T>(_ value: T?, _ message: @autoclosure () -> String = "") throws -> T {
        guard let value else {
            failures.append("\(context): \(message())")
            throw Stop()
        }
        return value
    }

    func need(_ condition: Bool, _ message: @autoclosure () -> String = "") throws {
        _ = try need(condition ? true : nil, message())
    }

    /// Runs `sequences` sequences, stopping at the first one that cannot go on.
    func run(sequences: Int) {
        for index in 0..<sequences {
            do {
                try sequence(index)
            } catch is Stop {
                return
            } catch {
                failures.append("\(context): \(error)")
                return
            }
        }
    }

    // MARK: One sequence

    func sequence(_ index: Int) throws {
        let created = try narrate.run("new", String(format: "Article %d-%03d", worker, index), "--json")
        try need(created.status == 0, "\(created.stderr)")
        article = try need((try created.json() as? [String: Any])?["id"] as? String)
        (chunks, samplesByChunk, state, jobs, exportedSamples, delivered, held) = ([], [:], "open", [:], [:], [:], [:])
        let count = Int.random(in: 4...10, using: &random)
        for step in 0..<count {
            context = "worker \(worker) sequence \(index) step \(step + 1) (seed \(random.seed), article \(article))"
            retiredBeforeStep = Set(jobs.values.filter { $0.state == "retired" }.map(\.id))
            try self.step(first: step == 0)
        }
        // The end: one push that is not killed delivers whatever waits.
        context = "worker \(worker) sequence \(index) final push (seed \(random.seed), article \(article))"
        retiredBeforeStep = Set(jobs.values.filter { $0.state == "retired" }.map(\.id))
        var push = ["outbox", "push"]
        if jobs.values.contains(where: { $0.state == "queued" && $0.destination == nil }) {
            push += destination(Place.allCases.randomElement(using: &random)!)
        }
        let before = held
        let attemptsBefore = jobs.mapValues(\.attempts)
        let result = try narrate.run(push)
        check(result.status == 0, "\(context): \(push.joined(separator: " ")): \(result.stderr)")
        try observe(after: "push", killed: false, edited: false, heldBefore: before, attemptsBefore: attemptsBefore)
        try listedState(compare: true)
        // (c) Nothing is stuck: every job is delivered or withdrawn.
        for job in jobs.values {
            check(job.state == "delivered" || job.state == "retired", "\(context): job \(job.id) is \(job.state) after the last push: \(job.lastError ?? "no error")")
        }
    }

    func step(first: Bool) throws {
        var kinds = ["record"]
        if !first && !chunks.isEmpty {
            kinds += ["record", "record", "replace", "replace", "insert", "queue", "queue", "submit", "submit", "submit", "push", "push", "prune", "kill", "kill"]
            if chunks.count > 1 { kinds.append("delete") }
        }
        let kind = kinds.randomElement(using: &random)!
        steps[kind, default: 0] += 1
        let duration = String(format: "%.2f", Double(Int.random(in: 2...12, using: &random)) * 0.05)
        switch kind {
        case "record", "replace", "insert", "delete":
            var arguments = ["record", "--article", article, "--device", "vmic", "--duration", duration, "--json"]
            if kind == "replace" { arguments += ["--replace", String(Int.random(in: 1...chunks.count, using: &random))] }
            if kind == "insert" { arguments += ["--insert", String(Int.random(in: 1...chunks.count, using: &random))] }
            if kind == "delete" { arguments = ["delete-chunk", String(Int.random(in: 1...chunks.count, using: &random)), "--article", article, "--json"] }
            let hadExport = jobs.values.first(where: \.isCurrent)?.state
            let result = try narrate.run(arguments)
            check(result.status == 0, "\(context): \(arguments.joined(separator: " ")): \(result.stderr)")
            // The edit withdraws the current export and says so.
            let withdrawn = (try? result.json() as? [String: Any])?["withdrawnExport"] as? String
            check(withdrawn == hadExport, "\(context): \(kind) withdrew \(withdrawn ?? "nothing"); the export was \(hadExport ?? "none")")
            try observe(after: kind, killed: false, edited: true)
            check(state == "open", "\(context): the article is \(state) after \(kind)")
        case "queue", "submit", "push":
            let arguments = command(kind)
            let before = held
            let attemptsBefore = jobs.mapValues(\.attempts)
            let result = try narrate.run(arguments)
            check(result.status == 0 || (kind == "push" && result.status == 1 && onlyUndestined(result.stderr)),
                    "\(context): \(arguments.joined(separator: " ")): \(result.status) \(result.stderr)")
            try observe(after: kind, killed: false, edited: false, heldBefore: before, attemptsBefore: attemptsBefore)
        case "kill":
            let victim = ["queue", "submit", "submit", "push"].randomElement(using: &random)!
            let arguments = command(victim)
            let before = held
            let attemptsBefore = jobs.mapValues(\.attempts)
            let pause = UInt32.random(in: 0...300_000, using: &random)
            let running = try narrate.start(arguments)
            usleep(pause)
            running.signal(SIGKILL)
            let result = running.wait()
            killsTried += 1
            let killed = result.status == 128 + SIGKILL
            if killed {
                kills += 1
                folderPartialAllowed = true
            } else {
                check(result.status == 0 || (victim == "push" && result.status == 1 && onlyUndestined(result.stderr)),
                        "\(context): \(arguments.joined(separator: " ")) (ended before the kill): \(result.status) \(result.stderr)")
            }
            context += killed ? " after kill -9 of \(arguments.joined(separator: " "))" : ""
            try observe(after: victim, killed: killed, edited: false, heldBefore: before, attemptsBefore: attemptsBefore)
        case "prune":
            try prune()
        default:
            preconditionFailure("unknown step \(kind)")
        }
    }

    func command(_ kind: String) -> [String] {
        let profile = ["--profile", ["archive", "wav"].randomElement(using: &random)!]
        switch kind {
        case "queue":
            return ["queue", "--article", article] + profile
        case "submit":
            return ["submit", "--article", article] + destination(Place.allCases.randomElement(using: &random)!)
                + (Bool.random(using: &random) ? profile : [])
        default:
            return ["outbox", "push"] + (Bool.random(using: &random) ? destination(Place.allCases.randomElement(using: &random)!) : [])
        }
    }

    /// A push whose only waiting jobs were never sent anywhere and were given no --to.
    func onlyUndestined(_ stderr: String) -> Bool {
        let lines = stderr.split(separator: "\n").filter { !$0.hasPrefix("Delivered ") }
        return !lines.isEmpty && lines.allSatisfy { $0.contains("it has no destination yet") }
    }

    // MARK: Prune

    /// (d) Prune removes the chunks only when, just before it, a destination held a file equal to them.
    func prune() throws {
        let current = chunks.flatMap { samplesByChunk[$0.id] ?? [] }
        let holdsCurrent = !chunks.isEmpty && Place.allCases.contains { place in
            held[place, default: ArticleFiles()].audio.contains { file in
                jobs.values.contains { $0.sha256 == file.sha256 && exportedSamples[$0.id] == current }
            }
        }
        let deliveredAsItIs = state == "delivered" && jobs.values.contains { job in
            guard job.state == "delivered", exportedSamples[job.id] == current else { return false }
            return Place.allCases.contains { place in
                guard let record = delivered[place], record.jobId == job.id else { return false }
                return held[place, default: ArticleFiles()].audio.contains(HeldFile(location: record.location, sha256: record.sha256))
            }
        }
        let files = chunks.map(\.file)
        let result = try narrate.run("prune", "--article", article, "--json")
        check([0, 1, 64].contains(result.status), "\(context): prune ended with \(result.status): \(result.stderr)")
        if result.status == 0 {
            pruned += 1
            check(holdsCurrent, "\(context): prune removed the chunks though no destination held them as they are")
            for file in files { check(!FileManager.default.fileExists(atPath: file), "\(context): \(file) is still there after prune") }
        } else {
            pruneRefused += 1
            check(result.stderr.split(separator: "\n").count == 1, "\(context): \(result.stderr)")
            for file in files { check(FileManager.default.fileExists(atPath: file), "\(context): prune refused (\(result.stderr)) yet \(file) is gone") }
            check(!deliveredAsItIs, "\(context): prune refused an article delivered as it is: \(result.stderr)")
        }
        try observe(after: "prune", killed: false, edited: true)
        if result.status == 0 {
            check(state == "pruned" && chunks.isEmpty, "\(context): after prune the article is \(state) with \(chunks.count) chunks")
        }
    }

    // MARK: Observing and checking

    /// Reads the article, its chunks, its jobs, the catalog's deliveries and both destinations,
    /// and checks them against the model.
    func observe(
        after kind: String, killed: Bool, edited: Bool, heldBefore: [Place: ArticleFiles] = [:], attemptsBefore: [String: Int] = [:]
    ) throws {
        // (b) A command that ran to its end leaves no temporary file and no job exporting; after a
        // kill, the next command (here: list) removes what it left in the outbox.
        if killed {
            try listedState(compare: false)
            try checkOutboxClean("after the list that followed the kill")
        } else {
            try checkOutboxClean("after \(kind)")
            // The catalog's state, which list shows (compared at every kill and sequence end): a
            // narrate command costs 50 ms of CPU, a look at the catalog 3.
            state = try Signals.run("sqlite3", ["-cmd", ".timeout 10000", "-readonly", catalogPath, "SELECT state FROM article WHERE id = '\(article)'"])
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }

        if edited { try readChunks() }
        let currentSamples = chunks.flatMap { samplesByChunk[$0.id] ?? [] }

        let outbox = try narrate.run("outbox", "list", "--json", "--all")
        try need(outbox.status == 0, "\(context): outbox list: \(outbox.stderr)")
        let observed = try need(try outbox.json() as? [[String: Any]]).compactMap(ObservedJob.init).filter { $0.articleId == article }
        check(observed.filter(\.isCurrent).count <= 1, "\(context): \(observed.filter(\.isCurrent).count) current exports")
        for job in observed {
            if jobs[job.id] == nil && job.isCurrent {
                // A new export: made from the chunks as they are now (no edit ran in this step).
                exportsChecked += 1
                check(try Checksum.sha256(of: URL(fileURLWithPath: job.file)) == job.sha256, "\(context): job \(job.id)'s file")
                let samples = try SoundFileReader(path: job.file).readAll()
                check(samples == currentSamples, "\(context): job \(job.id) holds \(samples.count) samples, the chunks \(currentSamples.count)")
                exportedSamples[job.id] = currentSamples
            }
            if job.state == "retired", jobs[job.id]?.state != "retired" {
                for index in killCopies.indices where killCopies[index].jobId == job.id && killCopies[index].withdrawnAt == nil {
                    killCopies[index].withdrawnAt = deliveriesTo[killCopies[index].place, default: 0]
                }
            }
            jobs[job.id] = job
        }
        if let current = observed.first(where: \.isCurrent) {
            let expected = current.state == "delivered" ? ["delivered", "pruned"] : ["queued"]
            check(expected.contains(state), "\(context): the article is \(state), its export \(current.state)")
        } else {
            check(state == "open" || state == "pruned", "\(context): the article is \(state) without an export")
        }

        // Deliveries the catalog recorded in this step.
        let recorded = try recordedDeliveries()
        var deliveredNow: Set<Place> = []
        for place in Place.allCases {
            guard let now = recorded[place], now != delivered[place] else { continue }
            deliveredNow.insert(place)
            deliveriesTo[place, default: 0] += 1
            // Bytes delivered twice: the destination already held this file at that place.
            if let job = jobs[now.jobId], heldBefore[place]?.audio.contains(HeldFile(location: now.location, sha256: now.sha256)) == true {
                let onRecord = delivered[place].map { $0.location == now.location && $0.sha256 == now.sha256 } ?? false
                if place == .bucket && ((attemptsBefore[job.id] ?? 0) > 0 || onRecord) {
                    resendsSkipped += 1  // a retry, or the same bytes on record there, begins with a HEAD and sends nothing the storage holds
                } else if place == .folder {
                    copiesSkipped += 1  // the file there is read back and not copied again (OutboxTests shows its inode stays)
                } else {
                    deliveriesTwice += 1
                    bytesTwice += job.bytes
                }
            }
            delivered[place] = now
        }
        if !killed, deliveredNow.contains(.folder) { folderPartialAllowed = false }
        if !folderPartialAllowed { checkNoPartials(in: share, "the destination folder") }

        // (a) What each destination holds.
        for place in Place.allCases {
            let everything = try files(at: place)
            held[place] = everything[article] ?? ArticleFiles()
            try checkDestination(place, everything: everything, killed: killed, deliveredNow: deliveredNow.contains(place))
        }
        // (a) Delivered: the delivered file holds exactly the chunks as they are.
        if state == "delivered", let job = observed.first(where: { $0.state == "delivered" }) {
            check(exportedSamples[job.id] == currentSamples, "\(context): delivered job \(job.id) was made from other chunks")
            let places = Place.allCases.filter { delivered[$0]?.jobId == job.id }
            check(!places.isEmpty, "\(context): the article is delivered but no delivery of job \(job.id) is on record")
            for place in places {
                let record = delivered[place]!
                check(held[place]?.audio.contains(HeldFile(location: record.location, sha256: job.sha256)) == true,
                        "\(context): the article is delivered but \(place) does not hold \(job.id)'s file at \(record.location)")
            }
        }
    }

    /// Every audio file and sidecar of every article at a destination, by article id (temporary files left out).
    func files(at place: Place) throws -> [String: ArticleFiles] {
        var result: [String: ArticleFiles] = [:]
        switch place {
        case .folder:
            let enumerator = FileManager.default.enumerator(at: share, includingPropertiesForKeys: [.isRegularFileKey])
            while let url = enumerator?.nextObject() as? URL {
                let name = url.lastPathComponent
                guard !name.hasPrefix("."), (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                    let id = Self.articleID(inName: name)
                else { continue }
                let path = url.standardizedFileURL.path
                if name.hasSuffix(".json") {
                    result[id, default: ArticleFiles()].sidecars.append(path)
                } else {
                    result[id, default: ArticleFiles()].audio.append(HeldFile(location: path, sha256: try folderSHA256(path)))
                }
            }
        case .bucket:
            for object in try bucket.objects(in: "radio", prefix: prefix) {
                guard let id = Self.articleID(inName: String(object.key.split(separator: "/").last ?? "")) else { continue }
                if object.key.hasSuffix(".json") {
                    result[id, default: ArticleFiles()].sidecars.append(object.key)
                } else {
                    result[id, default: ArticleFiles()].audio.append(HeldFile(location: object.key, sha256: object.sha256))
                }
            }
        }
        return result
    }

    /// A folder file's SHA-256, computed again only when the file was replaced or changed.
    func folderSHA256(_ path: String) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let identity = "\(attributes[.systemFileNumber] ?? "") \(attributes[.size] ?? "") \(attributes[.modificationDate] ?? "")"
        if let known = folderHashes[path], known.identity == identity { return known.sha256 }
        let sha256 = try Checksum.sha256(of: URL(fileURLWithPath: path))
        folderHashes[path] = (identity, sha256)
        return sha256
    }

    /// `<title>-<article id>.<ext>` → the article id.
    static func articleID(inName name: String) -> String? {
        let stem = name.split(separator: ".").first.map(String.init) ?? name
        guard let dash = stem.lastIndex(of: "-") else { return nil }
        return String(stem[stem.index(after: dash)...])
    }

    /// (a) The article's files at one destination are the file last delivered there and copies
    /// that killed deliveries left, each an export that was current when it was sent; a copy of a
    /// withdrawn export is gone once a later delivery there has run. Every article has at most one
    /// file (and sidecar) there besides such copies.
    func checkDestination(_ place: Place, everything: [String: ArticleFiles], killed: Bool, deliveredNow: Bool) throws {
        let files = held[place] ?? ArticleFiles()
        let recorded = delivered[place]
        let count = deliveriesTo[place, default: 0]
        func isCopy(_ file: HeldFile, of article: String) -> Bool {
            killCopies.contains { $0.article == article && $0.place == place && $0.location == file.location && $0.sha256 == file.sha256 }
        }
        if let recorded {
            let there = files.audio.first { $0.location == recorded.location }
            check(there?.sha256 == recorded.sha256 || there.map { isCopy($0, of: article) } == true,
                    "\(context): \(place) should hold job \(recorded.jobId)'s file at \(recorded.location): \(there == nil ? "nothing there" : "other bytes")")
        }
        // Copies of earlier kills: delivered since, gone, or still allowed.
        for index in killCopies.indices.reversed() where killCopies[index].place == place {
            let copy = killCopies[index]
            let file = HeldFile(location: copy.location, sha256: copy.sha256)
            let stillThere = everything[copy.article]?.audio.contains(file) ?? false
            if copy.article == article, recorded?.location == copy.location, recorded?.sha256 == copy.sha256 {
                copiesDeliveredLater += 1
                killCopies.remove(at: index)
            } else if !stillThere {
                if deliveredNow { copiesRemovedByNextDelivery += 1 } else { copiesGoneOtherwise += 1 }
                killCopies.remove(at: index)
            } else if let withdrawnAt = copy.withdrawnAt, count > withdrawnAt {
                fail("\(context): a killed delivery's copy of withdrawn job \(copy.jobId) (article \(copy.article)) is still at \(place) \(copy.location) after \(count - withdrawnAt) later deliveries there")
                killCopies.remove(at: index)  // reported once
            }
        }
        // Every file is the delivered one or an allowed copy; a new copy appears only after a kill.
        for file in files.audio {
            if let recorded, file.location == recorded.location, file.sha256 == recorded.sha256 { continue }
            if isCopy(file, of: article) { continue }
            // Two exports of the same chunks in the same profile have the same bytes: prefer the live one.
            let sources = jobs.values.filter { $0.sha256 == file.sha256 && exportedSamples[$0.id] != nil }
            let source = sources.first { !retiredBeforeStep.contains($0.id) } ?? sources.first
            if killed, let source, !retiredBeforeStep.contains(source.id) {
                killCopies.append(KillCopy(article: article, place: place, location: file.location, sha256: file.sha256, jobId: source.id,
                                           withdrawnAt: source.state == "retired" ? count : nil))
                copiesLeft += 1
                continue
            }
            let what = source.map { "a copy of job \($0.id) (\($0.state)\($0.retiredReason.map { ", \($0)" } ?? ""))" } ?? "bytes of no export of the article"
            fail("\(context): \(place) holds \(file.location), \(what), which is neither the delivered file nor a killed delivery's copy")
        }
        // Sidecars: beside an audio file, or left alone by a kill until the next delivery there.
        let stems = Set(files.audio.map { stem($0.location) })
        for index in loneSidecars.indices.reversed() where loneSidecars[index].place == place {
            let lone = loneSidecars[index]
            guard everything[lone.article]?.sidecars.contains(lone.location) == true else { loneSidecars.remove(at: index); continue }
            if count > lone.leftAt, !(everything[lone.article]?.audio.contains { stem($0.location) == stem(lone.location) } ?? false) {
                fail("\(context): a sidecar without audio, \(lone.location) (article \(lone.article)), is still at \(place) after a later delivery there")
                loneSidecars.remove(at: index)
            }
        }
        for sidecar in files.sidecars where !stems.contains(stem(sidecar)) {
            if loneSidecars.contains(where: { $0.place == place && $0.location == sidecar }) { continue }
            if killed {
                loneSidecars.append(LoneSidecar(article: article, place: place, location: sidecar, leftAt: count))
                loneSidecarsLeft += 1
                continue
            }
            fail("\(context): \(place) holds the sidecar \(sidecar) beside no audio file")
        }
        // One file per article, besides what kills left (every article, so that a later sequence's
        // deliveries cannot disturb an earlier article's file unseen).
        for (id, theirs) in everything {
            let copies = killCopies.filter { $0.article == id && $0.place == place }.count
            let lone = loneSidecars.filter { $0.article == id && $0.place == place }.count
            check(theirs.audio.count <= 1 + copies, "\(context): \(place) holds \(theirs.audio.count) audio files of article \(id): \(theirs.audio.map(\.location))")
            check(theirs.sidecars.count <= 1 + copies + lone, "\(context): \(place) holds \(theirs.sidecars.count) sidecars of article \(id): \(theirs.sidecars)")
        }
    }

    /// The article's state as `narrate list --json` shows it; it must be the one last read.
    func listedState(compare: Bool) throws {
        let listing = try narrate.run("list", "--json")
        try need(listing.status == 0, "\(context): list: \(listing.stderr)")
        let articles = try need(try listing.json() as? [[String: Any]])
        let listed = try need(articles.first { $0["id"] as? String == article }?["state"] as? String)
        check(!compare || listed == state, "\(context): list says \(listed), the catalog said \(state)")
        state = listed
    }

    /// The catalog's record of the article's current file at each destination.
    func recordedDeliveries() throws -> [Place: RecordedDelivery] {
        let text = try Signals.run("sqlite3", [
            "-cmd", ".timeout 10000", "-readonly", "-json", catalogPath,
            "SELECT destination, jobId, audioLocation, sha256, deliveredAt FROM delivery WHERE articleId = '\(article)'",
        ])
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return [:] }
        let rows = try need(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        var result: [Place: RecordedDelivery] = [:]
        for row in rows {
            guard let destination = row["destination"] as? String, let jobId = row["jobId"] as? String,
                let location = row["audioLocation"] as? String, let sha256 = row["sha256"] as? String
            else { continue }
            result[place(ofDestination: destination)] = RecordedDelivery(
                jobId: jobId, location: location, sha256: sha256, deliveredAt: "\(row["deliveredAt"] ?? "")")
        }
        return result
    }

    /// No temporary file in the outbox and no job left exporting.
    func checkOutboxClean(_ when: String) throws {
        checkNoPartials(in: narrate.home.appendingPathComponent("outbox"), "the outbox \(when)")
        let exporting = try Signals.run("sqlite3", ["-cmd", ".timeout 10000", "-readonly", catalogPath, "SELECT id FROM outbox WHERE state = 'exporting'"])
        check(exporting.isEmpty, "\(context): jobs still exporting \(when): \(exporting)")
    }

    func checkNoPartials(in folder: URL, _ what: String) {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            check(!url.lastPathComponent.hasSuffix(".narrate-partial"), "\(context): \(url.path) left in \(what)")
        }
    }

    /// The chunks as `chunks --json` lists them, with the samples of each new chunk file.
    func readChunks() throws {
        let result = try narrate.run("chunks", "--json", "--article", article)
        try need(result.status == 0, "\(context): chunks: \(result.stderr)")
        let list = try need(try result.json() as? [[String: Any]])
        chunks = try list.map { chunk in
            let id = try need(chunk["id"] as? String)
            let file = try need(chunk["file"] as? String)
            let frames = try need(chunk["frames"] as? Int)
            if samplesByChunk[id] == nil {
                let samples = try SoundFileReader(path: file).readAll()
                check(samples.count == frames, "\(context): chunk \(id) has \(samples.count) samples, not \(frames)")
                samplesByChunk[id] = samples
            }
            return (id, file, frames)
        }
    }

    static func printFigures(_ runs: [ArticleLifeRun], seconds: Double) {
        func sum(_ value: (ArticleLifeRun) -> Int) -> Int { runs.reduce(0) { $0 + value($1) } }
        var steps: [String: Int] = [:]
        for run in runs { steps.merge(run.steps, uniquingKeysWith: +) }
        let kinds = steps.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let folder = sum { $0.deliveriesTo[.folder, default: 0] }
        let s3 = sum { $0.deliveriesTo[.bucket, default: 0] }
        let sequences = ArticleLifeFuzzTests.sequences
        print("figure: article-life fuzz: \(sequences) sequences, \(steps.values.reduce(0, +)) steps (\(kinds)) and a final push each, in \(String(format: "%.0f", seconds)) s on \(runs.count) workers")
        print("figure: article-life fuzz: \(sum(\.kills)) kill -9s landed of \(sum(\.killsTried)) tried (the others had ended)")
        print("figure: article-life fuzz: \(folder + s3) deliveries recorded (folder \(folder), S3 \(s3)); \(sum(\.exportsChecked)) exports decoded, each equal to its chunks")
        print("figure: article-life fuzz: \(sum(\.copiesLeft)) copies left at a destination by killed deliveries: \(sum(\.copiesRemovedByNextDelivery)) removed by the next delivery there, \(sum(\.copiesDeliveredLater)) became the delivered file, \(sum(\.copiesGoneOtherwise)) gone otherwise, \(sum { $0.killCopies.count }) still there (exports not withdrawn); \(sum(\.loneSidecarsLeft)) sidecars left without audio")
        print("figure: article-life fuzz: \(sum(\.bytesTwice)) bytes delivered twice (\(sum(\.deliveriesTwice)) first attempts to S3 of an object the bucket already held at that key, not on record there); \(sum(\.resendsSkipped)) S3 deliveries and \(sum(\.copiesSkipped)) folder deliveries found the file there and sent nothing")
        print("figure: article-life fuzz: prune removed the chunks of \(sum(\.pruned)) articles and refused \(sum(\.pruneRefused)) times")
    }
}
