import ArgumentParser
import Foundation
import Narration
import NarrationCore

extension Narrate {
    /// `narrate accounts [list|add|role|disable|enable|reset|sign-out]`: a reading service's
    /// accounts, kept in the catalog. Each change goes into the audit log (`narrate audit`).
    struct Accounts: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Manage a reading service's accounts: add, list, change roles, disable, enable, reset.",
            discussion: """
                Each person gets an account with one role: volunteer (records the articles \
                assigned to or claimed by them), proof-listener (reviews articles before listeners \
                hear them), coordinator (manages the day's articles) or admin (also manages \
                accounts and settings). Adding an account prints a one-time invitation link on \
                which the person sets a passphrase; it works once, for 7 days. Links start with \
                address in the [service] table of config.toml:

                  [service]
                  address = "https://narrate.example.org"

                Without any account, narrate serve stays the personal studio of one volunteer.
                Every change is written to the audit log with who made it and when: narrate audit.

                  narrate accounts add ann.lee --role volunteer
                  narrate accounts role ann.lee coordinator
                  narrate accounts reset ann.lee     # forgot the passphrase: a new link
                """,
            subcommands: [List.self, Add.self, SetRole.self, Disable.self, Enable.self, Reset.self, SignOut.self], defaultSubcommand: List.self)

        /// The account name argument every subcommand takes, checked before anything is opened.
        struct NameArgument: ParsableArguments {
            @Argument(help: ArgumentHelp("The account's name: lowercase letters, digits, dots, hyphens, underscores.", valueName: "NAME"))
            var name: String

            func validate() throws {
                do { _ = try AccountName(name) } catch { throw ValidationError(error.message) }
            }

            /// The name, checked (by `validate()` already, so this does not throw in practice).
            func checked() throws(NarrationError) -> AccountName { try AccountName(name) }
        }

        /// Runs `body` with the accounts of the data folder's catalog (opened for reading only
        /// when `readOnly` and the folder cannot be written); an unknown name's sentence says
        /// how to see the names.
        static func withAccounts<T>(readOnly: Bool = false, _ body: (AccountService) throws(NarrationError) -> T) throws -> T {
            try CommandRunner.withLibrary(readOnly: readOnly) { (library) throws(NarrationError) -> T in
                do throws(NarrationError) {
                    return try body(AccountService(store: library.accountStore))
                } catch {
                    guard error.kind == .unknownAccount else { throw error }
                    throw NarrationError(.unknownAccount, error.message + " List the accounts with: narrate accounts list")
                }
            }
        }

        /// Who the audit log names for a change made with this command: the Unix user running it.
        static var actor: String { AuditEntry.commandLineActor(user: NSUserName()) }

        /// Where invitation links start: config.toml's `[service] address`, else narrate serve's
        /// own local address (`isDefault`), read before anything changes so that a broken
        /// config.toml stops the command first.
        static func serviceAddress() throws -> (address: ServiceAddress, isDefault: Bool) {
            if let address = try CommandRunner.settings().serviceAddress { return (address, false) }
            return (.local, true)
        }

        /// The lines that hand an invitation over; with the default address, a line on stderr
        /// that says how to set the real one.
        static func printInvitation(_ invitation: Invitation, at address: (address: ServiceAddress, isDefault: Bool)) {
            Console.print(
                "Send \(invitation.account) this invitation link to set a passphrase; it works once, until \(AccountTime.utc(invitation.expiresAt)):")
            Console.print(invitation.link(at: address.address))
            if address.isDefault {
                Console.error(
                    "The link starts with \(ServiceAddress.local), which only this computer reaches: set address in the [service] table of config.toml to the address people reach the service at, e.g. address = \"https://narrate.example.org\".")
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the accounts: name, role, enabled or disabled, passphrase or invitation.")

            @OptionGroup var output: JSONOption

            func run() throws {
                let accounts = try withAccounts(readOnly: true) { (service) throws(NarrationError) in try service.accounts() }
                if output.json {
                    Console.printJSON(accounts.map(AccountJSON.init))
                    return
                }
                guard !accounts.isEmpty else {
                    Console.print("No accounts yet: narrate serve is the personal studio. Add the first with: narrate accounts add NAME --role admin")
                    return
                }
                let width = max(4, accounts.map(\.name.rawValue.count).max() ?? 4)
                func line(_ columns: String...) -> String {
                    zip(columns, [width, 14, 8, 0]).map { $1 == 0 ? $0 : $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                }
                Console.print(line("name", "role", "state", "passphrase"))
                let now = Date()
                for account in accounts {
                    let passphrase = switch (account.hasPassphrase, account.invitationExpiresAt) {
                    case (true, _): "set"
                    case (false, let expiry?) where expiry > now: "invited, link works until \(AccountTime.utc(expiry))"
                    case (false, let expiry?): "invitation expired \(AccountTime.utc(expiry)): narrate accounts reset \(account.name)"
                    case (false, nil): "none"
                    }
                    Console.print(line(account.name.rawValue, account.role.rawValue, account.isEnabled ? "enabled" : "disabled", passphrase))
                }
            }
        }

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Add an account and print its one-time invitation link.",
                discussion: "The link works once, for 7 days; only its hash is kept, so it cannot be shown again (narrate accounts reset makes a new one).")

            @OptionGroup var name: NameArgument

            @Option(help: ArgumentHelp("volunteer, proof-listener, coordinator or admin.", valueName: "ROLE"))
            var role: String

            @OptionGroup var output: JSONOption

            func validate() throws {
                do { _ = try Role(naming: role) } catch { throw ValidationError("--role \(error.message)") }
            }

            func run() throws {
                let role = try Role(naming: role)
                let accountName = try name.checked()
                let address = try Accounts.serviceAddress()
                let (account, invitation) = try withAccounts { (service) throws(NarrationError) in
                    let invitation = try service.add(accountName, role: role, by: Accounts.actor)
                    return (try service.account(accountName), invitation)
                }
                if output.json {
                    Console.printJSON(AccountChangeJSON(account, changed: true, invitation: (invitation, address.address)))
                    return
                }
                Console.print("Added the account \(account.name) (\(account.role)).")
                Accounts.printInvitation(invitation, at: address)
            }
        }

        struct SetRole: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "role", abstract: "Give an account another role.")

            @OptionGroup var name: NameArgument

            @Argument(help: ArgumentHelp("volunteer, proof-listener, coordinator or admin.", valueName: "ROLE"))
            var role: String

            @OptionGroup var output: JSONOption

            func validate() throws {
                do { _ = try Role(naming: role) } catch { throw ValidationError(error.message) }
            }

            func run() throws {
                let role = try Role(naming: role)
                let accountName = try name.checked()
                let (account, before) = try withAccounts { (service) throws(NarrationError) in
                    let before = try service.setRole(role, of: accountName, by: Accounts.actor)
                    return (try service.account(accountName), before)
                }
                if output.json {
                    Console.printJSON(AccountChangeJSON(account, changed: before != role, previousRole: before))
                } else if before == role {
                    Console.print("\(account.name) is \(role) already; nothing changed.")
                } else {
                    Console.print("\(account.name) is now \(role) (was \(before)).")
                }
            }
        }

        struct Disable: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Disable an account: it cannot sign in, and its sessions end at once.",
                discussion: "Its recordings and its lines in the audit log stay. narrate accounts enable undoes it.")

            @OptionGroup var name: NameArgument
            @OptionGroup var output: JSONOption

            func run() throws {
                let accountName = try name.checked()
                let (account, ended) = try withAccounts { (service) throws(NarrationError) in
                    let ended = try service.disable(accountName, by: Accounts.actor)
                    return (try service.account(accountName), ended)
                }
                if output.json {
                    Console.printJSON(AccountChangeJSON(account, changed: ended != nil, sessionsEnded: ended ?? 0))
                } else if let ended {
                    Console.print("Disabled \(account.name); \(ended == 1 ? "1 session" : "\(ended) sessions") ended.")
                } else {
                    Console.print("\(account.name) is disabled already; nothing changed.")
                }
            }
        }

        struct Enable: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Enable a disabled account again.")

            @OptionGroup var name: NameArgument
            @OptionGroup var output: JSONOption

            func run() throws {
                let accountName = try name.checked()
                let (account, changed) = try withAccounts { (service) throws(NarrationError) in
                    let changed = try service.enable(accountName, by: Accounts.actor)
                    return (try service.account(accountName), changed)
                }
                if output.json {
                    Console.printJSON(AccountChangeJSON(account, changed: changed))
                } else {
                    Console.print(changed ? "Enabled \(account.name)." : "\(account.name) is enabled already; nothing changed.")
                }
            }
        }

        struct Reset: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Give an account a new invitation link: the old link and the passphrase stop working, its sessions end.")

            @OptionGroup var name: NameArgument
            @OptionGroup var output: JSONOption

            func run() throws {
                let accountName = try name.checked()
                let address = try Accounts.serviceAddress()
                let (account, reset) = try withAccounts { (service) throws(NarrationError) in
                    let reset = try service.reset(accountName, by: Accounts.actor)
                    return (try service.account(accountName), reset)
                }
                if output.json {
                    Console.printJSON(AccountChangeJSON(account, changed: true, sessionsEnded: reset.sessionsEnded, invitation: (reset.invitation, address.address)))
                    return
                }
                let ended = reset.sessionsEnded == 1 ? "1 session" : "\(reset.sessionsEnded) sessions"
                Console.print("Reset \(account.name): the passphrase and every earlier link no longer work; \(ended) ended.")
                Accounts.printInvitation(reset.invitation, at: address)
            }
        }

        struct SignOut: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "sign-out", abstract: "Sign an account out everywhere: every session it has ends.")

            @OptionGroup var name: NameArgument
            @OptionGroup var output: JSONOption

            func run() throws {
                let accountName = try name.checked()
                let (account, ended) = try withAccounts { (service) throws(NarrationError) in
                    let ended = try service.signOutEverywhere(accountName, by: Accounts.actor)
                    return (try service.account(accountName), ended)
                }
                if output.json {
                    Console.printJSON(AccountChangeJSON(account, changed: ended > 0, sessionsEnded: ended))
                } else {
                    Console.print("Signed \(account.name) out everywhere; \(ended == 1 ? "1 session" : "\(ended) sessions") ended.")
                }
            }
        }
    }
}
