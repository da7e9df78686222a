import Foundation
import Narration
import NarrationCore
import NarrationTestSupport
import Testing

/// `narrate accounts` and `narrate audit` on the built binary: exact outputs, exit codes, the
/// one-line refusals, and refusals that leave the accounts and the log as they were.
@Suite("narrate accounts and narrate audit")
struct AccountsCommandTests {
    /// A narrate on a fresh data folder, with config.toml holding `config` when given.
    static func narrate(_ folder: TemporaryFolder, config: String? = nil) throws -> Narrate {
        let configFolder = folder.file("xdg/narrate")
        try FileManager.default.createDirectory(at: configFolder, withIntermediateDirectories: true)
        if let config { try config.write(to: configFolder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8) }
        return Narrate(home: folder.file("home"), environment: ["XDG_CONFIG_HOME": folder.file("xdg").path, "TZ": "UTC"])
    }

    static let defaultAddressLine =
        "The link starts with http://127.0.0.1:8765, which only this computer reaches: set address in the [service] table of config.toml to the address people reach the service at, e.g. address = \"https://narrate.example.org\".\n"

    /// The secret in an invitation link printed as `prefix…#account=NAME&token=SECRET`.
    static func token(in line: String, prefix: String, account: String) throws -> String {
        let start = "\(prefix)/invitation#account=\(account)&token="
        try #require(line.hasPrefix(start), "\(line)")
        let token = String(line.dropFirst(start.count))
        #expect(token.count == 43 && token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }, "\(token)")
        return token
    }

    static var actor: String { "command line (user \(NSUserName()))" }

    @Test("no accounts, add, list, role, disable, enable, reset, sign-out and audit, as a terminal and a script see them")
    func accountLife() throws {
        let folder = TemporaryFolder("narrate-accounts")
        let narrate = try Self.narrate(folder)
        let none = try narrate.run("accounts")
        #expect(none.status == 0 && none.stdout == "No accounts yet: narrate serve is the personal studio. Add the first with: narrate accounts add NAME --role admin\n")
        #expect(try narrate.run("audit").stdout == "The audit log is empty.\n")

        let added = try narrate.run("accounts", "add", "ann.lee", "--role", "volunteer")
        #expect(added.status == 0 && added.stderr == Self.defaultAddressLine, "\(added.stderr)")
        let lines = added.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 4 && lines[0] == "Added the account ann.lee (volunteer)." && lines[3].isEmpty, "\(lines)")
        let sendLine = lines.count > 1 ? lines[1] : ""
        #expect(sendLine.hasPrefix("Send ann.lee this invitation link to set a passphrase; it works once, until ") && sendLine.hasSuffix(" UTC:"))
        let expiry = String(sendLine.dropFirst("Send ann.lee this invitation link to set a passphrase; it works once, until ".count).dropLast(1))
        let token = try Self.token(in: lines.count > 2 ? lines[2] : "", prefix: "http://127.0.0.1:8765", account: "ann.lee")

        let list = try narrate.run("accounts", "list")
        #expect(list.stdout == """
            name     role            state     passphrase
            ann.lee  volunteer       enabled   invited, link works until \(expiry)

            """, "\(list.stdout)")

        // The link the command printed is the one the engine accepts, once.
        let catalog = try Catalog(path: folder.file("home/catalog.sqlite").path)
        let service = AccountService(store: catalog, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
        #expect(try service.acceptInvitation(account: "ann.lee", token: token, passphrase: "summer lantern over the weir").hasPassphrase)
        #expect(throws: NarrationError.invitationUsed) { try service.acceptInvitation(account: "ann.lee", token: token, passphrase: "summer lantern over the weir") }
        #expect(try narrate.run("accounts", "list").stdout.contains("\nann.lee  volunteer       enabled   set\n"))

        #expect(try narrate.run("accounts", "role", "ann.lee", "coordinator").stdout == "ann.lee is now coordinator (was volunteer).\n")
        #expect(try narrate.run("accounts", "role", "ann.lee", "coordinator").stdout == "ann.lee is coordinator already; nothing changed.\n")
        _ = try service.signIn(account: "ann.lee", passphrase: "summer lantern over the weir", address: "192.0.2.1")
        #expect(try narrate.run("accounts", "disable", "ann.lee").stdout == "Disabled ann.lee; 1 session ended.\n")
        #expect(try narrate.run("accounts", "disable", "ann.lee").stdout == "ann.lee is disabled already; nothing changed.\n")
        #expect(try narrate.run("accounts", "list").stdout.contains("\nann.lee  coordinator     disabled  set\n"))
        #expect(try narrate.run("accounts", "enable", "ann.lee").stdout == "Enabled ann.lee.\n")
        #expect(try narrate.run("accounts", "enable", "ann.lee").stdout == "ann.lee is enabled already; nothing changed.\n")
        _ = try service.signIn(account: "ann.lee", passphrase: "summer lantern over the weir", address: "192.0.2.1")
        _ = try service.signIn(account: "ann.lee", passphrase: "summer lantern over the weir", address: "192.0.2.2")
        #expect(try narrate.run("accounts", "sign-out", "ann.lee").stdout == "Signed ann.lee out everywhere; 2 sessions ended.\n")

        let reset = try narrate.run("accounts", "reset", "ann.lee", "--json")
        #expect(reset.status == 0 && reset.stderr == "")
        let json = try #require(try reset.json() as? [String: Any])
        let account = try #require(json["account"] as? [String: Any])
        #expect(account["name"] as? String == "ann.lee" && account["role"] as? String == "coordinator" && account["enabled"] as? Bool == true)
        #expect(account["passphraseSet"] as? Bool == false && json["changed"] as? Bool == true && json["sessionsEnded"] as? Int == 0)
        let link = try #require((json["invitation"] as? [String: Any])?["link"] as? String)
        let second = try Self.token(in: link, prefix: "http://127.0.0.1:8765", account: "ann.lee")
        // The reset voided the first link along with the passphrase.
        #expect(throws: NarrationError.invitationNotValid) { try service.acceptInvitation(account: "ann.lee", token: token, passphrase: "glimmering harbour lights") }
        #expect(throws: NarrationError.signInWrong) { try service.signIn(account: "ann.lee", passphrase: "summer lantern over the weir", address: "192.0.2.3") }
        #expect(try service.acceptInvitation(account: "ann.lee", token: second, passphrase: "glimmering harbour lights").hasPassphrase)

        let resetExpiryText = try #require(account["invitationExpiresAt"] as? String)
        let resetExpiry = AccountTime.utc(try #require(ISO8601DateFormatter().date(from: resetExpiryText)))
        let audit = try narrate.run("audit", "--account", "ann.lee")
        let entries = audit.stdout.split(separator: "\n").map { line in
            // "YYYY-MM-DD HH:MM UTC  actor  action  account  detail": the time aside.
            String(line.dropFirst("2026-11-26 10:00 UTC  ".count))
        }
        #expect(entries == [
            "\(Self.actor)  account-added  ann.lee  role volunteer, invitation until \(expiry)",
            "ann.lee  passphrase-set  ann.lee  invitation accepted",
            "\(Self.actor)  role-changed  ann.lee  role volunteer → coordinator",
            "\(Self.actor)  account-disabled  ann.lee  sessions ended",
            "\(Self.actor)  account-enabled  ann.lee",
            "\(Self.actor)  signed-out-everywhere  ann.lee  all sessions ended",
            "\(Self.actor)  account-reset  ann.lee  passphrase cleared, earlier invitations void, new invitation until \(resetExpiry)",
            "ann.lee  passphrase-set  ann.lee  invitation accepted",
        ], "\(audit.stdout)")
        let auditJSON = try #require(try narrate.run("audit", "--json").json() as? [[String: Any]])
        #expect(auditJSON.map { $0["sequence"] as? Int } == Array(1...8))
        #expect(auditJSON.map { $0["action"] as? String } == [
            "account-added", "passphrase-set", "role-changed", "account-disabled", "account-enabled", "signed-out-everywhere", "account-reset", "passphrase-set",
        ])
        #expect(try narrate.run("audit", "--account", "bob").stdout == "No lines of the audit log match.\n")
        #expect(try narrate.run("audit", "--since", "2999-01-01", "--json").stdout == "[\n\n]\n")
    }

    @Test("[service] address starts the link; with it no line on stderr")
    func configuredAddress() throws {
        let folder = TemporaryFolder("narrate-accounts")
        let narrate = try Self.narrate(folder, config: "[service]\naddress = \"https://narrate.example.org/\"\n")
        let added = try narrate.run("accounts", "add", "reader-7", "--role", "proof-listener", "--json")
        #expect(added.status == 0 && added.stderr == "")
        let json = try #require(try added.json() as? [String: Any])
        let link = try #require((json["invitation"] as? [String: Any])?["link"] as? String)
        _ = try Self.token(in: link, prefix: "https://narrate.example.org", account: "reader-7")
        // narrate config lists the address with where it came from.
        let config = try narrate.run("config").stdout.split(separator: "\n").map(String.init)
        let line = config.first { $0.hasPrefix("service.address = ") } ?? ""
        #expect(line.hasPrefix("service.address = \"https://narrate.example.org\" ") && line.hasSuffix("(config.toml line 2)"), "\(config)")
        let list = try #require(try narrate.run("accounts", "list", "--json").json() as? [[String: Any]])
        #expect(list.count == 1 && list.first?["role"] as? String == "proof-listener" && list.first?["passphraseSet"] as? Bool == false)
    }

    @Test("refusals are one line with the thing and the fix, a non-zero exit, and change nothing")
    func refusals() throws {
        let folder = TemporaryFolder("narrate-accounts")
        let narrate = try Self.narrate(folder)
        #expect(try narrate.run("accounts", "add", "ann", "--role", "admin").status == 0)
        func state() throws -> [String] { [try narrate.run("accounts", "list", "--json").stdout, try narrate.run("audit", "--json").stdout] }
        let before = try state()
        let nameRule = "is not an account name: use 1 to 32 lowercase letters (a–z), digits, dots, hyphens or underscores, starting with a letter or a digit, e.g. ann.lee."
        let roleRule = "is not a role: give volunteer, proof-listener, coordinator or admin."
        let cases: [([String], Int32, String)] = [
            (["accounts", "add", "bob", "--role", "boss"], 64, "Error: --role \"boss\" \(roleRule)\n"),
            (["accounts", "add", "bob", "--role", "Admin"], 64, "Error: --role \"Admin\" \(roleRule)\n"),
            (["accounts", "add", "Bob", "--role", "admin"], 64, "Error: \"Bob\" \(nameRule)\n"),
            (["accounts", "add", "_bob", "--role", "admin"], 64, "Error: \"_bob\" \(nameRule)\n"),
            (["accounts", "add", "bob lee", "--role", "admin"], 64, "Error: \"bob lee\" \(nameRule)\n"),
            (["accounts", "add", String(repeating: "b", count: 33), "--role", "admin"], 64, "Error: \"\(String(repeating: "b", count: 33))\" \(nameRule)\n"),
            (["accounts", "add", "ann", "--role", "volunteer"], 64, "There is already an account named \"ann\"; give another name.\n"),
            (["accounts", "role", "ann", "owner"], 64, "Error: \"owner\" \(roleRule)\n"),
            (["accounts", "disable", "zed"], 1, "No account is named \"zed\". List the accounts with: narrate accounts list\n"),
            (["accounts", "enable", "zed"], 1, "No account is named \"zed\". List the accounts with: narrate accounts list\n"),
            (["accounts", "role", "zed", "admin"], 1, "No account is named \"zed\". List the accounts with: narrate accounts list\n"),
            (["accounts", "reset", "zed"], 1, "No account is named \"zed\". List the accounts with: narrate accounts list\n"),
            (["accounts", "sign-out", "zed"], 1, "No account is named \"zed\". List the accounts with: narrate accounts list\n"),
            (["audit", "--since", "2026-02-30"], 64, "Error: --since 2026-02-30 is not a day: give it as YYYY-MM-DD, e.g. 2026-11-23.\n"),
            (["audit", "--account", "Zed"], 64, "Error: --account \"Zed\" \(nameRule)\n"),
        ]
        for (arguments, status, stderr) in cases {
            let result = try narrate.run(arguments)
            #expect(result.status == status && result.stderr == stderr && result.stdout == "", "\(arguments): \(result.status) \(result.stderr)")
        }
        #expect(try state() == before)

        let brokenFolder = TemporaryFolder("narrate-accounts")
        let broken = try Self.narrate(brokenFolder, config: "[service]\naddress = \"narrate.example.org\"\n")
        let refused = try broken.run("accounts", "add", "ann", "--role", "admin")
        #expect(refused.status == 64 && refused.stdout == "")
        #expect(refused.stderr.hasSuffix(
            "config.toml, line 2: address in [service] must be the address people reach the service at, starting with https:// (or http://), without ? or #, e.g. \"https://narrate.example.org\".\n"),
            "\(refused.stderr)")
        #expect(try broken.run("accounts", "list").stdout.hasPrefix("No accounts yet"))
    }
}
