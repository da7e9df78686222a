import Foundation
import NarrationAudio
import NarrationTestSupport
import Testing

@Suite("narrate check, queue, submit, outbox and config.toml")
struct DeliveryCommandTests {
    @Test("check reports levels and, with a profile, passes or fails each rule with the exit status")
    func check() throws {
        let fixture = try EndToEndFixture(source: Signals.sine(frequency: 1_000, peakDBFS: -6, seconds: 2))
        _ = try fixture.newArticle()
        try fixture.record(1.5)
        let report = try fixture.narrate.run("check", "--json")
        #expect(report.status == 0)
        let json = try #require(try report.json() as? [String: Any])
        #expect(abs((json["peakDB"] as? Double ?? 0) - -6) <= 0.1 && abs((json["rmsDB"] as? Double ?? 0) - -9) <= 0.1)
        #expect(json["duration"] as? Double == 1.5)

        let acx = try fixture.narrate.run("check", "--profile", "acx")
        #expect(acx.status == 1)
        #expect(acx.stdout.contains("  pass  peak at most -3.0 dB: -6.0 dB"))
        #expect(acx.stdout.contains("  FAIL  RMS -23.0 to -18.0 dB: -9.0 dB"))
        #expect(acx.stderr.hasPrefix("\"An article\" does not meet the acx profile: RMS -23.0 to -18.0 dB (measured -9.0 dB)"))

        let missing = try fixture.narrate.run("check", fixture.folder.file("nothing.mp3").path)
        #expect(missing.status == 1 && missing.stderr == "There is no file \(fixture.folder.file("nothing.mp3").path).\n")
        let unknown = try fixture.narrate.run("check", "--profile", "radio")
        #expect(unknown.status == 64 && unknown.stderr.contains("There is no profile \"radio\". Use one of archive, librivox, acx, podcast, mobile, telephone."))
    }

    @Test("queue, then submit with the configured destination and profile, then the outbox shows it delivered")
    func queueAndSubmit() throws {
        let fixture = try EndToEndFixture()
        let config = fixture.folder.file("config")
        let share = fixture.folder.file("share")
        try FileManager.default.createDirectory(at: config.appendingPathComponent("narrate"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        try """
            narrator = "Ann Lee"
            publication = "Daily Post"
            profile = "org"
            destination = "\(share.path)"

            [profiles.org]
            base = "archive"
            format = "wav"
            """.write(to: config.appendingPathComponent("narrate/config.toml"), atomically: true, encoding: .utf8)
        let narrate = Narrate(home: fixture.narrate.home, environment: fixture.devices.environment.merging(["XDG_CONFIG_HOME": config.path]) { $1 })
        let created = try #require(try narrate.run("new", "Budget", "--json").json() as? [String: Any])
        #expect(created["narrator"] as? String == "Ann Lee" && created["publication"] as? String == "Daily Post")
        let id = try #require(created["id"] as? String)
        #expect(try narrate.run("record", "--device", "vmic", "--duration", "0.5").status == 0)

        let queued = try narrate.run("queue")
        #expect(queued.status == 0, "\(queued.stderr)")
        #expect(queued.stdout.hasPrefix("Queued \"Budget\" (00:00:00.500, org) as \(narrate.home.path)/outbox/"))
        #expect(queued.stdout.contains("/Budget-\(id).wav.\n"))
        #expect(try narrate.run("chunks").stderr.hasPrefix("There is no current article."))

        let submitted = try narrate.run("submit", "--article", id)
        #expect(submitted.status == 0, "\(submitted.stderr)")
        let delivered = share.appendingPathComponent("Daily Post/\(DateFormatter.day.string(from: Date()))/Budget-\(id).wav")
        #expect(submitted.stdout == "Delivered Budget-\(id).wav to \(delivered.path) (SHA-256 checked).\n")
        #expect(try SoundFileReader(path: delivered.path).readAll() == fixture.sourceSamples(frames: 22_050))
        let outbox = try #require(try narrate.run("outbox", "list", "--json").json() as? [[String: Any]])
        #expect(outbox.count == 1 && outbox[0]["state"] as? String == "delivered" && outbox[0]["attempts"] as? Int == 1)
        #expect(try narrate.run("list", "--json").stdout.contains("\"state\" : \"delivered\""))
    }

    @Test("a broken config.toml is named with its line; no destination is a usage error")
    func brokenConfig() throws {
        let fixture = try EndToEndFixture()
        let config = fixture.folder.file("config")
        try FileManager.default.createDirectory(at: config.appendingPathComponent("narrate"), withIntermediateDirectories: true)
        let file = config.appendingPathComponent("narrate/config.toml")
        try "narrator = Ann\n".write(to: file, atomically: true, encoding: .utf8)
        let narrate = Narrate(home: fixture.narrate.home, environment: fixture.devices.environment.merging(["XDG_CONFIG_HOME": config.path]) { $1 })
        let broken = try narrate.run("new", "Anything")
        #expect(broken.status == 64)
        #expect(broken.stderr == "\(file.path), line 1: Ann is not a value narrate understands (a string in quotes, a number, true or false). Fix the line or remove it.\n")
        try FileManager.default.removeItem(at: file)
        _ = try fixture.newArticle()
        try fixture.record(0.2)
        let noDestination = try narrate.run("submit")
        #expect(noDestination.status == 64)
        #expect(noDestination.stderr == "No destination: pass --to FOLDER or --to s3://BUCKET/PREFIX, or set destination in \(file.path).\n")
        let missingShare = fixture.folder.file("not-mounted")
        let unmounted = try narrate.run("submit", "--to", missingShare.path)
        #expect(unmounted.status == 1)
        #expect(unmounted.stderr == "The destination folder \(missingShare.path) does not exist (is the share mounted?).\n")
        #expect(try narrate.run("outbox", "list").stdout == "The outbox is empty. Queue an article with: narrate queue\n")  // nothing exported
    }
}

extension DateFormatter {
    static var day: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter
    }
}
