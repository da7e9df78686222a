/// What `config.toml` sets: defaults for commands, and the organisation's own profiles.
///
/// ```toml
/// narrator = "Ann Lee"
/// publication = "Daily Post"
/// device = "default"
/// profile = "org"                       # used by export, queue and submit
/// destination = "archive"             # submit's default: a name below, a folder, or s3://BUCKET/PREFIX
///
/// [destinations.archive]                # object storage; credentials come from the environment
/// url = "s3://radio-archive/narrations" # or from credentials_file (readable by its owner only)
/// endpoint = "https://s3.eu-central-1.amazonaws.com"
/// region = "eu-central-1"
/// path_style = false
/// credentials_file = "/home/ann/.config/narrate/credentials"
/// credentials_profile = "default"
/// public_url = "https://cdn.example.org/narrations"   # where the bucket's prefix is served (feeds)
/// feed_title = "{publication}, read aloud"
/// feed_image = "https://cdn.example.org/cover.jpg"
/// feed_author = "Talking News Leeds"
///
/// [profiles.org]                        # a profile of your own, based on a built-in one
/// base = "podcast"
/// format = "mp3"
/// bitrate = 96                          # kbit/s: MP3's 32…320, or Ogg Opus's 6…256 with format = "opus"
/// loudness = -18
/// carries = ["audio", "transcript", "feed"]   # also "epub", "daisy"
///
/// [service]                             # a reading service with accounts
/// address = "https://narrate.example.org"     # where people reach it: invitation links start so
/// review = true                         # sent articles wait for a proof-listener; false delivers at once
/// catalog = "postgresql://narrate@db.example.org:5432/narrate"   # records shared by several hosts
/// catalog_password_file = "/etc/narrate/catalog-password"        # or NARRATE_CATALOG_PASSWORD
/// ```
public struct Settings: Sendable, Equatable {
    public var narrator = ""
    public var publication = ""
    public var device = "default"
    public var profile = "archive"
    public var destination: String?
    /// The language articles are read in, as a BCP 47 tag ("en", "cy", "de"): English takes are
    /// checked by speech recognition, others by their speaking rate only.
    public var language = "en"
    public var profiles: [String: DeliveryProfile] = [:]
    /// Named destinations, `[destinations.NAME]`.
    public var destinations: [String: Destination] = [:]
    /// Each named destination's feed settings, by the destination's description (its folder or
    /// s3:// address); see `feedSettings(for:)`.
    public var feeds: [String: FeedSettings] = [:]
    /// `[service] address`: where people reach the reading service, the start of every
    /// invitation link; nil when not set.
    public var serviceAddress: ServiceAddress?
    /// `[service] review`: whether a volunteer's finished article goes to a proof-listener
    /// (Ready for review) before listeners hear it; off, sending publishes it as submit does.
    /// On unless set to false.
    public var serviceReview = true
    /// `[service] catalog`: the PostgreSQL server that keeps the catalog, as
    /// `postgresql://USER@HOST:PORT/DATABASE`, for several hosts sharing one service; nil keeps it
    /// in the data folder's SQLite file. Checked when the library is opened.
    public var serviceCatalog: String?
    /// `[service] catalog_password_file`: a file only its owner can read holding the catalog's
    /// password (`NARRATE_CATALOG_PASSWORD` comes first); nil when not set.
    public var serviceCatalogPasswordFile: String?
    /// `[service] recordings`: where a reading service keeps a copy of every chunk off its hosts
    /// (one of `[destinations]`, an `s3://BUCKET/PREFIX` address, or a folder every host mounts);
    /// nil keeps the chunks on the host's disk only.
    public var serviceRecordings: Destination?

    public init() {}

    /// How feeds at `destination` look: its table's settings when it is a named destination (or
    /// the same place as one), else the defaults, in config.toml's language.
    public func feedSettings(for destination: Destination) -> FeedSettings {
        var settings = feeds[destination.description] ?? FeedSettings()
        if settings.language == nil { settings.language = language }
        return settings
    }

    static let topLevelKeys: Set<String> = [
        "narrator", "publication", "device", "profile", "destination", "language", "profiles", "destinations", "service",
    ]
    static let serviceKeys: Set<String> = ["address", "review", "catalog", "catalog_password_file", "recordings"]
    static let destinationKeys = Set(["url", "endpoint", "region", "path_style", "credentials_file", "credentials_profile"]).union(feedKeys)
    /// The settings of a destination's podcast feeds, for folders and object storage alike.
    static let feedKeys: Set<String> = ["public_url", "feed_title", "feed_image", "feed_language", "feed_author"]
    static let profileKeys: Set<String> = [
        "base", "format", "bitrate", "vbr", "loudness", "rms", "peak_ceiling", "room_tone_head", "room_tone_tail", "max_pause", "join_fade",
        "no_clipping", "max_silence", "carries",
    ]

    /// Settings from the text of a configuration file.
    /// - Throws: `usage` naming the file, the setting and what is wrong with it.
    public init(parsing text: String, file: String) throws(NarrationError) {
        let document = try ConfigParser.document(text, file: file)
        let root = document.values
        let fail = ConfigProblem(file: file, document: document)
        for key in root.keys.sorted() where !Self.topLevelKeys.contains(key) {
            throw fail("unknown setting \"\(key)\" (known: \(Self.topLevelKeys.sorted().joined(separator: ", ")))", at: key)
        }
        func string(_ key: String) throws(NarrationError) -> String? {
            guard let value = root[key] else { return nil }
            guard let string = value.string else { throw fail("\(key) must be a string in quotes", at: key) }
            return string
        }
        narrator = try string("narrator") ?? ""
        publication = try string("publication") ?? ""
        device = try string("device") ?? "default"
        destination = try string("destination")
        language = try string("language") ?? "en"
        if let tables = root["profiles"] {
            guard let tables = tables.table else { throw fail("profiles must be tables, e.g. [profiles.org]") }
            for (name, value) in tables.sorted(by: { $0.key < $1.key }) {
                guard let table = value.table else { throw fail("profiles.\(name) must be a table, [profiles.\(name)]") }
                profiles[name] = try Self.profile(named: name, table, fail: fail.within("profiles", name))
            }
        }
        if let tables = root["destinations"] {
            guard let tables = tables.table else { throw fail("destinations must be tables, e.g. [destinations.archive]") }
            for (name, value) in tables.sorted(by: { $0.key < $1.key }) {
                guard let table = value.table else { throw fail("destinations.\(name) must be a table, [destinations.\(name)]") }
                let destination = try Self.destination(named: name, table, fail: fail.within("destinations", name))
                destinations[name] = destination
                feeds[destination.description] = try Self.feedSettings(named: name, table, fail: fail.within("destinations", name))
            }
        }
        if let value = root["service"] {
            guard let table = value.table else { throw fail("service must be a table, [service]") }
            serviceAddress = try Self.serviceAddress(table, fail: fail.within("service"))
            if let value = table["review"] {
                guard case .boolean(let review) = value else { throw fail.within("service")("review in [service] must be true or false", at: "review") }
                serviceReview = review
            }
            for key in ["catalog", "catalog_password_file"] {
                guard let value = table[key] else { continue }
                guard let text = value.string, !text.isEmpty else {
                    throw fail.within("service")("\(key) in [service] must be a string in quotes", at: key)
                }
                if key == "catalog" { serviceCatalog = text } else { serviceCatalogPasswordFile = text }
            }
            if let value = table["recordings"] {
                guard let text = value.string, !text.isEmpty else {
                    throw fail.within("service")("recordings in [service] must be a string in quotes: a name from [destinations], s3://BUCKET/PREFIX or a folder", at: "recordings")
                }
                do {
                    serviceRecordings = try destination(named: text)
                } catch {
                    let reason = error.message.hasSuffix(".") ? String(error.message.dropLast()) : error.message
                    throw fail.within("service")("recordings in [service]: \(reason)", at: "recordings")
                }
            }
        }
        profile = try string("profile") ?? "archive"
        _ = try deliveryProfile(named: profile)
    }

    private static func serviceAddress(_ table: [String: ConfigValue], fail: ConfigProblem) throws(NarrationError) -> ServiceAddress? {
        for key in table.keys.sorted() where !serviceKeys.contains(key) {
            throw fail("unknown setting \"\(key)\" in [service] (known: \(serviceKeys.sorted().joined(separator: ", ")))", at: key)
        }
        guard let value = table["address"] else { return nil }
        guard let text = value.string else { throw fail("address in [service] must be a string in quotes", at: "address") }
        do { return try ServiceAddress(text) } catch { throw fail("address in [service] \(error.message)", at: "address") }
    }

    /// What `--to` or `destination` names: one of `[destinations]`, an `s3://BUCKET/PREFIX`
    /// address (AWS's endpoint for its region unless `[destinations]` says otherwise), or a folder.
    public func destination(named text: String) throws(NarrationError) -> Destination {
        if let named = destinations[text] { return named }
        if text.hasPrefix("s3://") { return .s3(try S3Destination(url: text)) }
        if text.contains("://") {
            throw .usage("\"\(text)\" is neither a folder nor an s3:// address; object storage is written s3://BUCKET/PREFIX.")
        }
        return .folder(text)
    }

    private static func destination(
        named name: String, _ table: [String: ConfigValue], fail: ConfigProblem
    ) throws(NarrationError) -> Destination {
        for key in table.keys.sorted() where !destinationKeys.contains(key) {
            throw fail("unknown setting \"\(key)\" in [destinations.\(name)] (known: \(destinationKeys.sorted().joined(separator: ", ")))", at: key)
        }
        func string(_ key: String) throws(NarrationError) -> String? {
            guard let value = table[key] else { return nil }
            guard let text = value.string else { throw fail("\(key) in [destinations.\(name)] must be a string in quotes", at: key) }
            return text
        }
        guard let url = try string("url") else {
            throw fail("[destinations.\(name)] needs url = \"s3://BUCKET/PREFIX\" or url = \"/path/to/folder\"")
        }
        var pathStyle = false
        if let value = table["path_style"] {
            guard case .boolean(let flag) = value else { throw fail("path_style in [destinations.\(name)] must be true or false", at: "path_style") }
            pathStyle = flag
        }
        guard url.hasPrefix("s3://") else {
            let storageKeys = table.keys.filter { $0 != "url" && !feedKeys.contains($0) }
            guard storageKeys.isEmpty else {
                throw fail("[destinations.\(name)] is a folder, so \(storageKeys.sorted().joined(separator: ", ")) mean nothing there")
            }
            return .folder(url)
        }
        do {
            return .s3(try S3Destination(
                url: url, endpoint: try string("endpoint"), region: try string("region"), pathStyle: pathStyle,
                credentialsFile: try string("credentials_file"), credentialsProfile: try string("credentials_profile")))
        } catch {
            throw fail("[destinations.\(name)]: \(error.message.hasSuffix(".") ? String(error.message.dropLast()) : error.message)")
        }
    }

    private static func feedSettings(
        named name: String, _ table: [String: ConfigValue], fail: ConfigProblem
    ) throws(NarrationError) -> FeedSettings {
        func string(_ key: String) throws(NarrationError) -> String? {
            guard let value = table[key] else { return nil }
            guard let text = value.string, !text.isEmpty else { throw fail("\(key) in [destinations.\(name)] must be a string in quotes", at: key) }
            return text
        }
        let publicURL = try string("public_url")
        if let publicURL, !(publicURL.hasPrefix("https://") || publicURL.hasPrefix("http://")) {
            throw fail("public_url in [destinations.\(name)] must start with https:// or http:// (where listeners fetch the files)", at: "public_url")
        }
        return FeedSettings(
            publicURL: publicURL, title: try string("feed_title"), imageURL: try string("feed_image"), language: try string("feed_language"),
            author: try string("feed_author"))
    }

    /// A profile by name: the organisation's own first, then the built-in ones.
    public func deliveryProfile(named name: String) throws(NarrationError) -> DeliveryProfile {
        if let own = profiles[name] { return own }
        do {
            return try DeliveryProfile.named(name)
        } catch {
            let names = (Array(profiles.keys.sorted()) + DeliveryProfile.all.map(\.name)).joined(separator: ", ")
            throw .usage("There is no profile \"\(name)\". Use one of \(names).")
        }
    }

    private static func profile(
        named name: String, _ table: [String: ConfigValue], fail: ConfigProblem
    ) throws(NarrationError) -> DeliveryProfile {
        for key in table.keys.sorted() where !profileKeys.contains(key) {
            throw fail("unknown setting \"\(key)\" in [profiles.\(name)] (known: \(profileKeys.sorted().joined(separator: ", ")))", at: key)
        }
        func number(_ key: String, in range: ClosedRange<Double>) throws(NarrationError) -> Double? {
            guard let value = table[key] else { return nil }
            guard let number = value.number, range.contains(number) else {
                throw fail("\(key) in [profiles.\(name)] must be a number from \(range.lowerBound) to \(range.upperBound)", at: key)
            }
            return number
        }
        let baseName = table["base"]?.string ?? "archive"
        let base: DeliveryProfile
        do { base = try DeliveryProfile.named(baseName) } catch { throw fail("base in [profiles.\(name)]: \(error.message)", at: "base") }
        var format = base.format
        if let value = table["format"] {
            guard let text = value.string, let parsed = ExportFormat(rawValue: text) else {
                let names = ExportFormat.allCases.map { "\"\($0.rawValue)\"" }
                throw fail("format in [profiles.\(name)] must be \(names.dropLast().joined(separator: ", ")) or \(names.last!)", at: "format")
            }
            format = parsed
        }
        // `bitrate` is the lossy encoder's: MP3 (32 to 320, one of MP3's standard rates, checked when
        // exporting) or, in an Opus profile, Ogg Opus (6 to 256). A profile made Opus without a
        // bitrate of its own gets Opus's speech default, not its base's MP3 rate.
        var mp3 = base.mp3
        var opusKbps = base.opusKbps
        if format == .opus {
            if let bitrate = try number("bitrate", in: Double(OpusBitrate.range.lowerBound)...Double(OpusBitrate.range.upperBound)) {
                opusKbps = Int(bitrate)
            }
            if table["vbr"] != nil { throw fail("vbr in [profiles.\(name)] applies to MP3 only; this profile's format is opus (give bitrate instead)", at: "vbr") }
        } else {
            if let bitrate = try number("bitrate", in: 32...320) { mp3 = .constant(kbps: Int(bitrate)) }
            if let quality = try number("vbr", in: 0...9) { mp3 = .variable(quality: Int(quality)) }
        }
        var mastering = base.mastering
        var rules = base.rules
        if let loudness = try number("loudness", in: -40...0) {
            mastering.loudnessTarget = .fixed(loudness)
            mastering.rmsTarget = nil
            rules = rules.filter { if case .loudness = $0 { false } else { true } } + [.loudness(.fixed(loudness), tolerance: 1)]
        }
        if let rms = try number("rms", in: -40...0) {
            mastering.rmsTarget = Decibels(rms)
            mastering.loudnessTarget = nil
        }
        if let ceiling = try number("peak_ceiling", in: -20...0) { mastering.peakCeiling = Decibels(ceiling) }
        if let head = try number("room_tone_head", in: 0...10) { mastering.roomToneHeadSeconds = head == 0 ? nil : head }
        if let tail = try number("room_tone_tail", in: 0...10) { mastering.roomToneTailSeconds = tail == 0 ? nil : tail }
        if let pause = try number("max_pause", in: 0.1...60) { mastering.maxPauseSeconds = pause }
        if let fade = try number("join_fade", in: 0...0.5) { mastering.joinFadeSeconds = fade == 0 ? nil : fade }
        // The rules a file must pass: `no_clipping = true` adds "no clipping" (false removes it),
        // `max_silence = 5` allows no silence longer than 5 s (0 removes that rule).
        if let value = table["no_clipping"] {
            guard case .boolean(let flag) = value else { throw fail("no_clipping in [profiles.\(name)] must be true or false", at: "no_clipping") }
            rules = rules.filter { $0 != .noClipping } + (flag ? [.noClipping] : [])
        }
        if let silence = try number("max_silence", in: 0...600) {
            rules = rules.filter { if case .silencesAtMost = $0 { false } else { true } } + (silence == 0 ? [] : [.silencesAtMost(silence)])
        }
        var carries = base.carries
        if let value = table["carries"] {
            let names = value.array?.compactMap(\.string)
            guard let names, names.count == value.array?.count else {
                throw fail("carries in [profiles.\(name)] must be a list of names in quotes, e.g. [\"audio\", \"transcript\", \"feed\"]", at: "carries")
            }
            switch DeliveryItem.parse(names) {
            case .success(let items): carries = items
            case .failure(let unknown):
                let known = DeliveryItem.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                throw fail("carries in [profiles.\(name)] names \"\(unknown.name)\", which a delivery cannot carry (known: \(known))", at: "carries")
            }
        }
        return DeliveryProfile(name: name, format: format, mp3: mp3, mastering: mastering, rules: rules, carries: carries, opusKbps: opusKbps)
    }
}
