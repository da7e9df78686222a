import Foundation
import Glibc
import NarrationTestSupport
import Testing

/// `narrate submit --to s3://…`, `outbox push`, `outbox list` and `prune` against SeaweedFS.
@Suite("narrate submit to S3, outbox push and prune", .serialized)
struct ObjectStorageCommandTests {
    /// A fixture whose narrate has the server's key pair, and whose config.toml has a WAV profile.
    private func fixture(source: [UInt8]? = nil, credentials: Bool = true) throws -> (EndToEndFixture, Narrate) {
        let fixture = try EndToEndFixture(source: source)
        return (fixture, try fixture.narrateWithWAVProfile(credentials: credentials))
    }

    private func outbox(_ narrate: Narrate) throws -> [[String: Any]] {
        let listing = try narrate.run("outbox", "list", "--json")
        try #require(listing.status == 0, "\(listing.stderr)")
        return try #require(try listing.json() as? [[String: Any]])
    }

    @Test("submit --to s3:// stores the file and sidecar; outbox list shows the key; prune then frees the chunks")
    func submitAndPrune() throws {
        let server = try ObjectStorageServer(buckets: ["radio"])
        let (fixture, narrate) = try fixture()
        let created = try narrate.run("new", "Hafen & Haus 港口", "--json")
        try #require(created.status == 0, "\(created.stderr)")
        let id = try #require(try created.json() as? [String: Any])["id"] as? String
        for _ in 0..<2 { #expect(try narrate.run("record", "--device", "vmic", "--duration", "0.5").status == 0) }

        let early = try narrate.run("prune", "--article", id ?? "")
        #expect(early.status == 64)
        #expect(early.stderr.contains("has no confirmed delivery of its chunks as they are: it has not been queued yet. Prune removes recordings only after one"))

        let submit = try narrate.run("submit", "--to", "s3://radio/narrations", "--endpoint", server.endpoint, "--path-style")
        #expect(submit.status == 0, "\(submit.stderr)")
        let date = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        let key = "narrations/Daily Post/\(date)/Hafen & Haus 港口-\(id ?? "").flac"
        #expect(submit.stdout == "Delivered Hafen & Haus 港口-\(id ?? "").flac to s3://radio/\(key) (size, ETag and SHA-256 checked).\n")
        let objects = try server.objects(in: "radio").map(\.key).sorted()
        #expect(objects == [key, String(key.dropLast(4)) + "json"])
        let job = try #require(try outbox(narrate).first)
        #expect(job["state"] as? String == "delivered" && job["attempts"] as? Int == 1)
        #expect(job["remotePath"] as? String == "s3://radio/\(key)" && job["destination"] as? String == "s3://radio/narrations")
        let file = try #require(job["file"] as? String)
        #expect(try server.contents(of: key, in: "radio") == Data(contentsOf: URL(fileURLWithPath: file)))
        let listing = try narrate.run("outbox", "list")
        #expect(listing.stdout.contains("delivered Hafen & Haus 港口-\(id ?? "").flac  attempts 1  → s3://radio/\(key)"))

        let pruned = try narrate.run("prune", "--all", "--json")
        try #require(pruned.status == 0, "\(pruned.stderr)")
        let result = try #require(try pruned.json() as? [[String: Any]])
        #expect(pruned.status == 0 && result.count == 1 && result.first?["chunks"] as? Int == 2)
        #expect(result.first?["bytes"] as? Int == 2 * (44 + 22_050 * 2))
        #expect(try fixture.recordings().isEmpty)
        let list = try narrate.run("list", "--json")
        try #require(list.status == 0, "\(list.stderr)")
        #expect(try #require(try list.json() as? [[String: Any]]).first?["state"] as? String == "pruned")
        #expect(FileManager.default.fileExists(atPath: file))  // the delivered export stays in the outbox
    }

    @Test("the server killed mid-multipart: submit fails and says so; after a restart, outbox push completes one identical object")
    func killedMidMultipart() throws {
        let server = try ObjectStorageServer(buckets: ["radio"])
        let proxy = try FaultProxy(to: server, options: ["--rate", "12000000"])  // 12 MB/s: the upload takes about 2 s
        let (fixture, narrate) = try fixture(source: Signals.noise(seconds: 260, seed: 11))
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the data root and the devices
        _ = try narrate.run("new", "Long read")
        #expect(try narrate.run("record", "--device", "vmic", "--duration", "250").status == 0)
        let running = try narrate.start([
            "submit", "--profile", "wav", "--to", "s3://radio/long", "--endpoint", proxy.endpoint, "--path-style", "--progress", "json",
            "--attempts", "1",
        ])
        let midway = running.waitForStderrLine { line in
            guard line.contains("\"stage\":\"upload\""), let data = line.data(using: .utf8),
                let event = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let done = event["done"] as? Int
            else { return false }
            return done > 12_000_000
        }
        #expect(midway != nil)
        server.kill()
        let failed = running.wait()
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("The file stays in the outbox; \"narrate outbox push\" tries again."))
        let waiting = try #require(try outbox(narrate).first)
        #expect(waiting["state"] as? String == "queued" && waiting["attempts"] as? Int == 1)
        #expect((waiting["lastError"] as? String)?.contains(proxy.endpoint) == true)

        try server.start()
        let push = try narrate.run("outbox", "push", "--json")
        #expect(push.status == 0, "\(push.stderr)")
        let pushed = try #require(try push.json() as? [String: Any])
        let delivered = try #require((pushed["delivered"] as? [[String: Any]])?.first)
        #expect(delivered["attempts"] as? Int == 2 && (pushed["waiting"] as? [Any])?.isEmpty == true)
        let objects = try server.objects(in: "radio")
        #expect(objects.count == 2)
        let audio = try #require(objects.first { $0.key.hasSuffix(".wav") })
        let file = URL(fileURLWithPath: try #require(delivered["file"] as? String))
        #expect(audio.etag.hasSuffix("-3") && audio.contentType == "audio/wav")
        #expect(try server.contents(of: audio.key, in: "radio") == Data(contentsOf: file))
        #expect(try server.unfinishedUploads(in: "radio") == 0)
    }

    @Test("a 503 twice: outbox push waits, says so, and delivers on the third try")
    func retriesServiceUnavailable() throws {
        let server = try ObjectStorageServer(buckets: ["radio"])
        let proxy = try FaultProxy(to: server, options: ["--fail", "2", "--status", "503"])
        let (fixture, narrate) = try fixture()
        defer { withExtendedLifetime(fixture) {} }
        _ = try narrate.run("new", "Short")
        let recorded = try narrate.run("record", "--device", "vmic", "--duration", "0.3")
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let queued = try narrate.run("queue")
        #expect(queued.status == 0, "\(queued.stderr)")
        let push = try narrate.run("outbox", "push", "--to", "s3://radio", "--endpoint", proxy.endpoint, "--path-style", "--retry-wait", "0.2")
        #expect(push.status == 0, "\(push.stderr)")
        let retries = push.stderr.split(separator: "\n").filter { $0.contains("Trying again in") }
        #expect(retries.count == 2)
        // The first try's PUT gets the error body; the retry begins with a HEAD, whose answer has none.
        #expect(retries.first?.contains("(503 ServiceUnavailable: Please reduce your request rate).") == true)
        #expect(retries.last?.contains("(503 Service Unavailable).") == true)
        #expect(retries.first?.hasSuffix("Trying again in 0.2 s.") == true && retries.last?.hasSuffix("Trying again in 0.4 s.") == true)
        #expect(try outbox(narrate).first?["attempts"] as? Int == 3)
        #expect(try server.objects(in: "radio").count == 2)
    }

    @Test("wrong secret, no credentials and a credentials file others can read: one sentence each, exit 1, the job stays queued")
    func credentialFailures() throws {
        let server = try ObjectStorageServer(buckets: ["radio"])
        let (fixture, narrate) = try fixture(credentials: false)
        _ = try narrate.run("new", "Short")
        _ = try narrate.run("record", "--device", "vmic", "--duration", "0.3")
        let before = try fixture.recordings()
        let target = ["--to", "s3://radio/x", "--endpoint", server.endpoint, "--path-style"]

        let none = try narrate.run(["submit"] + target)
        let home = narrate.environment["HOME"] ?? ""
        #expect(none.status == 1)
        #expect(none.stderr == "No credentials for s3://radio/x: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or write them to \(home)/.aws/credentials (readable by you only: chmod 600).\n")

        let credentials = URL(fileURLWithPath: home).appendingPathComponent(".aws/credentials")
        try FileManager.default.createDirectory(at: credentials.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[default]\naws_access_key_id = \(ObjectStorageServer.accessKeyID)\naws_secret_access_key = not-the-secret\n"
            .write(to: credentials, atomically: true, encoding: .utf8)
        chmod(credentials.path, 0o644)
        let open = try narrate.run(["submit"] + target)
        #expect(open.status == 1)
        #expect(open.stderr == "The credentials file \(credentials.path) can be read by others (mode 644); narrate uses it only when just you can: chmod 600 \(credentials.path)\n")

        chmod(credentials.path, 0o600)
        let wrong = try narrate.run(["submit"] + target)
        #expect(wrong.status == 1)
        #expect(wrong.stderr == "The storage at \(server.endpoint) knows the access key ID \"\(ObjectStorageServer.accessKeyID)\" but not its secret (SignatureDoesNotMatch). Check AWS_SECRET_ACCESS_KEY or the credentials file.\n")
        let job = try #require(try outbox(narrate).first)
        #expect(job["state"] as? String == "queued" && job["attempts"] as? Int == 1 && (job["lastError"] as? String)?.contains("SignatureDoesNotMatch") == true)

        try "[default]\naws_access_key_id = \(ObjectStorageServer.accessKeyID)\naws_secret_access_key = \(ObjectStorageServer.secretAccessKey)\n"
            .write(to: credentials, atomically: false, encoding: .utf8)
        let push = try narrate.run("outbox", "push")
        #expect(push.status == 0 && push.stdout.hasSuffix("Delivered 1 file; 0 still waiting.\n"), "\(push.stderr)")
        #expect(try server.objects(in: "radio").count == 2)
        #expect(try fixture.recordings() == before)
    }
}
