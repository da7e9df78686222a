import Foundation
import NarrationTestSupport
import Testing

/// The catalog's stored values, damaged one at a time (wrong types, out-of-range numbers, ids
/// that would climb out of the data root, unknown states), then the real binary run on it:
/// every command ends with exit status 0, 1 or 64 and at most a sentence on stderr, never a
/// trap, and no file outside the data root is touched.
@Suite("Fuzzing the catalog's stored values")
struct CatalogFuzzTests {
    static let rounds = 60

    /// Sets one column of one row to `value` (SQL literal), foreign keys off, as damage would.
    static let damage = """
        import sqlite3, sys
        path, table, column, offset, value = sys.argv[1:6]
        db = sqlite3.connect(path)
        db.execute("PRAGMA foreign_keys = OFF")
        count = db.execute('SELECT COUNT(*) FROM "%s"' % table).fetchone()[0]
        if count == 0:
            print("empty"); sys.exit(0)
        rowid = db.execute('SELECT rowid FROM "%s" ORDER BY rowid LIMIT 1 OFFSET %d' % (table, int(offset) % count)).fetchone()[0]
        try:
            db.execute('UPDATE "%s" SET "%s" = %s WHERE rowid = %d' % (table, column, value, rowid))
            db.commit()
            print("changed")
        except sqlite3.IntegrityError:
            print("refused")
        """

    static let columns: [(table: String, columns: [String])] = [
        ("article", ["id", "title", "sampleRate", "channels", "bitsPerSample", "createdAt", "state"]),
        ("chunk", ["id", "articleId", "position", "frames", "peakDBFS", "rmsDBFS", "overruns", "recovered", "recordedAt"]),
        ("setting", ["value"]),
        ("outbox", ["id", "articleId", "file", "sidecar", "bytes", "queuedAt", "state", "attempts", "deliveredAt", "pathStyle", "uploadId"]),
    ]

    static let values = [
        "NULL", "-1", "0", "1", "3", "44100", "2147483648", "9223372036854775807", "-9223372036854775808", "1e308", "-1e308",
        "''", "'x'", "'queued'", "'delivered'", "'open'", "'../../../../outside'", "'🎙️'", "'2026-13-45'",
        "'1970-01-01 00:00:00.000'", "X'00FF'", "'9999-12-31 23:59:59.999'",
    ]

    @Test("every command on a catalog with one damaged value: a clean exit or one sentence, nothing outside touched")
    func damagedValues() throws {
        var random = SeededGenerator(default: 0x4341_5441)
        let fixture = try EndToEndFixture(source: Signals.speech(.speech, seconds: 2))
        let first = try fixture.newArticle("Queued one")
        for _ in 0..<3 { #expect(try fixture.record(0.3).status == 0) }
        #expect(try fixture.narrate.run("queue").status == 0)
        let current = try fixture.newArticle("Current one")
        for _ in 0..<2 { #expect(try fixture.record(0.3).status == 0) }

        // The takes' background checks end first: one still running would write into the data
        // root each round replaces (a catalog made anew where the pristine one is to go).
        fixture.waitForBackgroundCommands()
        let pristine = fixture.folder.file("pristine")
        try FileManager.default.copyItem(at: fixture.narrate.home, to: pristine)
        // Where a chunk id of "../../../../outside" would point.
        let outside = fixture.folder.file("outside.wav")
        let sentinel = Data("not a recording".utf8)
        try sentinel.write(to: outside)
        let neighbours = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.url.path).sorted()
        let commands: [[String]] = [
            ["list", "--json"], ["chunks", "--json"], ["chunks", "--article", first], ["export", "-o", fixture.folder.file("out.flac").path],
            ["outbox", "list", "--json"], ["delete-chunk", "1", "--article", current],
        ]
        var statuses: [Int32: Int] = [:]
        var changed = 0
        for round in 0..<Self.rounds {
            try? FileManager.default.removeItem(at: fixture.narrate.home)
            try? FileManager.default.removeItem(at: fixture.folder.file("out.flac"))
            try FileManager.default.copyItem(at: pristine, to: fixture.narrate.home)
            let (table, columns) = Self.columns.randomElement(using: &random)!
            let column = columns.randomElement(using: &random)!
            let value = Self.values.randomElement(using: &random)!
            let offset = Int.random(in: 0..<8, using: &random)
            let outcome = try Signals.run("/usr/bin/python3", [
                "-c", Self.damage, fixture.narrate.home.appendingPathComponent("catalog.sqlite").path, table, column, String(offset), value,
            ]).trimmingCharacters(in: .whitespacesAndNewlines)
            guard outcome == "changed" else { continue }
            changed += 1
            let damage = "round \(round): \(table).\(column) = \(value) (seed \(random.seed))"
            for command in commands {
                let result = try fixture.narrate.run(command)
                statuses[result.status, default: 0] += 1
                #expect([0, 1, 64].contains(result.status), "\(damage): narrate \(command.joined(separator: " ")) ended with \(result.status): \(result.stderr)")
                #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Stack dump"), "\(damage): \(result.stderr)")
                if result.status != 0 {
                    let lines = result.stderr.split(separator: "\n")
                    #expect(lines.count == 1 && lines[0].hasSuffix("."), "\(damage): narrate \(command.joined(separator: " ")) said: \(result.stderr)")
                }
            }
            #expect(try Data(contentsOf: outside) == sentinel, "\(damage): a file outside the data root was touched")
            let now = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.url.path).filter { $0 != "out.flac" }.sorted()
            #expect(now == neighbours, "\(damage): the data root's neighbours changed")
        }
        print("figure: catalog fuzz (seed \(random.seed)): \(changed) damaged catalogs × \(commands.count) commands; exit statuses \(statuses.sorted { $0.key < $1.key })")
        #expect(changed >= Self.rounds / 2)
    }

    /// The damage fuzzing found, each of which once trapped or reached outside the data root.
    @Test("regressions: a huge peak, a huge length, an id that climbs out", arguments: [
        ("peakDBFS", "1e308", "narrate chunks", "holds levels no recording has (peak inf, RMS "),
        ("frames", "1e308", "narrate list", "holds chunk lengths no recording has."),
        ("id", "'../../../../outside'", "narrate delete-chunk 1", "The catalog holds a chunk whose id \"../../../../outside\" narrate never makes."),
    ])
    func regressions(column: String, value: String, command: String, sentence: String) throws {
        let fixture = try EndToEndFixture(source: Signals.speech(.speech, seconds: 1))
        _ = try fixture.newArticle()
        #expect(try fixture.record(0.3).status == 0)
        let outside = fixture.folder.file("outside.wav")
        try Data("not a recording".utf8).write(to: outside)
        let changed = try Signals.run("/usr/bin/python3", [
            "-c", Self.damage, fixture.narrate.home.appendingPathComponent("catalog.sqlite").path, "chunk", column, "0", value,
        ])
        #expect(changed.hasPrefix("changed"))
        let result = try fixture.narrate.run(command.split(separator: " ").dropFirst().map(String.init))
        #expect(result.status == 1)
        #expect(result.stderr.contains(sentence), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("No recording was changed; move the catalog aside to start a new one, the chunk files stay under the articles folder.\n"))
        #expect(try String(contentsOf: outside, encoding: .utf8) == "not a recording")
    }
}
