import Foundation
import NarrationTestSupport
import Testing

/// `narrate config`: the effective settings from the three sources, with secrets kept out.
@Suite("narrate config: each setting and where it came from")
struct ConfigCommandTests {
    static let keyID = "AKIDCONFIGTEST0001"
    static let secret = "s3cr3t/ConfigTest+NeverPrinted"

    /// A narrate with config.toml in its own XDG_CONFIG_HOME and the key pair in its environment.
    static func narrate(_ folder: TemporaryFolder, config: String) throws -> Narrate {
        let configFolder = folder.file("xdg/narrate")
        try FileManager.default.createDirectory(at: configFolder, withIntermediateDirectories: true)
        try config.write(to: configFolder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        return Narrate(home: folder.file("home"), environment: [
            "XDG_CONFIG_HOME": folder.file("xdg").path, "AWS_ACCESS_KEY_ID": keyID, "AWS_SECRET_ACCESS_KEY": secret,
        ])
    }

    static let config = """
        # the booth's settings
        narrator = "Ann Lee"
        publication = "Daily Post"

        [destinations.archive]
        url = "s3://radio-archive/narrations"
        region = "eu-central-1"
        """

    @Test("a file setting names its line, an unset one is a default, the data root names NARRATE_HOME; no secret is printed")
    func plain() throws {
        let folder = TemporaryFolder()
        let narrate = try Self.narrate(folder, config: Self.config)
        let result = try narrate.run("config")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        func line(_ setting: String) -> String? { lines.first { $0.hasPrefix(setting + " = ") } }
        #expect(try #require(line("publication")).hasSuffix("(config.toml line 3)"))
        #expect(try #require(line("publication")).hasPrefix("publication = \"Daily Post\" "))
        #expect(try #require(line("destinations.archive.region")).hasSuffix("(config.toml line 7)"))
        #expect(try #require(line("device")).hasPrefix("device = \"default\" "))
        #expect(try #require(line("device")).hasSuffix("(default)"))
        #expect(try #require(line("data_root")).hasPrefix("data_root = \(narrate.home.path) "))
        #expect(try #require(line("data_root")).hasSuffix("(environment NARRATE_HOME)"))
        #expect(try #require(line("config_file")).hasPrefix("config_file = \(folder.file("xdg/narrate/config.toml").path) (exists) "))
        #expect(try #require(line("config_file")).hasSuffix("(environment XDG_CONFIG_HOME)"))
        #expect(try #require(line("aws_secret_access_key")).hasPrefix("aws_secret_access_key = present "))
        #expect(try #require(line("aws_secret_access_key")).hasSuffix("(environment AWS_SECRET_ACCESS_KEY)"))
        #expect(try #require(line("aws_session_token")).hasPrefix("aws_session_token = absent "))
        #expect(lines.contains("[general]") && lines.contains("[destinations]") && lines.contains("[environment]"))
        // Within a group the sources line up in one column.
        let groups = result.stdout.components(separatedBy: "\n\n")
        #expect(groups.count == 3)
        for group in groups {
            let columns = Set(group.split(separator: "\n").filter { $0.contains(" = ") }.map { $0.ranges(of: "   (").last!.lowerBound.utf16Offset(in: $0) })
            #expect(columns.count == 1, "\(group)")
        }
        for text in [Self.keyID, Self.secret] {
            #expect(!result.stdout.contains(text) && !result.stderr.contains(text))
        }
    }

    @Test("--json is an array with each setting's source, file and line or variable, and no secret")
    func json() throws {
        let folder = TemporaryFolder()
        let narrate = try Self.narrate(folder, config: Self.config)
        let result = try narrate.run("config", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let entries = try #require(try result.json() as? [[String: Any]])
        func entry(_ setting: String) throws -> [String: Any] { try #require(entries.first { $0["setting"] as? String == setting }) }
        let narrator = try entry("narrator")
        #expect(narrator["value"] as? String == "\"Ann Lee\"")
        #expect(narrator["source"] as? String == "file")
        #expect(narrator["line"] as? Int == 2)
        #expect(narrator["file"] as? String == folder.file("xdg/narrate/config.toml").path)
        #expect(narrator["variable"] == nil)
        let language = try entry("language")
        #expect(language["source"] as? String == "default" && language["line"] == nil && language["file"] == nil)
        let root = try entry("data_root")
        #expect(root["source"] as? String == "environment" && root["variable"] as? String == "NARRATE_HOME")
        #expect(root["value"] as? String == narrate.home.path)
        let keyID = try entry("aws_access_key_id")
        #expect(keyID["value"] as? String == "present" && keyID["variable"] as? String == "AWS_ACCESS_KEY_ID")
        for text in [Self.keyID, Self.secret] {
            #expect(!result.stdout.contains(text) && !result.stderr.contains(text))
        }
    }

    @Test("a destination's credentials file is shown by its path and that it exists, never by what it holds")
    func credentialsFile() throws {
        let folder = TemporaryFolder()
        let keys = folder.file("keys")
        let fileSecret = "FileHeldSecret-9f3a"
        try "[default]\naws_access_key_id = AKIDFILE\naws_secret_access_key = \(fileSecret)\n".write(to: keys, atomically: true, encoding: .utf8)
        let narrate = try Self.narrate(folder, config: """
            [destinations.archive]
            url = "s3://radio-archive/narrations"
            credentials_file = "\(keys.path)"
            """)
        let result = try narrate.run("config")
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("destinations.archive.credentials_file = ") })
        #expect(line.hasPrefix("destinations.archive.credentials_file = \(keys.path) (exists) "))
        #expect(line.hasSuffix("(config.toml line 3)"))
        for text in [fileSecret, "AKIDFILE", Self.secret] { #expect(!result.stdout.contains(text) && !result.stderr.contains(text)) }
    }

    @Test("a broken config.toml is the one-line error every command gives, and exit 64")
    func broken() throws {
        let folder = TemporaryFolder()
        let narrate = try Self.narrate(folder, config: "narrator = \"Ann\"\npublication = Daily Post\n")
        let result = try narrate.run("config")
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        let file = folder.file("xdg/narrate/config.toml").path
        #expect(result.stderr == "\(file), line 2: Daily Post is not a value narrate understands (a string in quotes, a number, true or false). Fix the line or remove it.\n")
        let newArticle = try narrate.run("new", "Budget vote")
        #expect(newArticle.status == 64 && newArticle.stderr == result.stderr)
    }

    @Test("--help names the three sources and says secrets are only present or absent")
    func help() throws {
        let folder = TemporaryFolder()
        let result = try Narrate(home: folder.file("home")).run("config", "--help")
        #expect(result.status == 0)
        let help = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("narrate's default, a line of config.toml"))
        #expect(help.contains("or an environment variable"))
        #expect(help.contains("listed only as present or absent"))
    }
}
