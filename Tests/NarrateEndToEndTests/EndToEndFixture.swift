import Foundation
import NarrationCore
import NarrationTestSupport
import Testing

/// A data root, virtual devices and the `narrate` binary to drive them with.
struct EndToEndFixture {
    let folder = TemporaryFolder("narrate-e2e")
    let devices: VirtualDevices
    let source: [UInt8]
    let narrate: Narrate

    init(source: [UInt8]? = nil, environment: [String: String] = [:]) throws {
        self.source = try source ?? Signals.speech(.speech, seconds: 6)
        devices = try VirtualDevices(folder: folder.url, source: self.source)
        narrate = Narrate(home: folder.url.appendingPathComponent("home"), environment: devices.environment.merging(environment) { $1 })
    }

    /// `narrate new TITLE --json`, returning the article id.
    func newArticle(_ title: String = "An article", _ extra: String...) throws -> String {
        let result = try narrate.run(["new", title, "--json"] + extra)
        try #require(result.status == 0, "narrate new failed: \(result.stderr)")
        let object = try #require(try result.json() as? [String: Any])
        return try #require(object["id"] as? String)
    }

    /// Records `seconds` from the virtual microphone.
    @discardableResult
    func record(_ seconds: Double, _ extra: String...) throws -> Narrate.Result {
        try narrate.run(["record", "--device", "vmic", "--duration", "\(seconds)"] + extra)
    }

    /// `narrate chunks --json`.
    func chunks(_ extra: String...) throws -> [[String: Any]] {
        let result = try narrate.run(["chunks", "--json"] + extra)
        try #require(result.status == 0, "narrate chunks failed: \(result.stderr)")
        return try #require(try result.json() as? [[String: Any]])
    }

    /// Every chunk file's bytes, by path: what must stay untouched when a command fails.
    func recordings() throws -> [String: Data] {
        let articles = narrate.home.appendingPathComponent("articles")
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: articles, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            if url.pathExtension == "wav" { files[url.path] = try Data(contentsOf: url) }
        }
        return files
    }

    func sourceSamples(frames: Int) -> [Int32] {
        Signals.samples(Array(source.prefix(frames * 2)), bitsPerSample: 16)
    }
}
