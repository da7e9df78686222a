import Foundation
@testable import NarrationCore
import NarrationTestSupport
import Testing

/// `narrate config init`: a commented config.toml that changes nothing until a line is
/// uncommented, whose every example narrate accepts, and that is never written over unasked.
@Suite("narrate config init: a commented config.toml to start from")
struct ConfigInitCommandTests {
    /// A narrate whose config.toml would be at `folder/xdg/narrate/config.toml`.
    static func narrate(_ folder: TemporaryFolder) -> Narrate {
        Narrate(home: folder.file("home"), environment: ["XDG_CONFIG_HOME": folder.file("xdg").path])
    }

    static func configFile(_ folder: TemporaryFolder) -> URL { folder.file("xdg/narrate/config.toml") }

    /// The file with the "# " taken off every example line (`# key = value`, `# [table]`).
    static func uncommented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("# ") ? String($0.dropFirst(2)) : String($0) }.joined(separator: "\n")
    }

    @Test("writes config.toml, creating its folder; every line a comment, so `narrate config` shows only defaults")
    func writes() throws {
        let folder = TemporaryFolder()
        let narrate = Self.narrate(folder)
        let result = try narrate.run("config", "init")
        let file = Self.configFile(folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == "Wrote \(file.path): every setting commented out, with its default. Run \"narrate config\" to see the settings in use.\n")
        let text = try String(contentsOf: file, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count > 60)
        #expect(lines.allSatisfy { $0.hasPrefix("#") }, "a line that sets something: \(lines.first { !$0.hasPrefix("#") } ?? "")")
        // It parses, and sets nothing.
        #expect(try Settings(parsing: text, file: file.path) == Settings())
        let shown = try narrate.run("config", "--json")
        #expect(shown.status == 0, "\(shown.stderr)")
        let entries = try #require(try shown.json() as? [[String: Any]])
        #expect(!entries.isEmpty)
        #expect(!entries.contains { $0["source"] as? String == "file" })
        let configEntry = try #require(entries.first { $0["setting"] as? String == "config_file" })
        #expect(configEntry["value"] as? String == "\(file.path) (exists)")
    }

    @Test("every example uncommented is a file narrate accepts, and it sets every key narrate reads")
    func examplesCoverEveryKey() throws {
        let folder = TemporaryFolder()
        let narrate = Self.narrate(folder)
        #expect(try narrate.run("config", "init").status == 0)
        let file = Self.configFile(folder)
        let uncommented = Self.uncommented(try String(contentsOf: file, encoding: .utf8))
        try uncommented.write(to: file, atomically: true, encoding: .utf8)
        // narrate's own parser, as every command reads the file.
        let settings = try Settings(parsing: uncommented, file: file.path)
        #expect(settings.narrator == "Ann Lee" && settings.profile == "archive" && settings.destination == "archive")
        #expect(settings.profiles["org"]?.format == .mp3)
        #expect(Set(settings.destinations.keys) == ["archive", "share"])
        let document = try ConfigParser.document(uncommented, file: file.path)
        for key in Settings.topLevelKeys.subtracting(["profiles", "destinations"]) {
            #expect(document.line(of: key) != nil, "config.toml init has no example for \(key)")
        }
        for key in Settings.profileKeys {
            #expect(document.line(of: "profiles", "org", key) != nil, "config.toml init has no example for [profiles.NAME] \(key)")
        }
        for key in Settings.destinationKeys {
            #expect(document.line(of: "destinations", "archive", key) != nil, "config.toml init has no example for [destinations.NAME] \(key)")
        }
        // And the binary shows it, each setting from its line.
        let shown = try narrate.run("config")
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("profiles.org.carries = [\"audio\", \"transcript\", \"feed\"]"))
        #expect(shown.stdout.contains("destinations.share.url = \"/mnt/share/narrations\""))
    }

    @Test("an existing config.toml is refused in one line, exit 1, byte for byte as it was; --force replaces it")
    func refusesToOverwrite() throws {
        let folder = TemporaryFolder()
        let narrate = Self.narrate(folder)
        let file = Self.configFile(folder)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let own = "narrator = \"Ann Lee\"\n"
        try own.write(to: file, atomically: true, encoding: .utf8)
        let refused = try narrate.run("config", "init")
        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr == "\(file.path) exists already and was left as it is; edit it, or add --force to replace it with the commented one.\n")
        #expect(try String(contentsOf: file, encoding: .utf8) == own)
        let forced = try narrate.run("config", "init", "--force")
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8).hasPrefix("## narrate's settings."))
    }

    @Test("a link at config.toml's place counts as a file: refused; --force replaces the link, never writes through it")
    func plantedLink() throws {
        let folder = TemporaryFolder()
        let narrate = Self.narrate(folder)
        let file = Self.configFile(folder)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let target = folder.file("elsewhere.txt")
        try "not narrate's\n".write(to: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: target)
        let refused = try narrate.run("config", "init")
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("\(file.path) exists already"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: file.path) == target.path)
        let forced = try narrate.run("config", "init", "--force")
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOf: target, encoding: .utf8) == "not narrate's\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    }

    @Test("`narrate config --json` and `narrate config show` still show the settings, as before init existed")
    func showStaysTheDefault() throws {
        let folder = TemporaryFolder()
        let narrate = Self.narrate(folder)
        let plain = try narrate.run("config")
        let show = try narrate.run("config", "show")
        #expect(plain.status == 0 && show.status == 0)
        #expect(plain.stdout == show.stdout)
        #expect(plain.stdout.hasPrefix("[general]\nnarrator = \"\""))
    }

    @Test("`narrate help config init` says where the file goes and that --force replaces one")
    func help() throws {
        let folder = TemporaryFolder()
        let result = try Self.narrate(folder).run("help", "config", "init")
        #expect(result.status == 0)
        let help = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("Writes config.toml ($XDG_CONFIG_HOME/narrate/config.toml, else ~/.config/narrate/config.toml) with every section"))
        #expect(help.contains("left as it is unless --force is given."))
        #expect(!result.stdout.contains("\\"))
    }
}
