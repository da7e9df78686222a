import Foundation
import Glibc
import NarrationTestSupport
import Testing

/// Symbolic links planted where narrate writes its own files (an article folder, the outbox,
/// an export's folder): each points at a file outside the data root and at a chunk; the command
/// refuses with one sentence naming the link, or does its work without following it, and the
/// target's bytes and every recording stay as they were.
@Suite("Planted symbolic links are never followed")
struct PlantedLinkTests {
    /// An article with two chunks, a file outside the data root, and the snapshot of the recordings.
    private struct Planted {
        let fixture: EndToEndFixture
        let article: String
        let outside: URL
        let outsideBytes = Data("someone's precious file\n".utf8)
        let before: [String: Data]

        /// - Parameter text: the article gets a text of two paragraphs, each read by a take.
        init(text: Bool = false) throws {
            fixture = try EndToEndFixture()
            if text {
                let file = fixture.folder.file("text.md")
                try "# Kept safe\n\nThe first paragraph.\n".write(to: file, atomically: true, encoding: .utf8)
                article = try fixture.newArticle("Kept safe", "--text", file.path)
            } else {
                article = try fixture.newArticle("Kept safe")
            }
            try #require(try fixture.record(0.3).status == 0)
            try #require(try fixture.record(0.3).status == 0)
            outside = fixture.folder.file("outside.txt")
            try outsideBytes.write(to: outside)
            before = try fixture.recordings()
        }

        var articleFolder: URL { fixture.narrate.home.appendingPathComponent("articles/\(article)") }

        /// The first chunk's file.
        var chunk: URL { get throws { try #require(before.keys.sorted().first.map { URL(fileURLWithPath: $0) }) } }

        /// Each target a link is planted at in turn: the outside file, then a chunk.
        var targets: [URL] { get throws { [outside, try chunk] } }

        /// Waits (up to 30 s) for the take checks `record` started in the background on this data
        /// root, which write to the catalog, to end.
        func waitForTakeChecks() throws {
            let home = Array(fixture.narrate.home.path.utf8)
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                let running = (try FileManager.default.contentsOfDirectory(atPath: "/proc")).filter { name in
                    guard Int32(name) != nil,
                        let command = FileManager.default.contents(atPath: "/proc/\(name)/cmdline"),
                        command.range(of: Data("--after-take".utf8)) != nil,
                        let environment = FileManager.default.contents(atPath: "/proc/\(name)/environ")
                    else { return false }
                    return environment.range(of: Data(home)) != nil
                }
                if running.isEmpty { return }
                usleep(50_000)
            }
            throw FixtureError("the take checks did not end within 30 s")
        }

        /// Whether both targets still hold their bytes, and every recording is unchanged.
        func expectUntouched(sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(try Data(contentsOf: outside) == outsideBytes, "the outside file", sourceLocation: sourceLocation)
            #expect(try fixture.recordings() == before, "the recordings", sourceLocation: sourceLocation)
        }
    }

    private func plant(_ link: URL, to target: URL) throws {
        try? FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    }

    private func expectRefusal(
        _ result: Narrate.Result, naming link: URL, verb: String = "write", sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 1, "status", sourceLocation: sourceLocation)
        #expect(
            result.stderr == "Cannot \(verb) \(link.path): it is a symbolic link, and narrate never \(verb)s through one; remove it, then try again.\n",
            sourceLocation: sourceLocation)
    }

    @Test("space.reserve as a link: record refuses, naming it, and neither target is truncated")
    func spaceReserve() throws {
        let planted = try Planted()
        let link = planted.articleFolder.appendingPathComponent("space.reserve")
        for target in try planted.targets {
            try plant(link, to: target)
            expectRefusal(try planted.fixture.record(0.2), naming: link)
            try planted.expectUntouched()
            #expect(try planted.fixture.chunks().count == 2)
        }
    }

    @Test("space.reserve as a hard link to a chunk, or a FIFO: record refuses, and the chunk keeps its bytes")
    func spaceReserveHardLinkAndFIFO() throws {
        let planted = try Planted()
        let reserve = planted.articleFolder.appendingPathComponent("space.reserve")
        try FileManager.default.linkItem(at: try planted.chunk, to: reserve)
        let hardLinked = try planted.fixture.record(0.2)
        #expect(hardLinked.status == 1)
        #expect(hardLinked.stderr == "Cannot write \(reserve.path): it is not a regular file narrate made; remove it, then try again.\n")
        try planted.expectUntouched()
        try FileManager.default.removeItem(at: reserve)

        #expect(mkfifo(reserve.path, 0o600) == 0)
        let fifo = try planted.fixture.record(0.2)
        #expect(fifo.status == 1)
        #expect(fifo.stderr == "Cannot write \(reserve.path): it is not a regular file narrate made; remove it, then try again.\n")
        try planted.expectUntouched()
        #expect(try planted.fixture.chunks().count == 2)
    }

    @Test("recording.lock and delivery.lock as links: record and submit refuse, naming them, and write nothing through them")
    func lockFiles() throws {
        let planted = try Planted()
        let share = TemporaryFolder("narrate-share")
        let commands: [(String, [String])] = [
            ("recording.lock", ["record", "--device", "vmic", "--duration", "0.2"]),
            ("delivery.lock", ["submit", "--article", planted.article, "--to", share.url.path]),
        ]
        for (name, command) in commands {
            let link = planted.articleFolder.appendingPathComponent(name)
            for target in try planted.targets {
                try plant(link, to: target)
                expectRefusal(try planted.fixture.narrate.run(command), naming: link)
                try planted.expectUntouched()
            }
            try FileManager.default.removeItem(at: link)
        }
        #expect(try planted.fixture.chunks("--article", planted.article).count == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: share.url.path) == [])
    }

    @Test("an export's temporary file as a link: export refuses naming it; the file itself as a link is replaced, its target untouched")
    func exportFiles() throws {
        let planted = try Planted()
        let output = planted.fixture.folder.file("out.wav")
        let partial = planted.fixture.folder.file(".out.wav.narrate-partial")
        for target in try planted.targets {
            try plant(partial, to: target)
            expectRefusal(try planted.fixture.narrate.run("export", "-o", output.path), naming: partial)
            try planted.expectUntouched()
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }
        try FileManager.default.removeItem(at: partial)

        try plant(output, to: planted.outside)
        let exported = try planted.fixture.narrate.run("export", "-o", output.path)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: output.path)[.type] as? FileAttributeType == .typeRegular)
        #expect(try Data(contentsOf: output).prefix(4) == Data("RIFF".utf8))
        try planted.expectUntouched()
    }

    @Test("a transcript's and a book's temporary files as links: export refuses naming them")
    func transcriptAndBook() throws {
        let planted = try Planted(text: true)
        let cases: [(String, [String])] = [
            (".out.vtt.narrate-partial", ["export", "-o", planted.fixture.folder.file("out.mp3").path, "--transcript", "vtt"]),
            (".book.epub.narrate-partial", ["export", "-o", planted.fixture.folder.file("book.epub").path]),
        ]
        for (name, command) in cases {
            let link = planted.fixture.folder.file(name)
            for target in try planted.targets {
                try plant(link, to: target)
                expectRefusal(try planted.fixture.narrate.run(command), naming: link)
                try planted.expectUntouched()
            }
        }
        #expect(!FileManager.default.fileExists(atPath: planted.fixture.folder.file("book.epub").path))
    }

    @Test("the catalog as a link: every command refuses, naming it, before SQLite opens it")
    func catalogLink() throws {
        let planted = try Planted()
        try planted.waitForTakeChecks()
        let catalog = planted.fixture.narrate.home.appendingPathComponent("catalog.sqlite")
        let moved = planted.fixture.folder.file("elsewhere.sqlite")
        try FileManager.default.moveItem(at: catalog, to: moved)
        let bytes = try Data(contentsOf: moved)
        try plant(catalog, to: moved)
        for command in [["list"], ["record", "--device", "vmic", "--duration", "0.2"]] {
            expectRefusal(try planted.fixture.narrate.run(command), naming: catalog)
        }
        #expect(try Data(contentsOf: moved) == bytes)
        try planted.expectUntouched()
    }

    @Test("a killed take's partial file replaced by a link: recovery leaves the link and its target alone, and says so")
    func recoveredPartial() throws {
        let planted = try Planted()
        let running = try planted.fixture.narrate.start(["record", "--device", "usbmic", "--progress", "json"])
        _ = running.waitForStderrLine { $0.contains("\"frames\":2") }
        running.signal(SIGKILL)
        #expect(running.wait().status == 128 + SIGKILL)
        let chunks = planted.articleFolder.appendingPathComponent("chunks")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: chunks.path).first { $0.hasSuffix(".partial.wav") })
        let partial = chunks.appendingPathComponent(name)
        try FileManager.default.removeItem(at: partial)
        try plant(partial, to: try planted.chunk)
        let listed = try planted.fixture.narrate.run("chunks")
        #expect(listed.status == 0)
        #expect(listed.stderr == """
            An interrupted take of "Kept safe" could not be recovered yet and stays in \(partial.path): \
            Cannot write \(partial.path): it is a symbolic link, and narrate never writes through one; remove it, then try again.

            """)
        #expect(try Data(contentsOf: planted.outside) == planted.outsideBytes)
        var recordings = try planted.fixture.recordings()
        #expect(recordings.removeValue(forKey: partial.path) == planted.before[try planted.chunk.path])
        #expect(recordings == planted.before)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: partial.path) == (try planted.chunk.path))
        #expect(try planted.fixture.chunks().count == 2)
    }
}
