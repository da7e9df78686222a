import Foundation
import NarrationAudio
import NarrationTestSupport
import Testing

/// The data root on a small tmpfs that fills up during a real-time take (through PulseAudio,
/// 48 kHz stereo: 188 KiB a second), then, once another program has taken the last bytes, a
/// queue and an export onto the full disk.
@Suite("A full disk under the data root", .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
struct FullDiskTests {
    @Test("a real-time take stops by itself, keeps what was written and says so; queue and export then leave no partial file")
    func fullDataRoot() throws {
        let mount = try TemporaryMount(sizeKiB: 1_024)
        let pulse = try PulseServer(rate: 48_000, channels: 2)
        let fixture = try EndToEndFixture(environment: pulse.environment)
        let narrate = Narrate(home: mount.url.appendingPathComponent("home"), environment: fixture.devices.environment.merging(pulse.environment) { $1 })
        #expect(try narrate.run("new", "Long read", "--rate", "48000", "--channels", "2").status == 0)

        let started = monotonicNow()
        let take = try narrate.run("record")  // no duration: only the full disk stops it
        let wall = monotonicNow() - started
        #expect(take.status == 1)
        #expect(take.stderr.hasPrefix("The disk holding \(mount.url.path)/home/articles/"), "\(take.stderr)")
        #expect(take.stderr.contains(" is full (No space left on device). Recording stopped; the "))
        #expect(take.stderr.hasSuffix(" captured before that was kept as chunk 1.\n"))
        let chunks = try #require(try narrate.run("chunks", "--json").json() as? [[String: Any]])
        let frames = try #require(chunks.first?["frames"] as? Int)
        let file = try #require(chunks.first?["file"] as? String)
        #expect(frames > 48_000 * 2, "more than 2 s kept of about 4 s that fit")
        #expect(try SoundFileReader(path: file).frames == frames)
        print("figure: full disk (1 MiB tmpfs, 48 kHz stereo through PulseAudio): the take stopped after \(String(format: "%.1f", wall)) s with \(String(format: "%.2f", Double(frames) / 48_000)) s kept")

        // The take's space reserve was given back when it ended; another program takes that too.
        let filler = mount.url.appendingPathComponent("filler")
        _ = try? Signals.run("dd", ["if=/dev/zero", "of=\(filler.path)", "bs=4096"])
        #expect(FileManager.default.fileExists(atPath: filler.path))

        // Queue exports into the outbox on the same full disk: it fails whole, and the article stays as it was.
        let chunkBytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let queued = try narrate.run("queue", "--profile", "archive")
        #expect(queued.status == 1)
        #expect(queued.stderr.contains("full"), "\(queued.stderr)")
        #expect(queued.stderr.split(separator: "\n").count == 1)
        let outbox = mount.url.appendingPathComponent("home/outbox")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: outbox.path)) ?? []).isEmpty, "no partial file in the outbox")
        let list = try #require(try narrate.run("list", "--json").json() as? [[String: Any]])
        #expect(list.first?["state"] as? String == "open")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == chunkBytes)

        for format in ["wav", "flac", "mp3", "ogg", "opus"] {
            let output = mount.url.appendingPathComponent("export.\(format)")
            let export = try narrate.run("export", "-o", output.path)
            #expect(export.status == 1 && export.stderr.hasSuffix("Nothing was written to \(output.path); free some space and export again.\n"), "\(format): \(export.stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: mount.url.path).filter { !["home", ".config", "filler"].contains($0) }
            #expect(left.isEmpty, "\(format): \(left) left behind")
        }
    }
}
