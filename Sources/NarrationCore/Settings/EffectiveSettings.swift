/// Every setting narrate runs with, its value, and where it came from: narrate's default, a line
/// of config.toml, or an environment variable.
///
/// Pure: the caller reads the file and says what the environment decided where another part of
/// narrate owns the rule (the data root, the config file's place, the storage's answer wait);
/// whether a file exists is asked of `fileExists`, and no file is ever read here. Secrets (the
/// key pair, the session token) are listed only as "present" or "absent": their values never
/// enter an entry, so no front end can print them.
public struct EffectiveSettings: Sendable, Equatable {
    /// One setting as narrate will use it.
    public struct Entry: Sendable, Equatable {
        /// The part of the listing an entry belongs to.
        public enum Group: String, Sendable, CaseIterable {
            case general, profiles, destinations, environment
        }

        public var group: Group
        /// As config.toml names it (`narrator`, `profiles.org.bitrate`,
        /// `destinations.archive.region`), or a name of its own for what the environment decides
        /// (`data_root`, `aws_secret_access_key`).
        public var name: String
        /// As config.toml writes it for a config.toml setting (`"Ann Lee"`, `96`), else plain text.
        public var value: String
        public var source: SettingSource

        public init(_ group: Group, _ name: String, _ value: String, _ source: SettingSource) {
            self.group = group
            self.name = name
            self.value = value
            self.source = source
        }
    }

    /// A place the environment decides: its path, and the variable that named it (nil: the default).
    public struct Place: Sendable, Equatable {
        public var path: String
        public var variable: String?

        public init(path: String, variable: String?) {
            self.path = path
            self.variable = variable
        }
    }

    public var entries: [Entry]

    /// The entry called `name`, if any.
    public func entry(_ name: String) -> Entry? { entries.first { $0.name == name } }

    /// The effective settings.
    /// - Parameters:
    ///   - configText: config.toml's text; nil when there is no file (every setting its default).
    ///   - configFile: where config.toml is (or would be), and the variable that put it there.
    ///   - dataRoot: the folder recordings live in, and the variable that chose it.
    ///   - storageAnswerWait: the seconds object storage may stay silent, as the storage client
    ///     reads them from `NARRATE_STORAGE_ANSWER_TIMEOUT` (15 unless that is valid).
    ///   - environment: the process's environment, for the S3 variables.
    ///   - home: the home folder, for `~/` in credentials files and `~/.aws/credentials`.
    ///   - fileExists: whether a credentials file is there; asked of paths only, never read.
    /// - Throws: `usage`, exactly as `Settings(parsing:file:)` refuses a broken file.
    public init(
        configText: String?, configFile: Place, dataRoot: Place, storageAnswerWait: Double, environment: [String: String], home: String,
        fileExists: (String) -> Bool
    ) throws(NarrationError) {
        let path = configFile.path
        let settings = try configText.map { text throws(NarrationError) in try Settings(parsing: text, file: path) } ?? Settings()
        let document = try configText.map { text throws(NarrationError) in try ConfigParser.document(text, file: path) } ?? ConfigDocument()
        func source(_ keyPath: [String]) -> SettingSource {
            document.lines[keyPath].map { .file(path: path, line: $0) } ?? .default
        }
        func written(_ keyPath: [String]) -> String? {
            var value: ConfigValue? = .table(document.values)
            for key in keyPath { value = value?.table?[key] }
            return value?.written
        }
        func quoted(_ text: String) -> String { ConfigValue.string(text).written }
        func expanded(_ file: String) -> String { file.hasPrefix("~/") ? home + file.dropFirst() : file }
        func existence(_ file: String) -> String { "\(file) (\(fileExists(file) ? "exists" : "missing"))" }

        var entries: [Entry] = []
        let general: [(String, String)] = [
            ("narrator", quoted(settings.narrator)), ("publication", quoted(settings.publication)), ("device", quoted(settings.device)),
            ("profile", quoted(settings.profile)), ("destination", settings.destination.map(quoted) ?? "(none)"),
            ("language", quoted(settings.language)),
        ]
        for (key, value) in general { entries.append(Entry(.general, key, value, source([key]))) }
        // A reading service's settings, listed only when config.toml has a [service] table.
        if let address = settings.serviceAddress {
            entries.append(Entry(.general, "service.address", quoted(address.rawValue), source(["service", "address"])))
        }
        if document.values["service"] != nil {
            entries.append(Entry(.general, "service.review", String(settings.serviceReview), source(["service", "review"])))
        }
        if let catalog = settings.serviceCatalog {
            entries.append(Entry(.general, "service.catalog", quoted(catalog), source(["service", "catalog"])))
        }
        if let file = settings.serviceCatalogPasswordFile {
            entries.append(Entry(.general, "service.catalog_password_file", quoted(file), source(["service", "catalog_password_file"])))
        }
        if let recordings = settings.serviceRecordings {
            entries.append(Entry(.general, "service.recordings", quoted(recordings.description), source(["service", "recordings"])))
        }

        for name in settings.profiles.keys.sorted() {
            let table = document.values["profiles"]?.table?[name]?.table ?? [:]
            if table["base"] == nil { entries.append(Entry(.profiles, "profiles.\(name).base", quoted("archive"), .default)) }
            for key in table.keys.sorted() {
                let keyPath = ["profiles", name, key]
                entries.append(Entry(.profiles, keyPath.joined(separator: "."), written(keyPath) ?? "", source(keyPath)))
            }
        }

        let sharedFile = environment["AWS_SHARED_CREDENTIALS_FILE"].map { Place(path: $0, variable: "AWS_SHARED_CREDENTIALS_FILE") }
            ?? Place(path: "\(home)/.aws/credentials", variable: nil)
        let awsProfile = environment["AWS_PROFILE"].map { Place(path: $0, variable: "AWS_PROFILE") } ?? Place(path: "default", variable: nil)
        for name in settings.destinations.keys.sorted() {
            guard let destination = settings.destinations[name] else { continue }
            let table = document.values["destinations"]?.table?[name]?.table ?? [:]
            func add(_ key: String, default fallback: String, _ fallbackSource: SettingSource = .default) {
                let keyPath = ["destinations", name, key]
                if table[key] != nil {
                    entries.append(Entry(.destinations, keyPath.joined(separator: "."), written(keyPath) ?? "", source(keyPath)))
                } else {
                    entries.append(Entry(.destinations, keyPath.joined(separator: "."), fallback, fallbackSource))
                }
            }
            add("url", default: "")
            if case .s3(let storage) = destination {
                add("endpoint", default: quoted(storage.endpoint))
                add("region", default: quoted(storage.region))
                add("path_style", default: "false")
                if let file = storage.credentialsFile {
                    let keyPath = ["destinations", name, "credentials_file"]
                    entries.append(Entry(.destinations, keyPath.joined(separator: "."), existence(expanded(file)), source(keyPath)))
                } else {
                    add("credentials_file", default: existence(sharedFile.path), sharedFile.variable.map(SettingSource.environment) ?? .default)
                }
                add("credentials_profile", default: quoted(awsProfile.path), awsProfile.variable.map(SettingSource.environment) ?? .default)
            }
            add("public_url", default: "(none: the feeds' links are relative)")
            add("feed_title", default: "(the publication's name)")
            add("feed_image", default: "(none)")
            add("feed_language", default: quoted(settings.language), source(["language"]))
            add("feed_author", default: "(the publication's name)")
        }

        entries.append(Entry(.environment, "config_file", existence(path), configFile.variable.map(SettingSource.environment) ?? .default))
        entries.append(Entry(.environment, "data_root", dataRoot.path, dataRoot.variable.map(SettingSource.environment) ?? .default))
        // The key pair and the session token: whether they are set, never what they are.
        for variable in ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"] {
            let present = !(environment[variable] ?? "").isEmpty
            entries.append(Entry(.environment, variable.lowercased(), present ? "present" : "absent", present ? .environment(variable) : .default))
        }
        let keysFromEnvironment = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"].allSatisfy { !(environment[$0] ?? "").isEmpty }
        entries.append(Entry(
            .environment, "credentials_file",
            existence(sharedFile.path) + (keysFromEnvironment ? ", not used: the key pair comes from the environment" : ""),
            sharedFile.variable.map(SettingSource.environment) ?? .default))
        entries.append(Entry(.environment, "credentials_profile", quoted(awsProfile.path), awsProfile.variable.map(SettingSource.environment) ?? .default))
        let region: Entry =
            if let value = environment["AWS_REGION"] {
                Entry(.environment, "region", quoted(value), .environment("AWS_REGION"))
            } else if let value = environment["AWS_DEFAULT_REGION"] {
                Entry(.environment, "region", quoted(value), .environment("AWS_DEFAULT_REGION"))
            } else {
                Entry(.environment, "region", quoted(S3Destination.defaultRegion), .default)
            }
        entries.append(region)
        let waitVariable = "NARRATE_STORAGE_ANSWER_TIMEOUT"
        let waitText = "\(storageAnswerWait) s"
        if let text = environment[waitVariable], Double(text) == storageAnswerWait {
            entries.append(Entry(.environment, "storage_answer_timeout", waitText, .environment(waitVariable)))
        } else if let text = environment[waitVariable] {
            entries.append(Entry(.environment, "storage_answer_timeout", "\(waitText) (\(waitVariable) \(quoted(text)) ignored: give 0.1 to 600)", .default))
        } else {
            entries.append(Entry(.environment, "storage_answer_timeout", waitText, .default))
        }
        self.entries = entries
    }
}
