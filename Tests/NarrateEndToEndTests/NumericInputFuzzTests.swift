import Foundation
import NarrationTestSupport
import Testing

/// Every number the command line takes, given every kind of value that has trapped a command
/// before: each is refused in one line on stderr, with a non-zero exit that is not a signal's
/// (132 SIGILL, 133 SIGTRAP, 134 SIGABRT, 139 SIGSEGV), and every recording stays as it was.
@Suite("Numbers from the command line: huge, negative, NaN, infinite, empty")
struct NumericInputFuzzTests {
    /// The values tried in every numeric place.
    static let values = [
        "99999999999999999999", "-5", "nan", "inf", "-inf", "1e300", "-0", "9223372036854775807", "18446744073709551616",
        "-9223372036854775809", "", "1_000", "12abc",
    ]

    /// Each numeric place, as a function of the value: `record` and `play` name virtual devices
    /// and a short take, so that a value wrongly taken would record or play, not wait. The
    /// pre-roll is tried on a punch into a chunk that does not exist, so that a pre-roll taken
    /// is refused for the chunk and leaves chunk 1 as it was.
    static let places: [(String, @Sendable (String) -> [String])] = [
        ("delete-chunk N", { ["delete-chunk", $0] }),
        ("move-chunk N", { ["move-chunk", $0, "--to", "1"] }),
        ("move-chunk --to", { ["move-chunk", "1", "--to", $0] }),
        ("trim N", { ["trim", $0, "--start", "0.1"] }),
        ("trim --start", { ["trim", "1", "--start", $0] }),
        ("trim --end", { ["trim", "1", "--end", $0] }),
        ("record --duration", { ["record", "--device", "vmic", "--duration", $0] }),
        ("record --start-after", { ["record", "--device", "vmic", "--duration", "0.1", "--start-after", $0] }),
        ("record --replace", { ["record", "--device", "vmic", "--duration", "0.1", "--replace", $0] }),
        ("record --insert", { ["record", "--device", "vmic", "--duration", "0.1", "--insert", $0] }),
        ("record --paragraph", { ["record", "--device", "vmic", "--duration", "0.1", "--paragraph", $0] }),
        ("record --punch N@", { ["record", "--device", "vmic", "--output-device", "vspk", "--duration", "0.1", "--punch", "\($0)@0.1"] }),
        ("record --punch @TIME", { ["record", "--device", "vmic", "--output-device", "vspk", "--duration", "0.1", "--punch", "1@\($0)"] }),
        ("record --pre-roll", { ["record", "--device", "vmic", "--output-device", "vspk", "--duration", "0.1", "--punch", "3@0.1", "--pre-roll", $0] }),
        ("play --from", { ["play", "--device", "vspk", "--from", $0] }),
        ("play --to", { ["play", "--device", "vspk", "--to", $0] }),
        ("play --speed", { ["play", "--device", "vspk", "--speed", $0] }),
        ("play --volume", { ["play", "--device", "vspk", "--volume", $0] }),
        ("export --from", { ["export", "-o", "fuzz.wav", "--from", $0] }),
        ("export --to", { ["export", "-o", "fuzz.wav", "--to", $0] }),
        ("export --bitrate", { ["export", "-o", "fuzz.mp3", "--bitrate", $0] }),
        ("export --vbr", { ["export", "-o", "fuzz.mp3", "--vbr", $0] }),
        ("history --limit", { ["history", "--limit", $0] }),
        ("script --dismiss", { ["script", "--dismiss", $0] }),
        ("new --rate", { ["new", "Fuzz", "--rate", $0] }),
        ("new --channels", { ["new", "Fuzz", "--channels", $0] }),
        ("new --bits", { ["new", "Fuzz", "--bits", $0] }),
        ("doctor --seconds", { ["doctor", "--device", "vmic", "--seconds", $0] }),
        ("submit --attempts", { ["submit", "--attempts", $0] }),
        ("submit --retry-wait", { ["submit", "--retry-wait", $0] }),
        ("outbox push --attempts", { ["outbox", "push", "--attempts", $0] }),
        ("outbox push --retry-wait", { ["outbox", "push", "--retry-wait", $0] }),
        ("hours --from", { ["hours", "--from", $0] }),
        ("hours --to", { ["hours", "--to", $0] }),
        ("hours --accounts --month", { ["hours", "--accounts", "--month", $0] }),
        ("review note --paragraph", { ["review", "note", "--as", "dora", "--paragraph", $0, "--at", "0.1", "--text", "x"] }),
        ("review note --at", { ["review", "note", "--as", "dora", "--paragraph", "1", "--at", $0, "--text", "x"] }),
        ("review done NOTE", { ["review", "done", $0, "--edit", "1", "--as", "ann"] }),
        ("review done --edit", { ["review", "done", "1", "--edit", $0, "--as", "ann"] }),
    ]

    /// Values that are numbers a command may take as they are: minus zero where 0 is allowed, a
    /// history as long as you like. They do what the value asks, and are not counted as refused.
    static let accepted: Set<String> = [
        "history --limit 9223372036854775807", "play --volume -0", "export --vbr -0", "outbox push --retry-wait -0",
        "record --start-after -0",
    ]

    @Test("each value in each place: one line, a non-zero status that is not a trap's, recordings untouched", arguments: places.map(\.0))
    func place(name: String) throws {
        let arguments = try #require(Self.places.first { $0.0 == name }?.1)
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Numbers")
        try fixture.record(0.5)
        try fixture.record(0.5)
        let before = try fixture.recordings()
        var refused = 0
        for value in Self.values {
            // Exports go into the fixture's folder, never the working directory.
            let line = arguments(value).map { $0.hasPrefix("fuzz.") ? fixture.folder.file($0).path : $0 }
            let result = try fixture.narrate.run(line)
            let what = "\(name) \"\(value)\": status \(result.status), stderr \(result.stderr)"
            #expect(![132, 133, 134, 139].contains(result.status), "\(what)")
            #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Backtracing"), "\(what)")
            if Self.accepted.contains("\(name) \(value)") {
                #expect(result.status == 0, "\(what)")
                continue
            }
            #expect(result.status != 0, "\(what)")
            #expect(result.stderr.hasSuffix("\n") && result.stderr.filter { $0 == "\n" }.count == 1, "one line: \(what)")
            refused += 1
        }
        for (path, data) in before { #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data, "\(path) changed") }
        print("figure: \(name): \(refused) of \(Self.values.count) values refused in one line")
    }

    @Test("a time beyond any chunk is named with the range, not a trap", arguments: [
        (["record", "--punch", "1@9999999999999999"],
         "Error: --punch 1@9999999999999999 is not a time in chunk 1: after the @ give seconds (12.5) or HH:MM:SS.mmm, from 0 to 24:00:00.\n"),
        (["trim", "1", "--start", "9999999999999999"],
         "Error: --start 9999999999999999 is not a time in a chunk: give seconds (12.5) or HH:MM:SS.mmm, from 0 to 24:00:00.\n"),
        (["trim", "1", "--end", "9223372036854775807:59:59"],
         "Error: --end 9223372036854775807:59:59 is not a time in a chunk: give seconds (12.5) or HH:MM:SS.mmm, from 0 to 24:00:00.\n"),
        (["record", "--punch", "x@1"],
         "Error: --punch x@1 is not a chunk and a time: give N@TIME, a chunk from 1 (see \"narrate chunks\") and a time into it, e.g. 3@12.5 or 3@00:00:12.500.\n"),
    ])
    func namedTimes(arguments: [String], stderr: String) throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Numbers")
        try fixture.record(0.5)
        let before = try fixture.recordings()
        let result = try fixture.narrate.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr == stderr)
        #expect(try fixture.recordings() == before)
    }

    @Test("every number of a profile in config.toml: out of range, NaN or infinite is one line naming the key, exit 64", arguments: [
        "bitrate", "vbr", "loudness", "rms", "peak_ceiling", "room_tone_head", "room_tone_tail", "max_pause", "join_fade", "max_silence",
    ])
    func configNumbers(key: String) throws {
        let fixture = try EndToEndFixture()
        let config = fixture.folder.file("config/narrate")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let narrate = Narrate(home: fixture.narrate.home, environment: ["XDG_CONFIG_HOME": fixture.folder.file("config").path])
        for value in ["1e300", "-1e300", "nan", "inf", "-inf", "18446744073709551616", "9223372036854775807", "-9223372036854775809", "\"\""] {
            try "[profiles.fuzz]\nbase = \"podcast\"\n\(key) = \(value)\n".write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
            let result = try narrate.run("config")
            #expect(result.status == 64, "\(key) = \(value): \(result.stderr)")
            #expect(result.stderr.hasPrefix(config.appendingPathComponent("config.toml").path), "\(key) = \(value): \(result.stderr)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(key) = \(value): \(result.stderr)")
        }
    }
}
