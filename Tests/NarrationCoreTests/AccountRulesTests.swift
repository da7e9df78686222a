import Foundation
import NarrationCore
import Testing

/// Account names, passphrase rules and the service's address, each refused with its sentence.
@Suite("Account names, passphrases and the service address")
struct AccountRulesTests {
    static let nameRefusal = "is not an account name: use 1 to 32 lowercase letters (a–z), digits, dots, hyphens or underscores, starting with a letter or a digit, e.g. ann.lee."

    @Test("names: lowercase ASCII letters, digits, dots, hyphens, underscores; 1 to 32, not starting with a symbol")
    func names() throws {
        for good in ["ann", "ann.lee", "reader-7", "a", "x_y", String(repeating: "a", count: 32)] { #expect(try AccountName(good).rawValue == good) }
        for bad in ["", "Ann", ".ann", "-ann", "_ann", "ann lee", "аnn", "ann\n", "ann/..", String(repeating: "a", count: 33), "ann\u{1B}[2J"] {
            #expect(throws: NarrationError.self) { try AccountName(bad) }
        }
        #expect(throws: NarrationError.usage("\"Ann\" \(Self.nameRefusal)")) { try AccountName("Ann") }
        // Control characters never reach the sentence.
        #expect(throws: NarrationError.usage("\"a?[2J\" \(Self.nameRefusal)")) { try AccountName("a\u{1B}[2J") }
    }

    @Test("a passphrase of ordinary words passes; short, long, control characters and plain ones are refused")
    func passphrases() throws {
        let ann = try AccountName("ann.lee")
        for good in ["summer lantern over the weir", "tea at the lido, 4 sugars", "Köln im Regen tanzen", "glimmering harbour"] {
            #expect(throws: Never.self) { try PassphraseRule.check(good, for: ann) }
        }
        #expect(throws: NarrationError.usage(
            "A passphrase needs at least 12 characters; this one has 11. A few ordinary words of your own, with spaces, make a good one.")) {
            try PassphraseRule.check("short words", for: ann)
        }
        #expect(throws: NarrationError.usage("A passphrase may have at most 256 characters; this one has 257.")) {
            try PassphraseRule.check(String(repeating: "lantern ", count: 32) + "x", for: ann)
        }
        #expect(throws: NarrationError.usage("A passphrase cannot hold control characters such as a line break or a tab.")) {
            try PassphraseRule.check("summer lantern\nover the weir", for: ann)
        }
        let plain = NarrationError.usage(
            "That passphrase is too easy to guess: it is mostly the account's name, digits, symbols or words guessers try first. A few ordinary words of your own, with spaces, make a good one.")
        for weak in ["Password 2026!!", "ann.lee ann.lee 1", "correct horse battery staple", "aaaaaaaaaaaaaaa", "123456789012", "qwerty qwerty qwerty", "letmein letmein"] {
            #expect(throws: plain, "\(weak)") { try PassphraseRule.check(weak, for: ann) }
        }
    }

    @Test("the service address: https or http, no query or fragment; the trailing slash dropped; links carry the secret after #")
    func address() throws {
        #expect(try ServiceAddress("https://narrate.example.org/").rawValue == "https://narrate.example.org")
        #expect(try ServiceAddress("http://10.0.0.5:8765/reading").rawValue == "http://10.0.0.5:8765/reading")
        for bad in ["narrate.example.org", "ftp://x", "https://", "https:///x", "https://x/?a=1", "https://x/#y", "https://a b", "https://x\"><script>"] {
            #expect(throws: NarrationError.self, "\(bad)") { try ServiceAddress(bad) }
        }
        let invitation = Invitation(account: try AccountName("ann"), token: "T0KEN", expiresAt: Date(timeIntervalSince1970: 0))
        #expect(invitation.link(at: try ServiceAddress("https://narrate.example.org")) == "https://narrate.example.org/invitation#account=ann&token=T0KEN")
        #expect(ServiceAddress.local.rawValue == "http://127.0.0.1:8765")
    }

    @Test("[service] address in config.toml is read and checked like the other settings")
    func configAddress() throws {
        let settings = try Settings(parsing: "[service]\naddress = \"https://narrate.example.org\"\n", file: "config.toml")
        #expect(settings.serviceAddress?.rawValue == "https://narrate.example.org")
        #expect(try Settings(parsing: "narrator = \"Ann\"\n", file: "config.toml").serviceAddress == nil)
        #expect(throws: NarrationError.usage(
            "config.toml, line 2: address in [service] must be the address people reach the service at, starting with https:// (or http://), without ? or #, e.g. \"https://narrate.example.org\".")) {
            try Settings(parsing: "[service]\naddress = \"narrate.example.org\"\n", file: "config.toml")
        }
        #expect(throws: NarrationError.usage("config.toml, line 2: unknown setting \"adress\" in [service] (known: address, catalog, catalog_password_file, recordings, review).")) {
            try Settings(parsing: "[service]\nadress = \"https://x\"\n", file: "config.toml")
        }
        #expect(throws: NarrationError.usage("config.toml, line 2: address in [service] must be a string in quotes.")) {
            try Settings(parsing: "[service]\naddress = 8765\n", file: "config.toml")
        }
    }

    @Test("[service] review: on unless config.toml says false; anything but true or false is refused naming the line")
    func configReview() throws {
        #expect(try Settings(parsing: "narrator = \"Ann\"\n", file: "config.toml").serviceReview == true)
        #expect(try Settings(parsing: "[service]\nreview = false\n", file: "config.toml").serviceReview == false)
        #expect(try Settings(parsing: "[service]\nreview = true\n", file: "config.toml").serviceReview == true)
        #expect(throws: NarrationError.usage("config.toml, line 2: review in [service] must be true or false.")) {
            try Settings(parsing: "[service]\nreview = \"no\"\n", file: "config.toml")
        }
    }

    @Test("[service] catalog and catalog_password_file are read as written; a value that is not a string is refused naming the line")
    func serviceCatalog() throws {
        let settings = try Settings(
            parsing: "[service]\ncatalog = \"postgresql://narrate@db:5432/narrate\"\ncatalog_password_file = \"/etc/narrate/pw\"\n", file: "config.toml")
        #expect(settings.serviceCatalog == "postgresql://narrate@db:5432/narrate")
        #expect(settings.serviceCatalogPasswordFile == "/etc/narrate/pw")
        #expect(try Settings(parsing: "[service]\nreview = false\n", file: "config.toml").serviceCatalog == nil)
        #expect(throws: NarrationError.usage("config.toml, line 2: catalog in [service] must be a string in quotes.")) {
            try Settings(parsing: "[service]\ncatalog = 5432\n", file: "config.toml")
        }
        #expect(throws: NarrationError.usage("config.toml, line 3: catalog_password_file in [service] must be a string in quotes.")) {
            try Settings(parsing: "[service]\ncatalog = \"postgresql://a@b/c\"\ncatalog_password_file = \"\"\n", file: "config.toml")
        }
    }

    @Test("[service] recordings names a destination, an s3:// address or a folder; anything else is refused naming the line")
    func serviceRecordings() throws {
        let named = try Settings(
            parsing: """
                [service]
                recordings = "keep"
                [destinations.keep]
                url = "s3://narrate-takes/chunks"
                endpoint = "http://127.0.0.1:8333"
                path_style = true
                """,
            file: "config.toml")
        guard case .s3(let store) = named.serviceRecordings else {
            Issue.record("recordings should name the S3 destination, not \(String(describing: named.serviceRecordings))")
            return
        }
        #expect(store.bucket == "narrate-takes" && store.prefix == "chunks" && store.endpoint == "http://127.0.0.1:8333" && store.pathStyle)
        #expect(try Settings(parsing: "[service]\nrecordings = \"/srv/takes\"\n", file: "config.toml").serviceRecordings == .folder("/srv/takes"))
        #expect(try Settings(parsing: "[service]\nreview = true\n", file: "config.toml").serviceRecordings == nil)
        #expect(throws: NarrationError.usage("config.toml, line 2: recordings in [service] must be a string in quotes: a name from [destinations], s3://BUCKET/PREFIX or a folder.")) {
            try Settings(parsing: "[service]\nrecordings = true\n", file: "config.toml")
        }
        #expect(throws: NarrationError.usage("config.toml, line 2: recordings in [service]: \"https://takes.example.org\" is neither a folder nor an s3:// address; object storage is written s3://BUCKET/PREFIX.")) {
            try Settings(parsing: "[service]\nrecordings = \"https://takes.example.org\"\n", file: "config.toml")
        }
    }
}
