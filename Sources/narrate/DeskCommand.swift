import ArgumentParser
import Foundation
import Narration
import NarrationCore

extension Narrate {
    /// `narrate desk [list|add|show|assign|open|claim|change|withdraw|expire]`: the coordinator's
    /// desk of a reading service, for scripts and the terminal. Run by the server's operator,
    /// who may what an admin may; each change goes into the audit log (`narrate audit`).
    struct Desk: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The reading service's desk: add the day's articles, assign them or leave them open, follow their state.",
            discussion: """
                An article on the desk is Open (anyone who narrates may claim it), Assigned (to a \
                volunteer, or claimed by one), Recording, Ready for review, Pickups requested, \
                Approved, Published, Expired (its listen-until has passed) or Withdrawn. Deadlines \
                and listen-until days are UTC: a day alone means the whole day. Whoever runs these \
                commands on the server acts as an admin; the audit log names the Unix user.

                  narrate desk add --title "Budget vote" --deadline 2026-12-02T17:00 --text budget.html
                  narrate desk assign k3f9x2ab ann.lee
                  narrate desk list --late
                """,
            subcommands: [List.self, Add.self, Show.self, Assign.self, Open.self, Claim.self, Send.self, Change.self, Withdraw.self, Expire.self],
            defaultSubcommand: List.self)

        /// The article id every subcommand but add and list takes, checked before anything is opened.
        struct ArticleArgument: ParsableArguments {
            @Argument(help: ArgumentHelp("The article's id, or the start of it (narrate desk list shows them).", valueName: "ID"))
            var id: String

            func validate() throws {
                guard Identifier.isWellFormed(id) else {
                    throw ValidationError("\"\(id.prefix(40))\" is not an article id: ids are up to 32 of 0-9 and a-z without i, l, o, u, e.g. k3f9x2ab.")
                }
            }
        }

        /// Who the desk's changes are made by: the Unix user running the command, as an admin.
        static var actor: ServiceActor { .commandLine(user: NSUserName()) }

        /// Runs `body` with the desk and the accounts of the data folder's catalog, and the id
        /// `id` names (a prefix is enough); an unknown account's sentence says how to see the names.
        static func withDesk<T>(
            readOnly: Bool = false, _ body: (DeskService, AccountService, NarrationLibrary) throws(NarrationError) -> T
        ) throws -> T {
            let reviewIsOn = try CommandRunner.settings().serviceReview
            return try CommandRunner.withLibrary(readOnly: readOnly) { (library) throws(NarrationError) -> T in
                do throws(NarrationError) {
                    return try body(DeskService(store: library.deskStore, reviewIsOn: reviewIsOn), AccountService(store: library.accountStore), library)
                } catch {
                    guard error.kind == .unknownAccount else { throw error }
                    throw NarrationError(.unknownAccount, error.message + " List the accounts with: narrate accounts list")
                }
            }
        }

        /// The id of the article `text` names (a full id or a unique start of one).
        static func articleID(_ text: String, in library: NarrationLibrary) throws(NarrationError) -> ArticleID {
            try library.article(text).id
        }

        /// `text` as a deadline or listen-until, for an option called `flag`; "none" is nil when `allowingNone`.
        static func time(_ text: String, flag: String, allowingNone: Bool = false) throws -> DeskTime?? {
            if allowingNone, text == "none" { return .some(nil) }
            do { return .some(try DeskTime(text)) } catch { throw ValidationError("\(flag) \(error.message)") }
        }

        /// What a change prints: a line, or the record as JSON.
        static func report(_ entry: DeskEntry, json: Bool, _ line: String) {
            if json { Console.printJSON(DeskDocument(entry, now: Date())) } else { Console.print(line) }
        }

        /// Refuses `queue` and `submit` of an article on the desk: a desk article reaches
        /// listeners only through the desk (a proof-listener's approval, or with review off its
        /// volunteer's send), never past it.
        static func refuseDirectDelivery(of article: Article, in library: NarrationLibrary) throws(NarrationError) {
            guard let entry = try library.deskStore.entry(article.id) else { return }
            throw NarrationError(
                .deskRefused,
                "\(entry.naming) is on the reading service's desk (\(entry.state.title)), so it is delivered through the desk: a proof-listener approves it (narrate review approve), or with review off its volunteer sends it (narrate desk send).")
        }

        /// `The article k3f9x2ab ("Budget")` as the lines below name it.
        static func named(_ entry: DeskEntry) -> String { "\(entry.article) (\"\(entry.title)\")" }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List the articles on the desk, most urgent first: state, priority, deadline, volunteer.",
                discussion: """
                    With --json, each article (as narrate desk show --json prints one) has: id, \
                    title, publication, section ("" for none), state, priority (low, normal, high, \
                    urgent), deadline and listenUntil (YYYY-MM-DD or YYYY-MM-DDTHH:MM, UTC, or \
                    null), late (true or false), volunteer and taking (assigned or claimed; both \
                    null while open), addedAt and changedAt (ISO 8601) and version (counts its \
                    changes).
                    """)

            @Option(help: ArgumentHelp("Only the articles of this publication.", valueName: "NAME"))
            var publication: String?

            @Option(help: ArgumentHelp("Only the articles in this state: \(DeskState.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "STATE"))
            var state: String?

            @Option(help: ArgumentHelp("Only the articles assigned to or claimed by this account.", valueName: "NAME"))
            var volunteer: String?

            @Option(help: ArgumentHelp("Only the articles due before this day begins (or by this time), UTC.", valueName: "YYYY-MM-DD[THH:MM]"))
            var dueBefore: String?

            @Flag(help: "Only the late articles: deadline passed, not yet approved or published.")
            var late = false

            @OptionGroup var output: JSONOption

            func validate() throws {
                if let state { do { _ = try DeskState(naming: state) } catch { throw ValidationError("--state \(error.message)") } }
                if let volunteer { do { _ = try AccountName(volunteer) } catch { throw ValidationError("--volunteer \(error.message)") } }
                if let dueBefore { _ = try Desk.time(dueBefore, flag: "--due-before") }
            }

            func run() throws {
                var filter = DeskFilter(publication: publication)
                filter.state = try state.map { try DeskState(naming: $0) }
                filter.volunteer = try volunteer.map { try AccountName($0) }
                // A day alone is due at its end: "before 2026-12-03" takes in what is due at the end of the 2nd.
                filter.dueBefore = try dueBefore.flatMap { try Desk.time($0, flag: "--due-before") }?.map { $0.hasTime ? $0.instant : $0.instant.addingTimeInterval(-24 * 3600) }
                let entries = try withDesk(readOnly: true) { (desk, _, _) throws(NarrationError) in try desk.list(filter, late: late, by: Desk.actor) }
                let now = Date()
                if output.json {
                    Console.printJSON(entries.map { DeskDocument($0, now: now) })
                    return
                }
                guard !entries.isEmpty else {
                    let filtered = publication != nil || state != nil || volunteer != nil || dueBefore != nil || late
                    Console.print(filtered ? "No article on the desk matches." : "The desk is empty. Add an article with: narrate desk add --title TITLE --publication NAME")
                    return
                }
                let rows = [["id", "state", "priority", "deadline", "volunteer", "publication", "title"]] + entries.map { entry in
                    [
                        entry.article.rawValue, entry.state.rawValue, entry.priority.name,
                        (entry.deadline?.description ?? "-") + (entry.isLate(at: now) ? " late" : ""),
                        entry.assignee.map { "\($0)\(entry.taking == .claimed ? " (claimed)" : "")" } ?? "-", entry.publication.isEmpty ? "-" : entry.publication,
                        entry.title,
                    ]
                }
                let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
                for row in rows {
                    Console.print((0..<6).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ") + "  " + row[6])
                }
            }
        }

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Put an article on the desk, Open, with its text from a file or pasted on standard input.",
                discussion: """
                    The text is read before anything is made: a file narrate cannot read adds nothing.

                      pbpaste | narrate desk add --title "Shop flyer" --publication "Shop Weekly" --paste --listen-until 2026-12-07
                    """)

            @Option(help: ArgumentHelp("The article's title.", valueName: "TITLE"))
            var title: String

            @Option(help: ArgumentHelp("The newspaper or magazine it comes from (default: publication in config.toml).", valueName: "NAME"))
            var publication: String?

            @Option(help: ArgumentHelp("The part of the publication it comes from, e.g. \"Local news\".", valueName: "SECTION"))
            var section: String?

            @Option(help: ArgumentHelp("When it should be recorded by: a day (the whole day) or a time, UTC.", valueName: "YYYY-MM-DD[THH:MM]"))
            var deadline: String?

            @Option(help: ArgumentHelp("Until when listeners may hear it; then it expires and leaves the feeds.", valueName: "YYYY-MM-DD[THH:MM]"))
            var listenUntil: String?

            @Option(help: ArgumentHelp("low, normal, high or urgent.", valueName: "LEVEL"))
            var priority = "normal"

            @Option(help: ArgumentHelp("The article's text: .txt, .md, .html, .docx, .odt or .pdf.", valueName: "FILE"))
            var text: String?

            @Flag(help: "Read the article's text from standard input (plain text, or HTML).")
            var paste = false

            @Option(
                parsing: .unconditional,
                help: ArgumentHelp(
                    "Sample rate of its takes: 16000, 22050, 44100 (the default) or 48000. At 22050 a take at home sends about 30 % less over a slow connection.",
                    valueName: "HZ"))
            var rate = AudioFormat.speech.sampleRate

            @OptionGroup var output: JSONOption

            /// The most pasted text taken: far more than any article, little enough to hold.
            static let pasteLimit = 16 * 1024 * 1024

            func validate() throws {
                if text != nil, paste { throw ValidationError("Give the text either with --text FILE or with --paste, not both.") }
                if let deadline { _ = try Desk.time(deadline, flag: "--deadline") }
                if let listenUntil { _ = try Desk.time(listenUntil, flag: "--listen-until") }
                do { _ = try DeskPriority(naming: priority) } catch { throw ValidationError("--priority \(error.message)") }
                if let section { do { try DeskEntry.checkSection(section) } catch { throw ValidationError("--section: \(error.message)") } }
                do { try format.validate() } catch { throw ValidationError(error.sentence) }
            }

            private var format: AudioFormat {
                AudioFormat(sampleRate: rate, channels: AudioFormat.speech.channels, bitsPerSample: AudioFormat.speech.bitsPerSample)
            }

            func run() throws {
                let settings = try CommandRunner.settings()
                let new = DeskService.NewArticle(
                    title: title, publication: publication ?? settings.publication, section: section ?? "",
                    deadline: try deadline.flatMap { try Desk.time($0, flag: "--deadline") } ?? nil,
                    listenUntil: try listenUntil.flatMap { try Desk.time($0, flag: "--listen-until") } ?? nil, priority: try DeskPriority(naming: priority))
                let deskText: DeskText?
                if paste {
                    let bytes = FileHandle.standardInput.readData(ofLength: Self.pasteLimit + 1)
                    guard bytes.count <= Self.pasteLimit else {
                        Console.error("The pasted text is longer than \(Self.pasteLimit / 1024 / 1024) MiB: save it to a file and give it with --text FILE.")
                        throw ExitCode(64)
                    }
                    deskText = .pasted(Array(bytes))
                } else {
                    deskText = text.map(DeskText.file)
                }
                let (entry, paragraphs) = try withDesk { (desk, _, library) throws(NarrationError) in
                    let entry = try desk.add(new, by: Desk.actor) { (new) throws(NarrationError) in try library.makeDeskArticle(new, text: deskText, format: format) }
                    let article = try library.article(entry.article.rawValue)
                    return (entry, try library.records(of: article).paragraphs().count)
                }
                let text = paragraphs == 0 ? "no text yet" : "\(paragraphs) paragraph\(paragraphs == 1 ? "" : "s") of text"
                Desk.report(entry, json: output.json, "Added \(Desk.named(entry)) to the desk, Open, with \(text). Assign it with: narrate desk assign \(entry.article) NAME")
            }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Show one article on the desk: its state, volunteer, deadline and details.")

            @OptionGroup var article: ArticleArgument
            @OptionGroup var output: JSONOption

            func run() throws {
                let entry = try withDesk(readOnly: true) { (desk, _, library) throws(NarrationError) in
                    try desk.entry(try Desk.articleID(article.id, in: library), by: Desk.actor)
                }
                let now = Date()
                if output.json {
                    Console.printJSON(DeskDocument(entry, now: now))
                    return
                }
                let volunteer = entry.assignee.map { "\($0) (\(entry.taking?.rawValue ?? "assigned"))" } ?? "none"
                let lines: [(String, String)] = [
                    ("state", entry.state.title), ("volunteer", volunteer), ("publication", entry.publication.isEmpty ? "-" : entry.publication),
                    ("section", entry.section.isEmpty ? "-" : entry.section), ("priority", entry.priority.name),
                    ("deadline", (entry.deadline?.description ?? "none") + (entry.isLate(at: now) ? " (late)" : "")),
                    ("listen until", entry.listenUntil?.description ?? "no end"), ("added", AccountTime.utc(entry.addedAt)), ("changed", AccountTime.utc(entry.changedAt)),
                ]
                Console.print("\(entry.title) (\(entry.article))")
                for (label, value) in lines { Console.print(label.padding(toLength: 13, withPad: " ", startingAt: 0) + value) }
            }
        }

        struct Assign: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Give an article to a volunteer (or to another one; its takes stay for them to carry on).")

            @OptionGroup var article: ArticleArgument

            @Argument(help: ArgumentHelp("The account that records it.", valueName: "NAME"))
            var account: String

            @OptionGroup var output: JSONOption

            func validate() throws {
                do { _ = try AccountName(account) } catch { throw ValidationError(error.message) }
            }

            func run() throws {
                let name = try AccountName(account)
                let entry = try withDesk { (desk, accounts, library) throws(NarrationError) in
                    let id = try Desk.articleID(article.id, in: library)
                    return try desk.assign(id, to: try accounts.account(name), by: Desk.actor)
                }
                Desk.report(entry, json: output.json, "Assigned \(Desk.named(entry)) to \(name); it is \(entry.state.title).")
            }
        }

        struct Open: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Take an assigned article back and leave it open for anyone to claim.")

            @OptionGroup var article: ArticleArgument
            @OptionGroup var output: JSONOption

            func run() throws {
                let entry = try withDesk { (desk, _, library) throws(NarrationError) in
                    try desk.leaveOpen(try Desk.articleID(article.id, in: library), by: Desk.actor)
                }
                Desk.report(entry, json: output.json, "\(Desk.named(entry)) is Open: anyone who narrates may claim it.")
            }
        }

        struct Claim: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Claim an open article for an account, with that account's permissions.")

            @OptionGroup var article: ArticleArgument

            @Option(name: .customLong("as"), help: ArgumentHelp("The account that claims it.", valueName: "NAME"))
            var account: String

            @OptionGroup var output: JSONOption

            func validate() throws {
                do { _ = try AccountName(account) } catch { throw ValidationError("--as \(error.message)") }
            }

            func run() throws {
                let name = try AccountName(account)
                let entry = try withDesk { (desk, accounts, library) throws(NarrationError) in
                    let id = try Desk.articleID(article.id, in: library)
                    return try desk.claim(id, by: .commandLine(user: NSUserName(), as: try accounts.account(name)))
                }
                Desk.report(entry, json: output.json, "\(name) claimed \(Desk.named(entry)).")
            }
        }

        /// `narrate desk send ID --as NAME`: what the studio's Send does, for a volunteer who
        /// recorded at the command line: the article, with its takes, goes to Ready for review;
        /// with `[service] review = false` it is delivered as submit delivers and Published
        /// (`DeskDelivery`).
        struct Send: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Send a recorded article on for its volunteer: to Ready for review, or with review off delivered and Published.",
                discussion: """
                    With review off ([service] review = false) the destination and profile options say where it goes, as for narrate submit. \
                    The delivery is then a job of the service's catalog: should this command stop before it is done, a running \
                    "narrate serve" finishes it, to the service's own destination and profile in config.toml (not to --to).
                    """)

            @OptionGroup var article: ArticleArgument

            @Option(name: .customLong("as"), help: ArgumentHelp("The account whose article it is.", valueName: "NAME"))
            var account: String

            @OptionGroup var profile: ProfileOption
            @OptionGroup var destination: DestinationOptions
            @OptionGroup var retry: RetryOptions
            @OptionGroup var output: JSONOption

            func validate() throws {
                do { _ = try AccountName(account) } catch { throw ValidationError("--as \(error.message)") }
            }

            func run() async throws {
                let name = try AccountName(account)
                let settings = try CommandRunner.settings()
                // Only a send that delivers needs to know where to.
                let resolved = settings.serviceReview ? nil : try destination.required(settings)
                let requested = try profile.profile.map { (name) throws(NarrationError) in try settings.deliveryProfile(named: name) }
                let fallback = try profile.resolve(settings)
                let (entry, job) = try await CommandRunner.withLibrary { (library) async throws(NarrationError) -> (DeskEntry, OutboxJob?) in
                    let desk = DeskService(store: library.deskStore, reviewIsOn: settings.serviceReview)
                    let id = try Desk.articleID(article.id, in: library)
                    guard let volunteer = try library.accountStore.account(named: name) else {
                        throw NarrationError(.unknownAccount, NarrationError.unknownAccount(name.rawValue).message + " List the accounts with: narrate accounts list")
                    }
                    let actor = ServiceActor.commandLine(user: NSUserName(), as: volunteer)
                    let current = try desk.entry(id, by: actor)
                    let found = try library.article(id.rawValue)
                    if current.state == .assigned {
                        guard try library.records(of: found).chunkCount() > 0 else {
                            throw NarrationError.usage("\(current.naming) has no takes yet: record it first (narrate record --article \(id)).")
                        }
                        try desk.recordedTake(id, by: actor)
                    }
                    guard let resolved else { return (try desk.send(id, by: actor), nil) }
                    let sending = DeskDelivery.Sending(
                        destination: resolved, profile: requested, fallback: fallback, language: settings.language, retry: retry.schedule)
                    let accounts = AccountService(store: library.accountStore)
                    let delivery = DeskDelivery(library: library, desk: desk)
                    // On a host of a reading service the chunks another host recorded come from the recordings store.
                    let done = try await CommandRunner.withRecordings(library) { (recordings) async throws(NarrationError) in
                        try await delivery.sendAndDeliver(found, by: actor, sending: sending, accounts: accounts, recordings: recordings, onRetry: { error, delay in
                            Console.error("\(error.sentence) Trying again in \(String(format: "%g", delay)) s.")
                        })
                    }
                    guard let (job, entry) = done else {
                        return (try desk.entry(id, by: actor), nil)
                    }
                    return (entry, job)
                }
                let delivered =
                    job.map { " Delivered \($0.file.lastPathComponent) to \($0.remotePath ?? "its destination")." }
                    ?? (resolved != nil && entry.state != .published ? " Another server of the service is delivering it." : "")
                Desk.report(entry, json: output.json, "\(name) sent \(Desk.named(entry)): it is \(entry.state.title).\(delivered)")
            }
        }

        struct Change: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Change an article's section, deadline, listen-until or priority.",
                discussion: "Give none as a deadline or listen-until to remove it.")

            @OptionGroup var article: ArticleArgument

            @Option(help: "The part of the publication it comes from (\"\" for none).")
            var section: String?

            @Option(help: ArgumentHelp("The new deadline, or none.", valueName: "YYYY-MM-DD[THH:MM]"))
            var deadline: String?

            @Option(help: ArgumentHelp("The new listen-until, or none.", valueName: "YYYY-MM-DD[THH:MM]"))
            var listenUntil: String?

            @Option(help: ArgumentHelp("low, normal, high or urgent.", valueName: "LEVEL"))
            var priority: String?

            @OptionGroup var output: JSONOption

            func validate() throws {
                guard section != nil || deadline != nil || listenUntil != nil || priority != nil else {
                    throw ValidationError("Say what to change: --section, --deadline, --listen-until or --priority.")
                }
                if let deadline { _ = try Desk.time(deadline, flag: "--deadline", allowingNone: true) }
                if let listenUntil { _ = try Desk.time(listenUntil, flag: "--listen-until", allowingNone: true) }
                if let priority { do { _ = try DeskPriority(naming: priority) } catch { throw ValidationError("--priority \(error.message)") } }
                if let section { do { try DeskEntry.checkSection(section) } catch { throw ValidationError("--section: \(error.message)") } }
            }

            func run() throws {
                let change = DeskService.Change(
                    section: section, deadline: try deadline.map { try Desk.time($0, flag: "--deadline", allowingNone: true) } ?? nil,
                    listenUntil: try listenUntil.map { try Desk.time($0, flag: "--listen-until", allowingNone: true) } ?? nil,
                    priority: try priority.map { try DeskPriority(naming: $0) })
                let (before, entry) = try withDesk { (desk, _, library) throws(NarrationError) in
                    let id = try Desk.articleID(article.id, in: library)
                    return (try desk.entry(id, by: Desk.actor), try desk.change(id, change, by: Desk.actor))
                }
                Desk.report(entry, json: output.json, before == entry ? "\(Desk.named(entry)) has those details already; nothing changed." : "Changed \(Desk.named(entry)).")
            }
        }

        struct Withdraw: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Take an article off the desk for good: nobody records, reviews or claims it any more.")

            @OptionGroup var article: ArticleArgument
            @OptionGroup var output: JSONOption

            func run() throws {
                let entry = try withDesk { (desk, _, library) throws(NarrationError) in
                    try desk.withdraw(try Desk.articleID(article.id, in: library), by: Desk.actor)
                }
                Desk.report(entry, json: output.json, "Withdrew \(Desk.named(entry)).")
            }
        }

        struct Expire: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Mark Expired every article whose listen-until has passed: run it from a daily timer.")

            @OptionGroup var output: JSONOption

            func run() throws {
                let expired = try withDesk { (desk, _, _) throws(NarrationError) in try desk.expireOverdue() }
                if output.json {
                    Console.printJSON(expired.map { DeskDocument($0, now: Date()) })
                    return
                }
                guard !expired.isEmpty else {
                    Console.print("No article's listen-until has passed; nothing expired.")
                    return
                }
                for entry in expired { Console.print("Expired \(Desk.named(entry)): its listen-until \(entry.listenUntil?.description ?? "") has passed.") }
            }
        }
    }
}
