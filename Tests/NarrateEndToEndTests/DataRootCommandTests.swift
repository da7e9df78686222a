import Foundation
import Glibc
import NarrationAudio
import NarrationTestSupport
import Testing

/// Where the data root may be, what narrate creates there, and a data root that cannot be
/// written: the recordings can still be listed, played and exported.
@Suite("The data root: its rules, and rescuing recordings from a read-only disk")
struct DataRootCommandTests {
    @Test("a relative NARRATE_HOME is refused in one sentence, and nothing is created")
    func relativeHome() throws {
        let folder = TemporaryFolder()
        let narrate = Narrate(home: folder.file("home"), environment: ["NARRATE_HOME": "narrations"])
        let result = try narrate.run("list")
        #expect(result.status == 1)
        #expect(result.stderr == "NARRATE_HOME is the relative path narrations; set it to a full path such as \(folder.url.path)/narrations.\n")
        #expect(!FileManager.default.fileExists(atPath: "narrations"))
    }

    @Test("a data root whose parent folder is missing is refused (a share not mounted), and no parent is created")
    func missingParent() throws {
        let folder = TemporaryFolder()
        let share = folder.file("share")
        let narrate = Narrate(home: share.appendingPathComponent("narrate"))
        for command in [["list"], ["new", "Budget vote"]] {
            let result = try narrate.run(command)
            #expect(result.status == 1)
            #expect(result.stderr == "The data folder \(share.path)/narrate cannot be used: its parent \(share.path) does not exist (is the share mounted?).\n")
        }
        #expect(!FileManager.default.fileExists(atPath: share.path))
    }

    @Test("a new data root gets only its own folder, its articles folder and the catalog")
    func newRoot() throws {
        let folder = TemporaryFolder()
        let narrate = Narrate(home: folder.file("home"))
        let result = try narrate.run("list")
        #expect(result.status == 0 && result.stderr.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: narrate.home.path).sorted() == ["articles", "catalog.sqlite"])
    }

    @Test("whether the root can be written is asked, not tried: a disk out of inodes still lists", .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func noFileToProbe() throws {
        let mount = try TemporaryMount(sizeKiB: 1_024, inodes: 64)
        let narrate = Narrate(home: mount.url.appendingPathComponent("home"))
        #expect(try narrate.run("new", "Budget vote").status == 0)
        var filler = 0
        while FileManager.default.createFile(atPath: mount.url.appendingPathComponent("filler-\(filler)").path, contents: nil) { filler += 1 }
        #expect(filler > 0 && filler < 64)
        let result = try narrate.run("list")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"Budget vote\""))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: narrate.home.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test(
        "on a disk remounted read-only, list, chunks, play, check and export work and say so once; record and new fail in one line",
        .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func readOnlyRoot() throws {
        let mount = try TemporaryMount(sizeKiB: 4_096)
        let fixture = try EndToEndFixture()
        let narrate = Narrate(home: mount.url.appendingPathComponent("home"), environment: fixture.devices.environment)
        let home = narrate.home.path
        #expect(try narrate.run("new", "Rescued").status == 0)
        for seconds in ["0.4", "0.3"] { #expect(try narrate.run("record", "--device", "vmic", "--duration", seconds).status == 0) }
        let listed = try #require(try narrate.run("chunks", "--json").json() as? [[String: Any]])
        let chunks = try listed.map { try SoundFileReader(path: $0["file"] as! String).readAll() }
        #expect(chunks.map(\.count) == [17_640, 13_230])

        try mount.remount(readOnly: true)
        let notice = "The data folder \(home) is read-only: narrate can list, play, check and export, but not record or change anything until it is writable.\n"
        let list = try narrate.run("list")
        #expect(list.status == 0 && list.stderr == notice)
        #expect(list.stdout.contains("2 chunks  open  \"Rescued\""))
        let listJSON = try narrate.run("list", "--json")
        #expect(listJSON.status == 0 && listJSON.stderr == notice)
        #expect(try #require(try listJSON.json() as? [[String: Any]]).first?["chunks"] as? Int == 2)
        let chunksJSON = try narrate.run("chunks", "--json")
        #expect(chunksJSON.status == 0 && chunksJSON.stderr == notice)
        let entries = try #require(try chunksJSON.json() as? [[String: Any]])
        #expect(entries.map { $0["fileMissing"] as? Bool } == [false, false])

        let play = try narrate.run("play", "--device", "vspk")
        #expect(play.status == 0 && play.stderr == notice, "\(play.stderr)")
        let played = Signals.samples([UInt8](try Data(contentsOf: fixture.devices.playedFile)), bitsPerSample: 16)
        #expect(played == chunks[0] + chunks[1])

        let check = try narrate.run("check")
        #expect(check.status == 0 && check.stderr == notice, "\(check.stderr)")

        let exported = fixture.folder.file("rescued.wav")
        let export = try narrate.run("export", "-o", exported.path)
        #expect(export.status == 0 && export.stderr == notice, "\(export.stderr)")
        #expect(try SoundFileReader(path: exported.path).readAll() == chunks[0] + chunks[1])

        let refusal = "Cannot write to the data folder \(home) (Read-only file system). Make it writable or set NARRATE_HOME to a folder you can write.\n"
        for command in [["record", "--device", "vmic", "--duration", "0.2"], ["new", "Another"], ["delete-chunk", "1"]] {
            let result = try narrate.run(command)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr == refusal, "\(command)")
        }
        try mount.remount(readOnly: false)
        #expect(try narrate.run("chunks").stderr.isEmpty)
    }
}
