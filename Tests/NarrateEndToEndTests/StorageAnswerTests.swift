import Foundation
import Glibc
import NarrationTestSupport
import Testing

/// A storage server that takes the connection and never answers: each request gives up after
/// a bounded wait, says so, and is retried with a line on stderr.
@Suite("A storage server that never answers")
struct StorageAnswerTests {
    @Test("submit gives up on each request after NARRATE_STORAGE_ANSWER_TIMEOUT, says the storage did not answer, and retries with a line")
    func neverAnswers() throws {
        let server = try SilentListener()
        let fixture = try EndToEndFixture()
        var environment = fixture.devices.environment.merging(ObjectStorageServer.credentialsEnvironment) { $1 }
        environment["NARRATE_STORAGE_ANSWER_TIMEOUT"] = "1"
        let narrate = Narrate(home: fixture.narrate.home, environment: environment)
        #expect(try narrate.run("new", "Silent").status == 0)
        #expect(try narrate.run("record", "--device", "vmic", "--duration", "0.3").status == 0)
        let endpoint = "http://127.0.0.1:\(server.port)"
        let started = monotonicNow()
        let result = try narrate.run(
            "submit", "--to", "s3://radio/x", "--endpoint", endpoint, "--path-style", "--attempts", "2", "--retry-wait", "0", "--progress", "none")
        let seconds = monotonicNow() - started
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let silence = "The storage at \(endpoint) did not answer in 1 s while "
        let retries = lines.filter { $0.hasSuffix("Trying again in 0 s.") }
        #expect(retries.count == 1 && retries.first?.contains(silence) == true, "\(result.stderr)")
        #expect(lines.last?.contains(silence) == true && lines.last?.hasSuffix("Trying again in 0 s.") == false, "\(result.stderr)")
        #expect(seconds < 20, "submit took \(seconds) s for two requests of a 1 s wait")
        print("figure: submit to a storage that never answers, 2 attempts of a 1 s answer wait: ended after \(String(format: "%.1f", seconds)) s")
    }
}
