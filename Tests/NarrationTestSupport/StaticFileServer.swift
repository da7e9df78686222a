public import Foundation
import Glibc

/// A folder served over HTTP on loopback by Python's `http.server`, as a reading service's web
/// server would serve a delivery folder: what podcast clients fetch in the feed tests.
public final class StaticFileServer: @unchecked Sendable {
    public let port: Int
    private let process: ChildProcess
    private let log = TemporaryFolder("narrate-http")

    /// The folder's address, ending in "/".
    public var url: String { "http://127.0.0.1:\(port)/" }

    public init(serving folder: URL) throws {
        port = try ObjectStorageServer.freePorts(1)[0]
        process = try ChildProcess(
            "python3", ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", folder.path],
            environment: ProcessInfo.processInfo.environment, stdoutFile: nil, stderrFile: log.file("http.log"))
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if ObjectStorageServer.answersHTTP(port: port) { return }
            usleep(100_000)
        }
        throw FixtureError("python3 -m http.server did not start within 20 s")
    }

    deinit {
        process.signal(SIGTERM)
        _ = process.wait()
    }
}

/// Podcast clients reading a feed: `Tests/Fixtures/feedcheck.py` under Debian's python3, with
/// feedparser, podcastparser (gPodder's) and jsonschema.
public enum FeedClients {
    /// What the clients made of the feed at `url` (see feedcheck.py for the fields).
    public static func read(_ url: String) throws -> [String: Any] {
        let output = try Signals.run("/usr/bin/python3", [
            ObjectStorageServer.fixture("feedcheck.py").path, url, ObjectStorageServer.fixture("podcast-chapters.schema.json").path,
        ])
        guard let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] else {
            throw FixtureError("feedcheck.py printed no JSON object: \(output)")
        }
        return object
    }
}
