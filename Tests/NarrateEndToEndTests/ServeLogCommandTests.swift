import Foundation
import NarrationTestSupport
import Testing

/// `narrate serve --log json` through the binary: a reading service writes its log on stderr as
/// JSON lines (serving, then stopping at SIGINT); a personal studio refuses the option.
@Suite("narrate serve --log json")
struct ServeLogCommandTests {
    static func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }

    @Test("serving and stopping, each one JSON line on stderr with its address and catalog")
    func servingAndStopping() throws {
        let fixture = try EndToEndFixture()
        let added = try fixture.narrate.run(["accounts", "add", "ann", "--role", "admin"])
        #expect(added.status == 0, "\(added.stderr)")
        let running = try fixture.narrate.start(["serve", "--listen", "127.0.0.1:0", "--log", "json"])
        let serving = try Self.object(try #require(running.waitForStderrLine { $0.contains(#""message":"serving""#) }))
        #expect(serving["level"] as? String == "info")
        #expect((serving["address"] as? String)?.hasPrefix("http://127.0.0.1:") == true)
        #expect(serving["catalog"] as? String == "sqlite")
        #expect((serving["time"] as? String)?.hasSuffix("Z") == true)
        running.signal(SIGINT)
        let result = running.wait()
        #expect(result.status == 0, "\(result.stderr)")
        let stopping = try #require(result.stderr.split(separator: "\n").first { $0.contains(#""message":"stopping""#) })
        #expect(try Self.object(String(stopping))["studios"] as? String == "0")
        for line in result.stderr.split(separator: "\n") where line.hasPrefix("{") {
            _ = try Self.object(String(line))
        }
    }

    @Test("a take recorded before the service started is copied to [service] recordings by its first round, logged as stored, byte for byte")
    func recordingsCopiedAtStart() throws {
        let fixture = try EndToEndFixture()
        let store = fixture.folder.url.appendingPathComponent("recordings-store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        let narrate = try fixture.narrate(config: "[service]\nrecordings = \"\(store.path)\"\n")
        #expect(try narrate.run(["accounts", "add", "ann", "--role", "admin"]).status == 0)
        #expect(try narrate.run(["new", "Harbour news"]).status == 0)
        let take = try narrate.run(["record", "--device", "vmic", "--duration", "0.5"])
        #expect(take.status == 0, "\(take.stderr)")
        fixture.waitForBackgroundCommands()
        let held = try fixture.recordings()
        let (name, bytes) = try #require(held.first { $0.key.contains("/chunks/") })
        let running = try narrate.start(["serve", "--listen", "127.0.0.1:0", "--log", "json"])
        let stored = try Self.object(try #require(running.waitForStderrLine { $0.contains(#""message":"chunk stored""#) }))
        let chunk = try #require(stored["chunk"] as? String)
        let article = try #require(stored["article"] as? String)
        #expect(name.hasSuffix("\(chunk).wav"))
        #expect(stored["bytes"] as? String == "\(bytes.count)")
        #expect(stored["since_kept_ms"] as? String == "", "kept before this service started")
        #expect(try Data(contentsOf: store.appendingPathComponent("articles/\(article)/\(chunk).wav")) == bytes)
        running.signal(SIGINT)
        let result = running.wait()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("chunk copy failed"), "\(result.stderr)")
    }

    @Test("a personal studio (no accounts) refuses [service] recordings with one sentence naming the fix")
    func personalStudioRefusesRecordings() throws {
        let fixture = try EndToEndFixture()
        let narrate = try fixture.narrate(config: "[service]\nrecordings = \"\(fixture.folder.url.path)/store\"\n")
        let result = try narrate.run(["serve", "--listen", "127.0.0.1:0"])
        #expect(result.status == 64)
        #expect(
            result.stderr.contains(
                "recordings in config.toml's [service] is for a reading service, and this library has no accounts yet: add the first with narrate accounts add NAME --role admin, or remove the setting."),
            "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test("a personal studio (no accounts) refuses --log with one sentence")
    func personalStudio() throws {
        let fixture = try EndToEndFixture()
        let result = try fixture.narrate.run(["serve", "--listen", "127.0.0.1:0", "--log", "json"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--log is for a reading service, and this library has no accounts yet"), "\(result.stderr)")
    }
}
