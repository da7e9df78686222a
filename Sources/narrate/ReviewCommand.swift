import ArgumentParser
import Foundation
import Narration
import NarrationCore

extension Narrate {
    /// `narrate review [notes|note|send-back|done|changes]`: a reading service's review of an
    /// article from a terminal or a script, acting as one account (`--as`).
    struct Review: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Review an article before listeners hear it: pin notes, send it back with pickups, mark them done, hear what changed.",
            discussion: """
                A proof-listener pins notes to a paragraph and a time of the article's audio \
                ("said / should be", or a remark), then sends the article back: each note becomes \
                a pickup, a punch-and-roll in the chunk at that time or the paragraph read again. \
                The volunteer marks each pickup done with the edit (see narrate history) that did \
                it; then changes lists what changed since, for the proof-listener to hear only that.

                Each command acts as the account named by --as: its role decides what it may do \
                (pin and send back: a proof-listener; mark done: the article's recorder), and the \
                audit log names it with the Unix user who ran the command. Notes are never \
                deleted.

                  narrate review note --as dora --paragraph 3 --at 12.4 --said there --should-be their
                  narrate review send-back --as dora
                  narrate review done 1 --edit 42 --as ann.lee
                  narrate review changes --as dora --json
                  narrate review approve --as dora --to archive

                For an article on the desk (narrate desk) each step moves it there too: send-back \
                to Pickups requested, the last pickup done back to Ready for review, approve to \
                Approved, then Published once its delivery is checked at the destination.
                """,
            subcommands: [Notes.self, Note.self, SendBack.self, Done.self, Changes.self, Approve.self], defaultSubcommand: Notes.self)

        /// `--as NAME`: the account a review command acts as, checked before anything is opened.
        struct ActingAccount: ParsableArguments {
            @Option(name: .customLong("as"), help: ArgumentHelp("The account doing it (see narrate accounts list).", valueName: "NAME"))
            var account: String

            func validate() throws {
                do { _ = try AccountName(account) } catch { throw ValidationError("--as \(error.message)") }
            }
        }

        /// What every review command works on (`ReviewDesk.Context`).
        typealias Context = ReviewDesk.Context

        /// Runs `body` with the review of the article `target` names, as the account `acting`
        /// names; an unknown account's sentence says how to see the names.
        static func withReview<T>(
            readOnly: Bool = false, _ target: ArticleOption, _ acting: ActingAccount, _ body: (Context) throws(NarrationError) -> T
        ) throws -> T {
            let reviewIsOn = try CommandRunner.settings().serviceReview
            return try CommandRunner.withLibrary(readOnly: readOnly) { (library) throws(NarrationError) -> T in
                let account = try Self.account(acting, in: library)
                let article = try library.article(target.article)
                let engine = ReviewDesk(
                    library: library, desk: DeskService(store: library.deskStore, reviewIsOn: reviewIsOn),
                    channel: AuditEntry.commandLineActor(user: NSUserName()))
                return try body(try engine.context(article, account: account, actor: .commandLine(user: NSUserName(), as: account)))
            }
        }

        /// The account `acting` names; an unknown one's sentence says how to see the names.
        static func account(_ acting: ActingAccount, in library: NarrationLibrary) throws(NarrationError) -> Account {
            let name = try AccountName(acting.account)
            guard let account = try library.accountStore.account(named: name) else {
                throw NarrationError(.unknownAccount, NarrationError.unknownAccount(name.rawValue).message + " List the accounts with: narrate accounts list")
            }
            return account
        }

        /// A note in one line: "1  paragraph 3 at 00:00:12.400  said "there", should be "their"  (dora; open: punch in at 2.4 s into chunk 4)".
        static func line(_ note: ReviewNote, target: PickupTarget?) -> String {
            let state: String =
                switch note.pickup {
                case .open where note.sendBack == nil: "in review"
                case .open: "open" + (target.map { ": \($0.sentence)" } ?? "")
                case .done(let edit, let by, _): "done by \(by) with edit \(edit)"
                }
            return "\(note.id)  paragraph \(note.paragraph) at \(Timecode.precise(note.seconds))  \(note.summary)  (\(note.author); \(state))"
        }

        /// `narrate review notes`: every note of the article.
        struct Notes: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List the article's review notes, oldest first, with each open pickup's target.")

            @OptionGroup var target: ArticleOption
            @OptionGroup var acting: ActingAccount
            @OptionGroup var output: JSONOption

            func run() throws {
                let (article, notes, pickups) = try Review.withReview(readOnly: true, target, acting) { (context) throws(NarrationError) in
                    (
                        context.article, try context.service.notes(of: context.article.id, for: context.account, relation: context.relation),
                        try context.service.pickups(of: context.reviewed, for: context.account, relation: context.relation)
                    )
                }
                let targets = Dictionary(pickups.map { ($0.note.id, $0.target) }, uniquingKeysWith: { first, _ in first })
                if output.json {
                    Console.printJSON(notes.map { ReviewNoteJSON($0, target: targets[$0.id]) })
                    return
                }
                guard !notes.isEmpty else {
                    Console.print("No review notes on \"\(article.title)\" yet.")
                    return
                }
                Console.print("Review notes on \"\(article.title)\" (\(article.id)):")
                for note in notes { Console.print(Review.line(note, target: targets[note.id])) }
            }
        }

        /// `narrate review note`: pins a note.
        struct Note: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Pin a note to a paragraph and a time of the article's audio: what was said and what it should be, or a remark.")

            @OptionGroup var target: ArticleOption
            @OptionGroup var acting: ActingAccount

            @Option(parsing: .unconditional, help: ArgumentHelp("The paragraph of the article's text, from 1 (see narrate script).", valueName: "N"))
            var paragraph: Int

            @Option(parsing: .unconditional, help: ArgumentHelp("Where in the article's audio: seconds (12.4) or HH:MM:SS.mmm from its start.", valueName: "TIME"))
            var at: String

            @Option(parsing: .unconditional, help: ArgumentHelp("What the narrator said (with --should-be).", valueName: "TEXT"))
            var said: String?

            @Option(name: .customLong("should-be"), parsing: .unconditional, help: ArgumentHelp("What the text says (with --said).", valueName: "TEXT"))
            var shouldBe: String?

            @Option(parsing: .unconditional, help: ArgumentHelp("A remark instead: anything else to pick up.", valueName: "TEXT"))
            var text: String?

            @OptionGroup var output: JSONOption

            func validate() throws {
                if paragraph < 1 {
                    throw ValidationError("--paragraph \(paragraph) is not a paragraph: paragraphs are numbered from 1 (see \"narrate script\").")
                }
                guard Timecode.seconds(parsing: at) != nil else {
                    throw ValidationError("--at \(TimeArgument.shown(at)) is not a time in the article: give seconds (12.4) or HH:MM:SS.mmm from its start.")
                }
                switch (said, shouldBe, text) {
                case (.some, .some, nil), (nil, nil, .some): break
                default: throw ValidationError("A note is --said TEXT with --should-be TEXT, or --text TEXT: give one of the two.")
                }
            }

            /// The note's content, each text checked; a refusal names the option.
            func content() throws(NarrationError) -> ReviewNote.Content {
                func checked(_ value: String, _ option: String, _ limit: Int) throws(NarrationError) -> ReviewNoteText {
                    do { return try ReviewNoteText(value, field: option, limit: limit) } catch {
                        throw .usage(error.message.replacingOccurrences(of: "The note's \(option)", with: "--\(option)"))
                    }
                }
                if let text { return .remark(try checked(text, "text", ReviewNoteText.remarkLimit)) }
                return .saidShouldBe(
                    said: try checked(said ?? "", "said", ReviewNoteText.phraseLimit), shouldBe: try checked(shouldBe ?? "", "should-be", ReviewNoteText.phraseLimit))
            }

            func run() throws {
                let seconds = Timecode.seconds(parsing: at) ?? -1
                let (article, note) = try Review.withReview(target, acting) { (context) throws(NarrationError) in
                    (
                        context.article,
                        try context.service.pin(
                            try content(), paragraph: paragraph, seconds: seconds, on: context.reviewed, by: context.account, relation: context.relation)
                    )
                }
                if output.json {
                    Console.printJSON(ReviewNoteJSON(note))
                    return
                }
                Console.print("Pinned note \(note.id) to paragraph \(note.paragraph) at \(Timecode.precise(note.seconds)) of \"\(article.title)\".")
            }
        }

        /// `narrate review send-back`: the notes become pickups.
        struct SendBack: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "send-back",
                abstract: "Send the article back to its volunteer with the notes pinned since it was last sent back as pickups.")

            @OptionGroup var target: ArticleOption
            @OptionGroup var acting: ActingAccount
            @OptionGroup var output: JSONOption

            /// What `--json` prints.
            struct SentBackJSON: Encodable {
                let sendBack: Int64
                let at: Date
                let by: String
                let pickups: [ReviewNoteJSON]
            }

            func run() throws {
                let (article, sent) = try Review.withReview(target, acting) { (context) throws(NarrationError) in
                    (context.article, try ReviewDesk.sendBack(context))
                }
                if output.json {
                    Console.printJSON(SentBackJSON(
                        sendBack: sent.sendBack.id, at: sent.sendBack.at, by: sent.sendBack.by.rawValue,
                        pickups: sent.pickups.map { ReviewNoteJSON($0.note, target: $0.target) }))
                    return
                }
                let count = sent.pickups.count
                Console.print("Sent \"\(article.title)\" back with \(count) \(count == 1 ? "pickup" : "pickups"):")
                for pickup in sent.pickups { Console.print(Review.line(pickup.note, target: pickup.target)) }
            }
        }

        /// `narrate review done`: a pickup done by an edit.
        struct Done: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Mark a pickup done, naming the edit (see narrate history) whose take or punch did it.")

            @OptionGroup var target: ArticleOption
            @OptionGroup var acting: ActingAccount

            @Argument(help: ArgumentHelp("The note's number (see narrate review notes).", valueName: "NOTE"))
            var note: Int

            @Option(parsing: .unconditional, help: ArgumentHelp("The edit that did it: its number in narrate history.", valueName: "N"))
            var edit: Int

            @OptionGroup var output: JSONOption

            func validate() throws {
                if note < 1 { throw ValidationError("\(note) is not a note: notes are numbered from 1 (see \"narrate review notes\").") }
                if edit < 1 { throw ValidationError("--edit \(edit) is not an edit: edits are numbered from 1 (see \"narrate history\").") }
            }

            /// What follows "Pickup N is done" once the last one is.
            static func afterwards(allDone: Bool, backInReview: Bool) -> String {
                guard allDone else { return "" }
                return backInReview ? " All pickups are done: the article is Ready for review again." : " All pickups are done: the article can go back to review."
            }

            /// What `--json` prints.
            struct DoneJSON: Encodable {
                let note: ReviewNoteJSON
                let allDone: Bool
            }

            func run() throws {
                let outcome = try Review.withReview(target, acting) { (context) throws(NarrationError) in
                    // The last pickup done sends a desk article back to review.
                    try PickupCompletion(review: context.service, desk: context.desk).markDone(
                        Int64(note), of: context.reviewed, edit: edit, by: context.account, relation: context.relation, actor: context.actor)
                }
                let (allDone, backInReview) = (outcome.allDone, outcome.backInReview)
                guard let done = outcome.done.first else { throw NarrationError.noOpenPickup(Int64(note)) }
                if output.json {
                    Console.printJSON(DoneJSON(note: ReviewNoteJSON(done), allDone: allDone))
                    return
                }
                Console.print("Pickup \(done.id) is done with edit \(edit).\(Self.afterwards(allDone: allDone, backInReview: backInReview))")
            }
        }

        /// `narrate review changes`: what changed since the last send-back.
        struct Changes: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List what changed since the article was sent back, by paragraph, with where each change is in its audio now.")

            @OptionGroup var target: ArticleOption
            @OptionGroup var acting: ActingAccount
            @OptionGroup var output: JSONOption

            /// What `--json` prints: nil `sendBack` when the article was never sent back.
            struct ChangesJSON: Encodable {
                let sendBack: Int64?
                let changes: [ReviewChangeJSON]
            }

            func run() throws {
                let (article, sendBack, changes) = try Review.withReview(readOnly: true, target, acting) { (context) throws(NarrationError) in
                    let changes = try context.service.changesSinceSendBack(of: context.reviewed, for: context.account, relation: context.relation)
                    return (context.article, try context.service.store.latestSendBack(of: context.article.id), changes)
                }
                if output.json {
                    Console.printJSON(ChangesJSON(sendBack: sendBack?.id, changes: (changes?.changes ?? []).map(ReviewChangeJSON.init)))
                    return
                }
                let title = article.title
                guard let changes else {
                    Console.print("\"\(title)\" was never sent back: there is nothing to compare.")
                    return
                }
                guard !changes.changes.isEmpty else {
                    Console.print("Nothing changed in \"\(title)\" since it was sent back.")
                    return
                }
                Console.print("What changed in \"\(title)\" since it was sent back:")
                for paragraph in changes.byParagraph {
                    let name = paragraph.paragraph.map { "paragraph \($0)" } ?? "no paragraph"
                    let what = paragraph.changes.map { change in
                        change.chunk.map { "chunk \($0) \(change.kind.rawValue)" } ?? "a take \(change.kind.rawValue)"
                    }.joined(separator: ", ")
                    Console.print("\(name): \(what); hear \(Timecode.precise(paragraph.start)) to \(Timecode.precise(paragraph.end))")
                }
            }
        }
    
        /// `narrate review approve`: a proof-listener's approval of a desk article, which is then
        /// delivered as `submit` delivers and marked Published (`DeskDelivery`).
        struct Approve: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Approve an article on the desk and deliver it: exported as it stands now, checked at its destination, then Published.",
                discussion: """
                    Only a proof-listener approves, and only an article ready for review. A refused \
                    approval exports and sends nothing. A delivery that fails leaves the article \
                    Approved, its export waiting in the outbox ("narrate outbox push" sends it).

                    The delivery is a job of the service's catalog: should this command stop \
                    before it is done, a running "narrate serve" finishes it, to the service's \
                    own destination and profile in config.toml (not to --to).
                    """)

            @OptionGroup var target: ArticleOption
            @OptionGroup var acting: ActingAccount
            @OptionGroup var profile: ProfileOption
            @OptionGroup var destination: DestinationOptions
            @OptionGroup var retry: RetryOptions
            @OptionGroup var output: JSONOption

            /// What `--json` prints.
            struct ApprovedJSON: Encodable {
                let article: String
                let state: String
                let delivered: OutboxJobJSON?
            }

            func run() async throws {
                let settings = try CommandRunner.settings()
                let resolved = try destination.required(settings)
                let reviewIsOn = settings.serviceReview
                let requested = try profile.profile.map { (name) throws(NarrationError) in try settings.deliveryProfile(named: name) }
                let fallback = try profile.resolve(settings)
                let (delivered, approved) = try await CommandRunner.withLibrary { (library) async throws(NarrationError) -> (ApprovedDelivery.Delivered?, Article) in
                    let account = try Review.account(acting, in: library)
                    let article = try library.article(target.article)
                    guard try library.deskStore.entry(article.id) != nil else {
                        throw NarrationError.usage("The article \(article.id) (\"\(article.title)\") is not on the desk, so there is nothing to approve: deliver it with narrate submit.")
                    }
                    let engine = ReviewDesk(library: library, desk: DeskService(store: library.deskStore, reviewIsOn: reviewIsOn))
                    let sending = DeskDelivery.Sending(
                        destination: resolved, profile: requested, fallback: fallback, language: settings.language, retry: retry.schedule)
                    // On a host of a reading service the chunks another host recorded come from the recordings store.
                    let delivered = try await CommandRunner.withRecordings(library) { (recordings) async throws(NarrationError) in
                        try await engine.approve(article, by: .commandLine(user: NSUserName(), as: account), sending: sending, recordings: recordings) { error, delay in
                            Console.error("\(error.sentence) Trying again in \(String(format: "%g", delay)) s.")
                        }
                    }
                    return (delivered, article)
                }
                guard let (job, entry) = delivered.map({ ($0.job, $0.entry) }) else {
                    // Approved, and its delivery was already another host's job (asked for by a page, say).
                    if output.json {
                        Console.printJSON(ApprovedJSON(article: approved.id.rawValue, state: DeskState.approved.rawValue, delivered: nil))
                    } else {
                        Console.print("Approved \"\(approved.title)\": another server of the service is delivering it; the desk says Published once listeners can hear it.")
                    }
                    return
                }
                if output.json {
                    Console.printJSON(ApprovedJSON(article: entry.article.rawValue, state: entry.state.rawValue, delivered: OutboxJobJSON(job)))
                    return
                }
                Console.print("Approved \"\(entry.title)\" and delivered \(job.file.lastPathComponent) to \(job.remotePath ?? resolved.description): it is \(entry.state.title).")
            }
        }
    }
}
