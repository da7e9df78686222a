import Foundation
import NarrationTestSupport
import Testing

/// `narrate desk` on the built binary: an article's way across the desk as a coordinator's
/// script drives it, the exact lines and JSON it prints, and refusals that are one line with a
/// non-zero exit and leave the desk, the log and every article as they were.
@Suite("narrate desk")
struct DeskCommandTests {
    static var actor: String { "command line (user \(NSUserName()))" }

    /// A narrate on a fresh data folder with a volunteer ann and a proof-listener pat.
    static func narrate(_ folder: TemporaryFolder) throws -> Narrate {
        let narrate = try AccountsCommandTests.narrate(folder)
        for (name, role) in [("ann", "volunteer"), ("pat", "proof-listener")] {
            #expect(try narrate.run("accounts", "add", name, "--role", role).status == 0)
        }
        return narrate
    }

    /// The article's text as a Markdown file in `folder`.
    static func textFile(_ folder: TemporaryFolder) throws -> String {
        let path = folder.file("budget.md").path
        try "# Budget vote delayed\n\nThe council put off its vote.\n\nIt meets again on Friday.\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// What `--json` prints for one article, as a dictionary.
    static func object(_ result: Narrate.Result) throws -> [String: Any] {
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try result.json() as? [String: Any], "\(result.stdout)")
    }

    /// Every file under the articles folder, byte for byte (the recordings among them), the audit
    /// log and the desk: what a refusal must leave as it was.
    struct Snapshot: Equatable {
        let files: [String: Data]
        let audit: String
        let desk: String
    }

    static func snapshot(_ narrate: Narrate) throws -> Snapshot {
        let articles = narrate.home.appendingPathComponent("articles")
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: articles, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            if (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true { files[url.path] = try Data(contentsOf: url) }
        }
        return Snapshot(files: files, audit: try narrate.run("audit").stdout, desk: try narrate.run("desk", "list", "--json").stdout)
    }

    @Test("add with a text, list, assign, leave open, claim, show, change, withdraw: the lines, the JSON and the audit log")
    func life() throws {
        let folder = TemporaryFolder("narrate-desk")
        let narrate = try Self.narrate(folder)
        let empty = try narrate.run("desk")
        #expect(empty.status == 0 && empty.stdout == "The desk is empty. Add an article with: narrate desk add --title TITLE --publication NAME\n")

        let added = try Self.object(try narrate.run(
            "desk", "add", "--title", "Budget vote delayed", "--publication", "Daily Post", "--section", "Local news", "--deadline", "2026-11-02T17:00",
            "--listen-until", "2099-12-09", "--priority", "high", "--text", try Self.textFile(folder), "--json"))
        let id = try #require(added["id"] as? String)
        #expect(Set(added.keys) == [
            "id", "title", "publication", "section", "state", "priority", "deadline", "listenUntil", "late", "volunteer", "taking", "addedAt", "changedAt", "version",
        ])
        #expect(added["title"] as? String == "Budget vote delayed" && added["publication"] as? String == "Daily Post" && added["section"] as? String == "Local news")
        #expect(added["state"] as? String == "open" && added["priority"] as? String == "high" && added["deadline"] as? String == "2026-11-02T17:00")
        #expect(added["listenUntil"] as? String == "2099-12-09" && added["late"] as? Bool == true && added["version"] as? Int == 1)
        #expect(added["volunteer"] is NSNull && added["taking"] is NSNull)
        // Its text is the article's script, read by the same code as narrate new --text.
        let script = try narrate.run("script", "--article", id, "--json")
        #expect(script.status == 0 && script.stdout.contains("The council put off its vote.") && script.stdout.contains("It meets again on Friday."), "\(script.stdout)")

        let second = try narrate.run("desk", "add", "--title", "Shop flyer", "--publication", "Shop Weekly", "--deadline", "2099-01-05", "--rate", "22050")
        #expect(second.status == 0)
        let flyer = String(second.stdout.dropFirst("Added ".count).prefix(8))
        #expect(second.stdout == "Added \(flyer) (\"Shop flyer\") to the desk, Open, with no text yet. Assign it with: narrate desk assign \(flyer) NAME\n")

        // Its takes are recorded at the rate the coordinator chose; the first's at the speech format's.
        let rates = try #require(try JSONSerialization.jsonObject(with: Data(try narrate.run("list", "--json").stdout.utf8)) as? [[String: Any]])
        #expect(Dictionary(uniqueKeysWithValues: rates.map { ($0["title"] as? String ?? "", $0["sampleRate"] as? Int ?? 0) })
            == ["Budget vote delayed": 44100, "Shop flyer": 22050])

        let assigned = try narrate.run("desk", "assign", String(id.prefix(5)), "ann")
        #expect(assigned.status == 0 && assigned.stdout == "Assigned \(id) (\"Budget vote delayed\") to ann; it is Assigned.\n", "\(assigned.stderr)")
        #expect(try narrate.run("desk", "list").stdout == """
            id        state     priority  deadline               volunteer  publication  title
            \(id)  assigned  high      2026-11-02T17:00 late  ann        Daily Post   Budget vote delayed
            \(flyer)  open      normal    2099-01-05             -          Shop Weekly  Shop flyer

            """)
        let mine = try narrate.run("desk", "list", "--volunteer", "ann", "--json")
        #expect(try (mine.json() as? [[String: Any]])?.map { $0["id"] as? String } == [id])
        #expect(try (narrate.run("desk", "list", "--late", "--json").json() as? [[String: Any]])?.map { $0["id"] as? String } == [id])
        #expect(try (narrate.run("desk", "list", "--state", "open", "--json").json() as? [[String: Any]])?.map { $0["id"] as? String } == [flyer])
        #expect(try (narrate.run("desk", "list", "--due-before", "2099-01-05", "--json").json() as? [[String: Any]])?.map { $0["id"] as? String } == [id])
        #expect(try (narrate.run("desk", "list", "--due-before", "2099-01-06", "--json").json() as? [[String: Any]])?.count == 2)
        #expect(try narrate.run("desk", "list", "--publication", "Evening Star").stdout == "No article on the desk matches.\n")

        let before = try Self.snapshot(narrate)
        let stolen = try narrate.run("desk", "claim", id, "--as", "pat")
        #expect(stolen.status == 1 && stolen.stderr == "The account pat (proof-listener) may not claim the article \(id).\n")
        #expect(try Self.snapshot(narrate) == before)

        #expect(try narrate.run("desk", "open", id).stdout == "\(id) (\"Budget vote delayed\") is Open: anyone who narrates may claim it.\n")
        let claimed = try Self.object(try narrate.run("desk", "claim", id, "--as", "ann", "--json"))
        #expect(claimed["volunteer"] as? String == "ann" && claimed["taking"] as? String == "claimed" && claimed["state"] as? String == "assigned")
        let changed = try narrate.run("desk", "change", id, "--priority", "urgent", "--deadline", "none")
        #expect(changed.status == 0 && changed.stdout == "Changed \(id) (\"Budget vote delayed\").\n")
        let shown = try narrate.run("desk", "show", id)
        let shownLines = shown.stdout.split(separator: "\n").map(String.init)
        #expect(shownLines.prefix(9) == [
            "Budget vote delayed (\(id))", "state        Assigned", "volunteer    ann (claimed)", "publication  Daily Post", "section      Local news",
            "priority     urgent", "deadline     none", "listen until 2099-12-09", shownLines.count > 8 ? shownLines[8] : "",
        ] && shownLines.count == 10 && shownLines[8].hasPrefix("added        ") && shownLines[9].hasPrefix("changed      "), "\(shown.stdout)")
        #expect(try narrate.run("desk", "withdraw", id).stdout == "Withdrew \(id) (\"Budget vote delayed\").\n")
        let again = try narrate.run("desk", "withdraw", id)
        #expect(again.status == 1 && again.stderr == "The article \(id) (\"Budget vote delayed\") is Withdrawn, so it cannot be withdrawn: nothing more can happen to it.\n")

        let audit = try narrate.run("audit", "--json")
        let lines = try #require(try audit.json() as? [[String: Any]]).filter { ($0["action"] as? String)?.hasPrefix("article-") == true }
        #expect(lines.map { "\($0["actor"] as? String ?? "") \($0["action"] as? String ?? "") \($0["account"] as? String ?? "-") \($0["detail"] as? String ?? "")" } == [
            "\(Self.actor) article-added - article \(id) \"Budget vote delayed\", publication \"Daily Post\", section \"Local news\", deadline 2026-11-02T17:00, listen until 2099-12-09, priority high",
            "\(Self.actor) article-added - article \(flyer) \"Shop flyer\", publication \"Shop Weekly\", deadline 2099-01-05, priority normal",
            "\(Self.actor) article-moved ann article \(id): assign open → assigned, volunteer none → ann",
            "\(Self.actor) article-moved ann article \(id): leave-open assigned → open, volunteer ann → none",
            "\(Self.actor) as ann article-moved ann article \(id): claim open → assigned, volunteer none → ann",
            "\(Self.actor) article-changed ann article \(id): deadline 2026-11-02T17:00 → none, priority high → urgent",
            "\(Self.actor) article-moved ann article \(id): withdraw assigned → withdrawn",
        ])
    }

    @Test("text pasted on standard input becomes the article's script")
    func pasted() throws {
        let folder = TemporaryFolder("narrate-desk-paste")
        let narrate = try Self.narrate(folder)
        let process = Process()
        process.executableURL = Narrate.executable
        process.arguments = ["desk", "add", "--title", "Shop flyer", "--publication", "Shop Weekly", "--paste", "--json"]
        process.environment = narrate.environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data("Apples are cheap this week.\n\nPears too.\n".utf8))
        try input.fileHandleForWriting.close()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: printed) as? [String: Any])
        let id = try #require(object["id"] as? String)
        let script = try narrate.run("script", "--article", id, "--json")
        #expect(script.stdout.contains("Apples are cheap this week.") && script.stdout.contains("Pears too."), "\(script.stdout)")
    }

    @Test("expire: an article whose listen-until has passed is Expired once, in the service's name")
    func expire() throws {
        let folder = TemporaryFolder("narrate-desk-expire")
        let narrate = try Self.narrate(folder)
        let id = try Self.object(try narrate.run("desk", "add", "--title", "Shop flyer", "--listen-until", "2099-01-01", "--json"))["id"] as? String ?? ""
        #expect(try narrate.run("desk", "expire").stdout == "No article's listen-until has passed; nothing expired.\n")
        #expect(try narrate.run("desk", "change", id, "--listen-until", "2026-01-01").status == 0)
        let expired = try narrate.run("desk", "expire")
        #expect(expired.status == 0 && expired.stdout == "Expired \(id) (\"Shop flyer\"): its listen-until 2026-01-01 has passed.\n")
        #expect(try Self.object(try narrate.run("desk", "show", id, "--json"))["state"] as? String == "expired")
        #expect(try narrate.run("desk", "expire", "--json").stdout == "[\n\n]\n")
        let log = try #require(try narrate.run("audit", "--json").json() as? [[String: Any]]).last
        #expect(log?["actor"] as? String == "the service" && log?["detail"] as? String == "article \(id): expire open → expired")
    }

    @Test("each refusal is one line with its exit status, and the desk, the log and the articles stay as they were")
    func refusals() throws {
        let folder = TemporaryFolder("narrate-desk-refusals")
        let narrate = try Self.narrate(folder)
        let id = try Self.object(try narrate.run("desk", "add", "--title", "Budget", "--publication", "Daily Post", "--json"))["id"] as? String ?? ""
        let personal = try Self.object(try narrate.run("new", "Personal", "--json"))["id"] as? String ?? ""
        // A take in the desk's article, whose bytes every refusal must leave as they are.
        let tone = folder.file("tone.wav").path
        _ = try Signals.run("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", tone, "synth", "1", "sine", "440", "vol", "0.5"])
        #expect(try narrate.run("import", tone, "--article", id).status == 0)
        let notText = folder.file("photo.txt").path
        try Data([0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 0]).write(to: URL(fileURLWithPath: notText))
        let timeRule = "is not a day or a time: give YYYY-MM-DD (the whole day) or YYYY-MM-DDTHH:MM (UTC), e.g. 2026-12-03 or 2026-12-03T17:30."
        let cases: [([String], Int32, String)] = [
            (["desk", "add", "--title", "X", "--deadline", "2026-02-30"], 64, "Error: --deadline \"2026-02-30\" \(timeRule)\n"),
            (["desk", "add", "--title", "X", "--listen-until", "tomorrow"], 64, "Error: --listen-until \"tomorrow\" \(timeRule)\n"),
            (["desk", "add", "--title", "X", "--listen-until", "2020-01-01"], 64, "The \"listen until\" 2020-01-01 has passed already: give a later day, or none.\n"),
            (["desk", "add", "--title", "X", "--priority", "asap"], 64, "Error: --priority \"asap\" is not a priority: give low, normal, high or urgent.\n"),
            (["desk", "add", "--title", "X", "--text", notText, "--paste"], 64, "Error: Give the text either with --text FILE or with --paste, not both.\n"),
            (["desk", "add", "--title", "X", "--rate", "8000"], 64, "Error: Sample rate 8000 Hz is not supported. Use one of 16000, 22050, 44100, 48000 Hz.\n"),
            (["desk", "add", "--title", "  "], 64, "An article on the desk needs a title: give one.\n"),
            (["desk", "list", "--state", "done"], 64,
             "Error: --state \"done\" is not an article's state: give open, assigned, recording, ready-for-review, pickups-requested, approved, published, expired or withdrawn.\n"),
            (["desk", "assign", "not-an-id", "ann"], 64, "Error: \"not-an-id\" is not an article id: ids are up to 32 of 0-9 and a-z without i, l, o, u, e.g. k3f9x2ab.\n"),
            (["desk", "assign", id, "zed"], 1, "No account is named \"zed\". List the accounts with: narrate accounts list\n"),
            (["desk", "assign", id, "pat"], 1,
             "The account pat (proof-listener) cannot be given articles to record: give it to a volunteer, a coordinator or an admin whose account is enabled.\n"),
            (["desk", "assign", personal, "ann"], 1, "The article \(personal) is not on the desk: it was started in the personal studio, not added to the service.\n"),
            (["desk", "open", id], 1, "The article \(id) (\"Budget\") is Open, so it cannot be left open: it can now be assigned, claimed, expired or withdrawn.\n"),
            (["desk", "claim", id], 64, "Error: Missing expected argument '--as <NAME>'\n"),
            (["desk", "change", id], 64, "Error: Say what to change: --section, --deadline, --listen-until or --priority.\n"),
            (["desk", "change", id, "--section", "Local\tnews"], 64,
             "Error: --section: The section \"Local?news\" holds a control character: give it on one line of plain text.\n"),
        ]
        let before = try Self.snapshot(narrate)
        for (arguments, status, stderr) in cases {
            let result = try narrate.run(arguments)
            #expect(result.status == status && result.stderr == stderr && result.stdout.isEmpty, "\(arguments): \(result.status) \(result.stderr)")
        }
        let unreadable = try narrate.run("desk", "add", "--title", "Photo", "--text", notText)
        #expect(unreadable.status == 1 && unreadable.stderr.contains("photo.txt") && unreadable.stderr.split(separator: "\n").count == 1, "\(unreadable.stderr)")
        let after = try Self.snapshot(narrate)
        #expect(after == before)
        #expect(after.files.keys.filter { $0.hasSuffix(".wav") && $0.contains("/\(id)/") }.count == 1, "\(after.files.keys.sorted())")
    }
}
