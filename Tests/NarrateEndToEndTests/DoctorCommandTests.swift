import Foundation
import Glibc
import NarrationTestSupport
import Testing

/// `narrate doctor` on a machine with no sound card: the emulated USB microphone fed a signal of
/// known level, a missing device, a muted microphone, a full disk, object storage that cannot be
/// reached and one that can, credentials files, and a damaged catalog.
@Suite("narrate doctor: what works and what to fix")
struct DoctorCommandTests {
    /// Whether the kernel drives a sound card here (CI has none): read from /proc/asound/cards,
    /// not from narrate, so that the devices finding is checked against an independent answer.
    static let machineHasSoundCard: Bool = {
        let cards = (try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8)) ?? ""
        return !cards.isEmpty && !cards.contains("no soundcards")
    }()

    /// Raw 16-bit mono samples at 44.1 kHz: `seconds` of a 1 kHz sine of RMS `rmsDBFS` (none when
    /// nil) over uniform noise of RMS `noiseDBFS` (none when nil), from a fixed seed.
    static func signal(rmsDBFS: Double?, noiseDBFS: Double?, seconds: Double, seed: inout UInt64) -> [UInt8] {
        let amplitude = rmsDBFS.map { pow(10, $0 / 20) * 2.0.squareRoot() * 32_768 } ?? 0
        let noise = noiseDBFS.map { pow(10, $0 / 20) * 3.0.squareRoot() * 32_768 } ?? 0
        var bytes: [UInt8] = []
        for index in 0..<Int(seconds * 44_100) {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let uniform = Double(seed >> 11) / Double(1 << 53) * 2 - 1
            let value = Int16((amplitude * cos(2 * Double.pi * 1_000 * Double(index) / 44_100) + noise * uniform).rounded())
            bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        }
        return bytes
    }

    /// A sentence as a level meter sees it: 0.5 s of room at -60 dBFS RMS, 1 s of voice (a tone
    /// at -20 dBFS RMS, peak -16.99) over the same room, 0.5 s of room, and a spare second.
    static func sentence() -> [UInt8] {
        var seed: UInt64 = 2_026
        return signal(rmsDBFS: nil, noiseDBFS: -60, seconds: 0.5, seed: &seed) + signal(rmsDBFS: -20, noiseDBFS: -60, seconds: 1, seed: &seed)
            + signal(rmsDBFS: nil, noiseDBFS: -60, seconds: 1.5, seed: &seed)
    }

    /// A narrate on a fresh data root with the virtual devices, `config` as its config.toml
    /// (none when nil) and `environment` on top.
    static func narrate(_ fixture: EndToEndFixture, config: String? = nil, environment: [String: String] = [:]) throws -> Narrate {
        var merged = fixture.devices.environment
        merged["XDG_CONFIG_HOME"] = fixture.folder.file("xdg").path
        if let config {
            let folder = fixture.folder.file("xdg/narrate")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try config.write(to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        }
        return Narrate(home: fixture.narrate.home, environment: merged.merging(environment) { $1 })
    }

    /// `narrate doctor --json ARGUMENTS`: how it ended, its whole report, and its findings of one area.
    struct Report {
        let result: Narrate.Result
        let json: [String: Any]

        func findings(_ area: String) -> [[String: Any]] {
            ((json["findings"] as? [[String: Any]]) ?? []).filter { $0["area"] as? String == area }
        }

        func finding(_ area: String) throws -> [String: Any] {
            let found = findings(area)
            try #require(found.count == 1, "\(area): \(found)")
            return found[0]
        }

        var level: [String: Any] { (json["level"] as? [String: Any]) ?? [:] }
    }

    static func doctor(_ narrate: Narrate, _ arguments: String...) throws -> Report {
        let result = try narrate.run(["doctor", "--json"] + arguments)
        let json = try #require(try result.json() as? [String: Any], "\(result.stdout)\n\(result.stderr)")
        return Report(result: result, json: json)
    }

    @Test("the emulated USB microphone fed a known sentence: found, opens in the article's format, peak and RMS within 0.5 dB, exit 0")
    func knownSignal() throws {
        let fixture = try EndToEndFixture(source: Self.sentence())
        let narrate = try Self.narrate(fixture)
        let started = monotonicNow()
        let report = try Self.doctor(narrate, "--device", "usbmicfile", "--seconds", "2")
        let seconds = monotonicNow() - started
        #expect(report.result.status == 0, "\(report.json)")
        #expect(report.json["ok"] as? Bool == true && report.json["problems"] as? Int == 0)
        #expect(report.result.stderr == "Level test: say a sentence now, as you would read an article (2 s)…\n")
        // The emulated microphone is an ALSA plugin, not a card.
        let devices = try report.finding("devices")
        if !Self.machineHasSoundCard {
            #expect(devices["status"] as? String == "warning")
            #expect((devices["found"] as? String)?.hasPrefix("no sound card found; only virtual devices: ") == true, "\(devices)")
        } else {
            #expect(devices["status"] as? String == "ok", "\(devices)")
        }
        let microphone = try report.finding("microphone")
        #expect(microphone["status"] as? String == "ok")
        #expect(microphone["found"] as? String == "\"usbmicfile\" opens for recording in 44100 Hz, mono, 16-bit (the format new articles get)")
        #expect(try report.finding("level")["status"] as? String == "ok")
        let level = report.level
        let peak = try #require(level["peakDBFS"] as? Double)
        let speech = try #require(level["speechRMSDBFS"] as? Double)
        let rms = try #require(level["rmsDBFS"] as? Double)
        let floor = try #require(level["noiseFloorDBFS"] as? Double)
        #expect(abs(peak - -16.99) <= 0.5 && abs(speech - -20) <= 0.5 && abs(floor - -60) <= 0.5, "\(level)")
        // Half of the 2 s is voice: 10·log10(0.5 × 0.01).
        #expect(abs(rms - -23.01) <= 0.5, "\(level)")
        #expect(level["clippedSamples"] as? Int == 0 && level["digitalSilence"] as? Bool == false)
        #expect((level["issues"] as? [Any])?.isEmpty == true)
        #expect(seconds >= 1.9, "the emulated microphone delivers in real time: \(seconds) s")
        print("figure: doctor on the emulated USB microphone fed -20 dBFS RMS (peak -16.99) over -60 dBFS: peak \(peak), speech \(speech), RMS \(rms), floor \(floor) dBFS, in \(String(format: "%.1f", seconds)) s")

        // The same on the screen: grouped, one line each, nothing to fix.
        let screen = try narrate.run("doctor", "--device", "usbmicfile", "--seconds", "2")
        #expect(screen.status == 0)
        let lines = screen.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "Sound" && lines.contains("Recordings") && lines.contains("Settings and delivery"))
        let levelLine = try #require(lines.first { $0.hasPrefix("  ✓ level test: ") })
        #expect(levelLine.hasPrefix("  ✓ level test: peak -1") && levelLine.contains(" dBFS, speech -20.0 dBFS RMS, noise floor -"), "\(levelLine)")
        #expect(levelLine.hasSuffix(" dB above it), no clipping"))
        #expect(!lines.contains { $0.hasPrefix("  ✗") })
        if Self.machineHasSoundCard {
            #expect(!lines.contains { $0.hasPrefix("    →") })
            #expect(lines.suffix(2) == ["All is well: nothing to fix.", ""])
        } else {
            let warning = try #require(lines.firstIndex { $0.hasPrefix("  ! audio devices: no sound card found") })
            #expect(lines.indices.filter { lines[$0].hasPrefix("    →") } == [warning + 1])
            #expect(lines.suffix(2) == ["Nothing needs fixing; 1 to look at (!).", ""])
        }
    }

    @Test("a missing device is a problem with narrate's remedy, exit 1; an article whose format the microphone cannot record says what it can")
    func missingDevice() throws {
        let fixture = try EndToEndFixture()
        let narrate = try Self.narrate(fixture)
        let screen = try narrate.run("doctor", "--device", "nosuch")
        #expect(screen.status == 1)
        let lines = screen.stdout.split(separator: "\n").map(String.init)
        let line = try #require(lines.firstIndex(of: "  ✗ microphone: Cannot open audio device \"nosuch\": no such device."), "\(screen.stdout)")
        #expect(lines[line + 1] == "    → Run \"narrate devices\" to list devices.")
        #expect(!lines.contains { $0.hasPrefix("  ✓ level test") || $0.hasPrefix("  ✗ level test") }, "no level test without a microphone")
        #expect(lines.last == (Self.machineHasSoundCard ? "1 thing to fix (✗)." : "1 thing to fix (✗) and 1 to look at (!)."))
        #expect(screen.stderr.isEmpty, "no prompt for a device that did not open: \(screen.stderr)")

        let report = try Self.doctor(narrate, "--device", "nosuch")
        #expect(report.result.status == 1 && report.json["problems"] as? Int == 1)
        #expect(try report.finding("microphone")["remedy"] as? String == "Run \"narrate devices\" to list devices.")
        #expect(report.json["level"] == nil)

        #expect(try narrate.run("new", "Low rate", "--rate", "22050").status == 0)
        let id = try #require(try narrate.run("list", "--json").json() as? [[String: Any]]).first?["id"] as? String
        let wrongFormat = try Self.doctor(narrate, "--device", "usbmic", "--article", try #require(id))
        #expect(wrongFormat.result.status == 1)
        let microphone = try wrongFormat.finding("microphone")
        #expect(microphone["found"] as? String == "Audio device \"usbmic\" cannot record 22050 Hz; it supports 16-bit, 1 channel, 44100–48000 Hz.")
        #expect((microphone["remedy"] as? String)?.hasPrefix("Create the article with a format the device supports") == true)
        #expect((try wrongFormat.finding("disk")["found"] as? String)?.hasSuffix(" of recording in 22050 Hz, mono, 16-bit") == true)
        #expect(wrongFormat.json["format"] as? [String: Int] == ["sampleRate": 22_050, "channels": 1, "bitsPerSample": 16])

        let unknown = try Self.doctor(narrate, "--device", "usbmic", "--article", "zzzzzzzz", "--no-level-test")
        #expect(unknown.findings("microphone").map { $0["found"] as? String } == [
            "No article has the id \"zzzzzzzz\".", "\"usbmic\" opens for recording in 44100 Hz, mono, 16-bit (the format new articles get)",
        ])
    }

    @Test("a muted microphone gives digital silence: a problem whose advice is to unmute it, exit 1")
    func mutedMicrophone() throws {
        let fixture = try EndToEndFixture(source: [UInt8](repeating: 0, count: 44_100 * 2 * 2))
        let narrate = try Self.narrate(fixture)
        let report = try Self.doctor(narrate, "--device", "usbmicfile", "--seconds", "1")
        #expect(report.result.status == 1)
        let level = try report.finding("level")
        #expect(level["status"] as? String == "problem")
        #expect(level["found"] as? String == "the microphone gave digital silence: every sample was exactly zero")
        #expect(level["remedy"] as? String == "The microphone is muted or its capture switch is off: unmute it in alsamixer (press F4 for the capture controls) or in your system's sound settings.")
        #expect(report.level["digitalSilence"] as? Bool == true && report.level["issues"] as? [String] == ["digitalSilence"])
        #expect(report.level["peakDBFS"] as? Double == -160)
        #expect(try report.finding("microphone")["status"] as? String == "ok", "the device itself opened")
    }

    @Test(
        "a full disk under the data root: the disk finding is a problem with about 0 hours, exit 1",
        .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func fullDisk() throws {
        let mount = try TemporaryMount(sizeKiB: 1_024)
        let fixture = try EndToEndFixture()
        var environment = fixture.devices.environment
        environment["XDG_CONFIG_HOME"] = fixture.folder.file("xdg").path
        let narrate = Narrate(home: mount.url.appendingPathComponent("home"), environment: environment)
        #expect(try narrate.run("new", "Long read").status == 0)
        _ = try? Signals.run("dd", ["if=/dev/zero", "of=\(mount.url.appendingPathComponent("filler").path)", "bs=4096"])
        let report = try Self.doctor(narrate, "--device", "usbmic", "--no-level-test")
        #expect(report.result.status == 1)
        let disk = try report.finding("disk")
        #expect(disk["status"] as? String == "problem")
        #expect(disk["found"] as? String == "the disk is full: 0.0 MB free for \(mount.url.path)/home: less than a minute of recording in 44100 Hz, mono, 16-bit")
        #expect((disk["remedy"] as? String)?.hasPrefix("Free some space on that disk") == true)
        let figures = try #require(report.json["disk"] as? [String: Any])
        #expect(figures["hours"] as? Double == 0 && figures["freeBytes"] as? Int == 0, "\(figures)")
        #expect(try report.finding("catalog")["status"] as? String == "ok", "the catalog is read, not written")
        #expect(report.json["problems"] as? Int == 1)
    }

    /// A TCP port on the loopback nobody listens on.
    static func closedPort() throws -> Int { try ObjectStorageServer.freePorts(1)[0] }

    static func storageConfig(endpoint: String, credentialsFile: String? = nil) -> String {
        """
        [destinations.archive]
        url = "s3://radio/narrations"
        endpoint = "\(endpoint)"
        path_style = true
        """ + (credentialsFile.map { "\ncredentials_file = \"\($0)\"\n" } ?? "\n")
    }

    @Test("object storage that cannot be reached, or never answers, is a problem naming the endpoint, within the answer timeout")
    func unreachableStorage() throws {
        let fixture = try EndToEndFixture()
        let port = try Self.closedPort()
        let environment = ObjectStorageServer.credentialsEnvironment.merging(["NARRATE_STORAGE_ANSWER_TIMEOUT": "1"]) { $1 }
        let narrate = try Self.narrate(fixture, config: Self.storageConfig(endpoint: "http://127.0.0.1:\(port)"), environment: environment)
        let started = monotonicNow()
        let report = try Self.doctor(narrate, "--device", "usbmic", "--no-level-test")
        let seconds = monotonicNow() - started
        #expect(report.result.status == 1)
        let destination = try report.finding("destination")
        #expect(destination["status"] as? String == "problem")
        #expect(destination["found"] as? String
            == "archive (s3://radio/narrations): Could not reach the storage at http://127.0.0.1:\(port) (connection refused). Check the endpoint and the network.")
        #expect(try report.finding("credentials")["found"] as? String == "the key pair comes from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
        #expect(seconds < 5, "\(seconds) s")

        // A storage that takes the connection and never answers: given up on after the 1 s wait.
        let silent = try SilentListener()
        let waiting = try Self.narrate(fixture, config: Self.storageConfig(endpoint: "http://127.0.0.1:\(silent.port)"), environment: environment)
        let before = monotonicNow()
        let stuck = try Self.doctor(waiting, "--device", "usbmic", "--no-level-test")
        let waited = monotonicNow() - before
        #expect(stuck.result.status == 1)
        let found = try #require(try stuck.finding("destination")["found"] as? String)
        #expect(found.hasPrefix("archive (s3://radio/narrations): The storage at http://127.0.0.1:\(silent.port) did not answer in 1 s while "), "\(found)")
        #expect(waited < 8, "\(waited) s")
        print("figure: doctor with unreachable storage: refused port \(String(format: "%.2f", seconds)) s, silent server (1 s answer wait) \(String(format: "%.2f", waited)) s")
    }

    @Test("a credentials file others can read is a problem saying chmod 600; at 600 the real storage takes, gives back and loses a test object")
    func credentialsAndReachableStorage() throws {
        let server = try ObjectStorageServer(buckets: ["radio"])
        let fixture = try EndToEndFixture()
        let keys = fixture.folder.file("keys/credentials")
        try FileManager.default.createDirectory(at: keys.deletingLastPathComponent(), withIntermediateDirectories: true)
        chmod(keys.deletingLastPathComponent().path, 0o700)
        try "[default]\naws_access_key_id = \(ObjectStorageServer.accessKeyID)\naws_secret_access_key = \(ObjectStorageServer.secretAccessKey)\n"
            .write(to: keys, atomically: true, encoding: .utf8)
        chmod(keys.path, 0o644)
        let narrate = try Self.narrate(fixture, config: Self.storageConfig(endpoint: server.endpoint, credentialsFile: keys.path))

        let open = try Self.doctor(narrate, "--device", "usbmic", "--no-level-test")
        #expect(open.result.status == 1)
        let credentials = try open.finding("credentials")
        #expect(credentials["status"] as? String == "problem")
        #expect(credentials["found"] as? String
            == "The credentials file \(keys.path) can be read by others (mode 644); narrate uses it only when just you can: chmod 600 \(keys.path)")
        #expect(try open.finding("destination")["found"] as? String == "archive (s3://radio/narrations) was not tried: its credentials cannot be used")
        for text in [ObjectStorageServer.secretAccessKey] { #expect(!open.result.stdout.contains(text) && !open.result.stderr.contains(text)) }

        chmod(keys.path, 0o600)
        let report = try Self.doctor(narrate, "--device", "usbmic", "--no-level-test")
        #expect(report.result.status == 0, "\(report.json)")
        #expect(try report.finding("credentials")["found"] as? String
            == "\(keys.path) is yours alone and holds the key pair of [default] (for archive (s3://radio/narrations))")
        let destination = try report.finding("destination")
        #expect(destination["status"] as? String == "ok")
        #expect(destination["found"] as? String == "archive (s3://radio/narrations): wrote a test object at \(server.endpoint), read it back and removed it")
        #expect(try server.objects(in: "radio").isEmpty, "no test object left in the bucket")
    }

    @Test("a folder destination is written to and left as it was; a missing one is a problem")
    func folderDestination() throws {
        let fixture = try EndToEndFixture()
        let share = fixture.folder.file("share")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        let narrate = try Self.narrate(fixture, config: """
            destination = "\(share.path)"

            [destinations.gone]
            url = "\(fixture.folder.file("unmounted").path)"
            """)
        let report = try Self.doctor(narrate, "--device", "usbmic", "--no-level-test")
        #expect(report.result.status == 1)
        #expect(report.findings("destination").map { $0["found"] as? String } == [
            "gone (\(fixture.folder.file("unmounted").path)) does not exist", "\(share.path): wrote a test file, read it back and removed it",
        ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: share.path).isEmpty)
    }

    @Test("a config.toml that does not read is a problem in its own words, and its destinations are not tried")
    func brokenConfig() throws {
        let fixture = try EndToEndFixture()
        let narrate = try Self.narrate(fixture, config: "narrator = \"Ann\"\npublication = Daily Post\n")
        let report = try Self.doctor(narrate, "--device", "usbmic", "--no-level-test")
        #expect(report.result.status == 1)
        let config = try report.finding("config")
        #expect(config["found"] as? String
            == "\(fixture.folder.file("xdg/narrate/config.toml").path), line 2: Daily Post is not a value narrate understands (a string in quotes, a number, true or false). Fix the line or remove it.")
        #expect(report.findings("destination").isEmpty && report.findings("credentials").isEmpty)
        #expect(try report.finding("microphone")["status"] as? String == "ok", "the other checks still run")
    }

    @Test("a damaged catalog is a problem, never a crash, and doctor leaves the file as it was")
    func damagedCatalog() throws {
        let fixture = try EndToEndFixture()
        let narrate = try Self.narrate(fixture)
        #expect(try narrate.run("new", "Budget vote").status == 0)
        #expect(try narrate.run("record", "--device", "vmic", "--duration", "0.3").status == 0)
        let healthy = try Self.doctor(narrate, "--device", "usbmic", "--no-level-test")
        #expect(try healthy.finding("catalog")["found"] as? String == "1 article, 1 chunk; the integrity check passed and every chunk's file is there")
        let catalog = narrate.home.appendingPathComponent("catalog.sqlite")
        let original = try Data(contentsOf: catalog)

        // A chunk row whose article is gone: only SQLite's foreign key check sees it.
        try Signals.run("python3", ["-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.executescript("CREATE TEMP TABLE t AS SELECT * FROM chunk LIMIT 1; UPDATE t SET id = 'orphanchunk01', articleId = 'zzzzzzzz'; INSERT INTO chunk SELECT * FROM t;")
            db.commit()
            """, catalog.path])
        let orphan = try Self.doctor(narrate, "--device", "usbmic", "--no-level-test")
        let orphanFinding = try orphan.finding("catalog")
        #expect(orphan.result.status == 1)
        #expect((orphanFinding["found"] as? String)?.hasSuffix(" is damaged: SQLite's integrity check found row 2 of chunk refers to a missing article") == true, "\(orphanFinding)")

        // Garbage over pages in the middle, then the file cut in half, then cut to nothing.
        var garbage = original
        garbage.replaceSubrange(8_192..<20_480, with: Data(repeating: 0xA5, count: 12_288))
        let damages: [(Data, String)] = [
            (garbage, "database disk image is malformed"), (original.prefix(original.count / 2), "database disk image is malformed"), (Data(), "is empty (0 bytes)"),
        ]
        for (bytes, words) in damages {
            try bytes.write(to: catalog)
            let report = try Self.doctor(narrate, "--device", "usbmic", "--no-level-test")
            #expect(report.result.status == 1, "\(report.result.stderr)")
            let finding = try report.finding("catalog")
            #expect(finding["status"] as? String == "problem")
            #expect((finding["found"] as? String)?.contains(words) == true, "\(finding)")
            #expect((finding["remedy"] as? String)?.contains(catalog.path) == true, "\(finding)")
            #expect(try Data(contentsOf: catalog) == bytes, "doctor left the catalog as it was")
            #expect(report.result.stderr.isEmpty, "\(report.result.stderr)")
        }
    }

    @Test("a catalog change cut short by kill -9 leaves a hot journal: a warning that the next command finishes it, both files left byte for byte")
    func interruptedCatalog() throws {
        let fixture = try EndToEndFixture()
        let narrate = try Self.narrate(fixture)
        #expect(try narrate.run("new", "Budget vote").status == 0)
        let catalog = narrate.home.appendingPathComponent("catalog.sqlite")
        let journal = narrate.home.appendingPathComponent("catalog.sqlite-journal")
        // A write transaction too big for a 10-page cache: SQLite syncs the journal and starts
        // writing the catalog itself, and then the process is killed before it commits.
        let killed = (try? Signals.run("python3", ["-c", """
            import os, signal, sqlite3, sys
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute("PRAGMA cache_size = 10")
            db.execute("BEGIN IMMEDIATE")
            db.execute("UPDATE article SET title = 'half written'")
            db.execute("CREATE TABLE filler(x)")
            db.execute("INSERT INTO filler WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) SELECT randomblob(2000) FROM n")
            os.kill(os.getpid(), signal.SIGKILL)
            """, catalog.path])) == nil
        #expect(killed)
        let journalBytes = try Data(contentsOf: journal)
        let catalogBytes = try Data(contentsOf: catalog)
        try #require(!journalBytes.isEmpty, "the killed write left its journal")

        let report = try Self.doctor(narrate, "--device", "usbmic", "--no-level-test")
        let finding = try report.finding("catalog")
        #expect(finding["status"] as? String == "warning", "\(finding)")
        #expect(finding["found"] as? String == "\(catalog.path) was interrupted in the middle of a change (a narrate command was stopped, or the power went, while it wrote): SQLite's journal \(journal.path) holds what to undo")
        #expect((finding["remedy"] as? String)?.hasPrefix("The next narrate command that opens the catalog, such as listing the articles, finishes it") == true, "\(finding)")
        #expect(!report.result.stdout.contains("Check that its folder is writable"), "\(report.result.stdout)")
        #expect(report.json["problems"] as? Int == 0 && report.result.status == 0, "\(report.json)")
        #expect(try Data(contentsOf: catalog) == catalogBytes && Data(contentsOf: journal) == journalBytes, "doctor changed neither file")

        // As said: the next command finishes it, and the change that never committed is gone.
        let list = try narrate.run("list", "--json")
        #expect(list.status == 0)
        #expect((try list.json() as? [[String: Any]])?.first?["title"] as? String == "Budget vote")
        #expect(try Self.doctor(narrate, "--device", "usbmic", "--no-level-test").finding("catalog")["status"] as? String == "ok")
    }

    @Test("--help teaches each check and the exit status; --seconds outside 0.5…60 is a usage error")
    func help() throws {
        let fixture = try EndToEndFixture()
        let help = try fixture.narrate.run("doctor", "--help")
        #expect(help.status == 0)
        // Read as one line: the help is wrapped to the terminal's width.
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for words in [
            "level test", "digital silence", "integrity check", "chmod 600", "written, read back and removed",
            "Exit status: 0 when nothing needs fixing (! lines allowed), 1 when a ✗ line needs fixing, 64 for a wrong option.",
        ] {
            #expect(text.contains(words), "\(words)")
        }
        let bad = try fixture.narrate.run("doctor", "--seconds", "0")
        #expect(bad.status == 64 && bad.stderr.hasPrefix("Error: --seconds 0 is not a length the level test can listen for: give 0.5 to 60.\n"))
    }
}
