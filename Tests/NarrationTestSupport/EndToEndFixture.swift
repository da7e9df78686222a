public import Foundation
import Narration
public import NarrationCore

/// A data root, virtual devices and the `narrate` binary to drive them with.
public struct EndToEndFixture {
    public let folder = TemporaryFolder("narrate-e2e")
    public let devices: VirtualDevices
    public let source: [UInt8]
    public let narrate: Narrate

    public init(source: [UInt8]? = nil, environment: [String: String] = [:]) throws {
        self.source = try source ?? Signals.speech(.speech, seconds: 6)
        devices = try VirtualDevices(folder: folder.url, source: self.source)
        narrate = Narrate(home: folder.url.appendingPathComponent("home"), environment: devices.environment.merging(environment) { $1 })
    }

    /// A `narrate` on this fixture's data root and devices whose config.toml names the publication
    /// "Daily Post" and a lossless `wav` profile (archive's mastering, WAV), with the test S3
    /// server's key pair when `credentials`.
    public func narrateWithWAVProfile(credentials: Bool) throws -> Narrate {
        let config = folder.file("config/narrate")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try """
            publication = "Daily Post"

            [profiles.wav]
            base = "archive"
            format = "wav"
            """.write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        var environment = devices.environment
        environment["XDG_CONFIG_HOME"] = folder.file("config").path
        if credentials { environment.merge(ObjectStorageServer.credentialsEnvironment) { $1 } }
        return Narrate(home: narrate.home, environment: environment)
    }

    /// A `narrate` on this fixture's data root and devices whose config.toml is `text`.
    public func narrate(config text: String) throws -> Narrate {
        let config = folder.file("config/narrate")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try text.write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        var environment = devices.environment
        environment["XDG_CONFIG_HOME"] = folder.file("config").path
        return Narrate(home: narrate.home, environment: environment)
    }

    /// Waits (at most 60 s) until no background command that `narrate record` started on this
    /// data root (`script --check --after-take`) still runs: one still running would write into
    /// a data root the test is about to replace.
    public func waitForBackgroundCommands() {
        let marker = Data("NARRATE_HOME=\(narrate.home.path)\0".utf8)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let running = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { name in
                guard Int32(name) != nil,
                      let command = FileManager.default.contents(atPath: "/proc/\(name)/cmdline"),
                      command.range(of: Data("--after-take".utf8)) != nil,
                      let environment = FileManager.default.contents(atPath: "/proc/\(name)/environ")
                else { return false }
                return environment.range(of: marker) != nil
            }
            if running.isEmpty { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// `narrate new TITLE --json`, returning the article id.
    public func newArticle(_ title: String = "An article", _ extra: String...) throws -> String {
        let result = try narrate.run(["new", title, "--json"] + extra)
        guard result.status == 0, let object = try result.json() as? [String: Any], let id = object["id"] as? String else {
            throw FixtureError("narrate new failed: \(result.stderr)")
        }
        return id
    }

    /// Attaches `text` to the article `id` names, through the engine on this fixture's data root
    /// (as `narrate script FILE` would).
    public func attachText(_ text: [ScriptParagraph], to id: String) throws {
        let library = try NarrationLibrary(root: DataRoot(url: narrate.home))
        _ = try library.attachText(text, to: try library.article(id), file: "text.md")
    }

    /// Records `seconds` from the virtual microphone.
    @discardableResult
    public func record(_ seconds: Double, _ extra: String...) throws -> Narrate.Result {
        try narrate.run(["record", "--device", "vmic", "--duration", "\(seconds)"] + extra)
    }

    /// `narrate chunks --json`.
    public func chunks(_ extra: String...) throws -> [[String: Any]] {
        let result = try narrate.run(["chunks", "--json"] + extra)
        guard result.status == 0, let chunks = try result.json() as? [[String: Any]] else {
            throw FixtureError("narrate chunks failed: \(result.stderr)")
        }
        return chunks
    }

    /// Every chunk file's bytes, by path: what must stay untouched when a command fails.
    public func recordings() throws -> [String: Data] {
        let articles = narrate.home.appendingPathComponent("articles")
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: articles, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            if url.pathExtension == "wav" { files[url.path] = try Data(contentsOf: url) }
        }
        return files
    }

    public func sourceSamples(frames: Int) -> [Int32] {
        Signals.samples(Array(source.prefix(frames * 2)), bitsPerSample: 16)
    }
}
