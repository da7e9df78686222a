import NarrationCore
import Testing

@Suite("Effective settings: each value and where it came from")
struct EffectiveSettingsTests {
    static let text = """
        # Narration settings
        narrator = "Ann Lee"

        language = "cy"   # Welsh
        [profiles.org]
        base = "podcast"
        bitrate = 96
        carries = ["audio", "feed"]

        [destinations.archive]
        url = "s3://radio-archive/narrations"
        region = "eu-central-1"
        credentials_file = "~/keys"
        feed_title = "{publication}, read aloud"
        """

    static func effective(
        _ text: String? = text, environment: [String: String] = [:], existing: Set<String> = []
    ) throws -> EffectiveSettings {
        try EffectiveSettings(
            configText: text, configFile: .init(path: "/cfg/narrate/config.toml", variable: "XDG_CONFIG_HOME"),
            dataRoot: .init(path: "/data/narrate", variable: "NARRATE_HOME"), storageAnswerWait: 15, environment: environment,
            home: "/home/ann", fileExists: { existing.contains($0) })
    }

    @Test("the parser keeps the line of every key and table header")
    func lines() throws {
        let document = try ConfigParser.document(Self.text, file: "config.toml")
        #expect(document.line(of: "narrator") == 2)
        #expect(document.line(of: "language") == 4)
        #expect(document.line(of: "profiles", "org") == 5)
        #expect(document.line(of: "profiles", "org", "bitrate") == 7)
        #expect(document.line(of: "destinations", "archive", "feed_title") == 14)
        #expect(document.line(of: "publication") == nil)
        #expect(document.values == (try ConfigParser.parse(Self.text, file: "config.toml")))
    }

    @Test("a dotted key's line is kept under its full path")
    func dottedKey() throws {
        let document = try ConfigParser.document("[profiles]\norg.bitrate = 64\n", file: "config.toml")
        #expect(document.line(of: "profiles", "org", "bitrate") == 2)
    }

    @Test("config.toml's settings name their line, the others are defaults")
    func fileAndDefault() throws {
        let settings = try Self.effective()
        let file = "/cfg/narrate/config.toml"
        #expect(settings.entry("narrator") == .init(.general, "narrator", "\"Ann Lee\"", .file(path: file, line: 2)))
        #expect(settings.entry("language") == .init(.general, "language", "\"cy\"", .file(path: file, line: 4)))
        #expect(settings.entry("publication") == .init(.general, "publication", "\"\"", .default))
        #expect(settings.entry("profile") == .init(.general, "profile", "\"archive\"", .default))
        #expect(settings.entry("profiles.org.bitrate") == .init(.profiles, "profiles.org.bitrate", "96", .file(path: file, line: 7)))
        #expect(settings.entry("profiles.org.carries")?.value == "[\"audio\", \"feed\"]")
        #expect(settings.entry("destinations.archive.region") == .init(.destinations, "destinations.archive.region", "\"eu-central-1\"", .file(path: file, line: 12)))
        #expect(settings.entry("destinations.archive.endpoint") == .init(
            .destinations, "destinations.archive.endpoint", "\"https://s3.eu-central-1.amazonaws.com\"", .default))
        #expect(settings.entry("destinations.archive.path_style") == .init(.destinations, "destinations.archive.path_style", "false", .default))
        #expect(settings.entry("destinations.archive.credentials_file") == .init(
            .destinations, "destinations.archive.credentials_file", "/home/ann/keys (missing)", .file(path: file, line: 13)))
        // A destination's feed language follows the top-level language, and says so.
        #expect(settings.entry("destinations.archive.feed_language") == .init(
            .destinations, "destinations.archive.feed_language", "\"cy\"", .file(path: file, line: 4)))
        #expect(settings.entry("config_file") == .init(.environment, "config_file", "\(file) (missing)", .environment("XDG_CONFIG_HOME")))
        #expect(settings.entry("data_root") == .init(.environment, "data_root", "/data/narrate", .environment("NARRATE_HOME")))
    }

    @Test("no config.toml: every setting is narrate's default")
    func noFile() throws {
        let settings = try Self.effective(nil)
        let general = settings.entries.filter { $0.group == .general }
        #expect(general.map(\.name) == ["narrator", "publication", "device", "profile", "destination", "language"])
        #expect(general.allSatisfy { $0.source == .default })
        #expect(settings.entry("destination")?.value == "(none)")
        #expect(!settings.entries.contains { $0.group == .profiles || $0.group == .destinations })
    }

    @Test("secrets are present or absent, never their text; the credentials file only by path and existence")
    func secrets() throws {
        let environment = [
            "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE1234", "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG", "AWS_PROFILE": "radio",
            "AWS_SHARED_CREDENTIALS_FILE": "/etc/aws/creds", "AWS_DEFAULT_REGION": "eu-west-1",
        ]
        let settings = try Self.effective(environment: environment, existing: ["/etc/aws/creds"])
        #expect(settings.entry("aws_access_key_id") == .init(.environment, "aws_access_key_id", "present", .environment("AWS_ACCESS_KEY_ID")))
        #expect(settings.entry("aws_secret_access_key") == .init(
            .environment, "aws_secret_access_key", "present", .environment("AWS_SECRET_ACCESS_KEY")))
        #expect(settings.entry("aws_session_token") == .init(.environment, "aws_session_token", "absent", .default))
        #expect(settings.entry("credentials_file") == .init(
            .environment, "credentials_file", "/etc/aws/creds (exists), not used: the key pair comes from the environment",
            .environment("AWS_SHARED_CREDENTIALS_FILE")))
        #expect(settings.entry("credentials_profile") == .init(.environment, "credentials_profile", "\"radio\"", .environment("AWS_PROFILE")))
        #expect(settings.entry("destinations.archive.credentials_profile")?.source == .environment("AWS_PROFILE"))
        #expect(settings.entry("region") == .init(.environment, "region", "\"eu-west-1\"", .environment("AWS_DEFAULT_REGION")))
        for entry in settings.entries {
            #expect(!entry.value.contains("AKIDEXAMPLE1234") && !entry.value.contains("wJalrXUtnFEMI"), "\(entry.name)")
        }
    }

    @Test("AWS_REGION wins over AWS_DEFAULT_REGION; an answer wait the client ignored is the default")
    func regionAndWait() throws {
        let settings = try Self.effective(environment: [
            "AWS_REGION": "ap-south-1", "AWS_DEFAULT_REGION": "eu-west-1", "NARRATE_STORAGE_ANSWER_TIMEOUT": "9000",
        ])
        #expect(settings.entry("region")?.source == .environment("AWS_REGION"))
        #expect(settings.entry("region")?.value == "\"ap-south-1\"")
        #expect(settings.entry("storage_answer_timeout") == .init(
            .environment, "storage_answer_timeout", "15.0 s (NARRATE_STORAGE_ANSWER_TIMEOUT \"9000\" ignored: give 0.1 to 600)", .default))
    }

    @Test("a broken file is refused in the words Settings uses")
    func broken() throws {
        #expect(throws: NarrationError(
            .usage, "/cfg/narrate/config.toml, line 2: Ann is not a value narrate understands (a string in quotes, a number, true or false). Fix the line or remove it.")) {
            try Self.effective("# settings\nnarrator = Ann")
        }
    }
}
