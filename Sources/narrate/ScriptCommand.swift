import ArgumentParser
import Foundation
import Narration
import NarrationCore
import NarrationTerminal
import NarrationText

extension Narrate {
    /// `narrate script [FILE]`: attaches the article's text, or lists its paragraphs and their state.
    struct Script: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Attach the article's text, or list its paragraphs and what is read.",
            discussion: """
                With a file, attaches it as the article's text, replacing any text it had: plain \
                text (paragraphs between blank lines), Markdown (.md: headings, lists; emphasis and \
                links become their words) or HTML (.html: an article page saved from a browser; its \
                headings, paragraphs and list items, without menus, share bars, advertisements, comments, \
                bylines or figures), in UTF-8; or a Word (.docx), OpenDocument (.odt) or PDF file. \
                Takes whose paragraph is unchanged stay bound to it; takes whose paragraph left the \
                text stay in the article, bound to none.

                Without a file, lists the paragraphs: not read, read (its chunks and their \
                length), or flagged by the take check. After each take, narrate checks it in the \
                background: a take far faster than the narrator's usual pace is "possibly skipped"; \
                in English (language in config.toml, default "en"), speech recognition against the \
                article's own text also flags runs of words not heard, with the time, and a take \
                that sounds like another paragraph. Hints never block anything: listen, then \
                re-read the paragraph or dismiss them.

                  narrate script article.html       # attach the text of the current article
                  narrate script                    # what is read, what is next
                  narrate record                    # reads the next paragraph
                  narrate script --check            # check the takes not checked yet, now
                  narrate script --dismiss 4        # paragraph 4's hints were wrong

                A saved web page may keep lines nobody should read: a share bar, an advertisement, \
                a byline with its comment count. Skip them: a skipped paragraph is not read, \
                record never goes to it, and it is in no chapter, transcript or book; queue and \
                submit send an article once every paragraph is read or skipped (or with \
                --incomplete). A paragraph a take reads cannot be skipped: delete its chunks, or \
                put them on the paragraph they really read (narrate move-chunk N --to-paragraph P). \
                narrate undo takes a skip back.

                  narrate script --skip 2-4,7       # paragraphs 2, 3, 4 and 7 are not read
                  narrate script --unskip 3         # paragraph 3 is read after all
                """)

        @Argument(help: ArgumentHelp("The text to attach: .txt, .md, .html, .docx, .odt or .pdf (other names: read by their content).", valueName: "FILE"))
        var file: String?

        @Flag(help: "Check the takes not checked yet, now, and print what the check found.")
        var check = false

        @Option(parsing: .unconditional, help: ArgumentHelp("Dismiss the take check's hints about paragraph N.", valueName: "N"))
        var dismiss: Int?

        @Option(parsing: .unconditional, help: ArgumentHelp("Skip these paragraphs: they are not read, and in no chapter, transcript or book.", valueName: "N[-M]"))
        var skip: ParagraphList?

        @Option(parsing: .unconditional, help: ArgumentHelp("Read these skipped paragraphs after all.", valueName: "N[-M]"))
        var unskip: ParagraphList?

        /// Set by `record` when it starts the measure and check after a take: a data root gone
        /// meanwhile (a test's temporary one) is left alone rather than made again.
        @Flag(help: .hidden)
        var afterTake = false

        @OptionGroup var target: ArticleOption
        @OptionGroup var output: JSONOption

        func validate() throws {
            let actions = [file != nil, check, dismiss != nil, skip != nil, unskip != nil].filter { $0 }.count
            if actions > 1 { throw ValidationError("Attach a text, or use --check, --dismiss, --skip or --unskip, one at a time.") }
            if let dismiss, dismiss < 1 {
                throw ValidationError("--dismiss \(dismiss) is not a paragraph: paragraphs are numbered from 1 (see \"narrate script\").")
            }
        }

        func run() async throws {
            // On a host of a reading service the article's chunks may be in the recordings store only.
            if check { try await CommandRunner.bringChunksHome(of: target.article) }
            try runHere()
        }

        func runHere() throws {
            if let file {
                try attach(file)
            } else if check {
                try checkTakes()
            } else if let skip {
                try changeSkips(skip.numbers, skipping: true)
            } else if let unskip {
                try changeSkips(unskip.numbers, skipping: false)
            } else if let dismiss {
                let (article, count) = try CommandRunner.withLibrary { library throws(NarrationError) in
                    let article = try library.article(target.article)
                    return (article, try library.dismissHints(ofParagraph: dismiss, in: article))
                }
                if output.json {
                    Console.printJSON(["dismissed": count])
                } else {
                    Console.print(count == 0 ? "Paragraph \(dismiss) of \"\(article.title)\" had no hints to dismiss." : "Dismissed the hints about paragraph \(dismiss) of \"\(article.title)\".")
                }
            } else {
                try list()
            }
        }

        private func changeSkips(_ numbers: [Int], skipping: Bool) throws {
            let (article, change, unread) = try CommandRunner.withLibrary { library throws(NarrationError) in
                let article = try library.article(target.article)
                let change = try library.skipParagraphs(numbers, skipping: skipping, of: article)
                return (article, change, try library.records(of: article).readingPlan().unread)
            }
            if output.json {
                Console.printJSON(SkipChangeJSON(change, unread: unread))
                return
            }
            let verb = skipping ? "skipped" : "unskipped"
            if !change.changed.isEmpty {
                Console.print("\(Self.paragraphs(change.changed)) of \"\(article.title)\" \(change.changed.count == 1 ? "is" : "are") \(verb) now.")
            }
            if !change.unchanged.isEmpty {
                Console.print("\(Self.paragraphs(change.unchanged)) \(change.unchanged.count == 1 ? "was" : "were") \(skipping ? "skipped" : "not skipped") already.")
            }
            Console.print(unread.map { "\($0.description) \($0.numbers.count == 1 ? "is" : "are") still to read." } ?? "Every paragraph is read or skipped.")
        }

        /// "Paragraph 3", "Paragraphs 2–4 and 7".
        static func paragraphs(_ numbers: [Int]) -> String {
            "Paragraph\(numbers.count == 1 ? "" : "s") \(UnreadParagraphs.spelled(UnreadParagraphs.ranges(of: numbers)))"
        }

        private func checkTakes() throws {
            if afterTake, let root = try? DataRoot.fromEnvironment(), !FileManager.default.fileExists(atPath: root.catalogURL.path) { return }
            let language = try CommandRunner.settings().language
            let (article, checks, numbers) = try CommandRunner.withLibrary { library throws(NarrationError) in
                let article = try library.article(target.article)
                // After a take, its measure first: quick, and every take needs one, text or not.
                if afterTake { try? library.measureChunks(of: article) }
                let checks = try library.checkTakes(of: article, language: language)
                let order = try library.records(of: article).order()
                return (article, checks, checks.map { order.index(of: $0.chunk)?.number ?? 0 })
            }
            if output.json {
                Console.printJSON(zip(checks, numbers).map { TakeCheckJSON($0, chunk: $1) })
                return
            }
            guard !checks.isEmpty else {
                Console.print("Every take of \"\(article.title)\" that reads a paragraph is checked already; \"narrate script\" shows what the checks found.")
                return
            }
            let flagged = checks.filter { !$0.report.hints.isEmpty }
            Console.print("Checked \(Self.count(checks.count, "take")) of \"\(article.title)\": \(flagged.isEmpty ? "no hints" : Self.count(flagged.count, "with hints", plural: "with hints")).")
            for (check, number) in zip(checks, numbers) where !check.report.hints.isEmpty {
                for hint in check.report.hints { Console.print("  chunk \(number): \(TerminalText.escaped(hint.description))") }
            }
        }

        private func attach(_ file: String) throws {
            let (article, change) = try CommandRunner.withLibrary { library throws(NarrationError) in
                let text = try ScriptReader.read(fileAt: file)
                let article = try library.article(target.article)
                return (article, try library.attachText(text, to: article, file: file))
            }
            if output.json {
                Console.printJSON(TextChangeJSON(change))
                return
            }
            Console.print("Attached the text of \"\(article.title)\" (\(article.id)): \(Self.count(change.paragraphs, "paragraph")).")
            if change.keptTakes > 0 {
                Console.print("\(Self.count(change.keptTakes, "chunk")) stay bound to \(Self.count(change.unchanged, "unchanged paragraph")).")
            }
            if !change.unboundChunks.isEmpty {
                let list = change.unboundChunks.map { String($0.number) }.joined(separator: ", ")
                Console.print("\(Self.count(change.unboundChunks.count, "chunk")) read no paragraph of this text (\(list)): they are kept; re-read their paragraphs with \"narrate record --paragraph N\", then delete them.")
            }
            if let withdrawn = change.withdrawn { Console.error(WithdrawnExport.sentence(withdrawn, title: article.title)) }
            Console.print("Run \"narrate script\" to see the paragraphs, \"narrate record\" to read the next one.")
        }

        private func list() throws {
            let (article, entries, next, checks, order) = try CommandRunner.withLibrary(readOnly: true) { library throws(NarrationError) in
                let article = try library.article(target.article)
                let records = library.records(of: article)
                return (article, try records.paragraphEntries(), try records.readingPlan().next, try records.takeChecks(), try records.order())
            }
            // The hints not dismissed of each paragraph's takes, with the chunk they are about.
            let hintsOf = { (entry: ParagraphEntry) -> [(chunk: Int, hint: TakeHint)] in
                entry.chunks.flatMap { index in
                    (try? order.id(at: index)).flatMap { checks[$0] }.map { $0.openHints.map { (index.number, $0) } } ?? []
                }
            }
            let hints = entries.map(hintsOf)
            if output.json {
                Console.printJSON(zip(entries, hints).map { ParagraphJSON($0, isNext: $0.paragraph.id == next?.id, hints: $1) })
                return
            }
            guard !entries.isEmpty else {
                Console.print("\"\(article.title)\" (\(article.id)) has no text. Attach one with: narrate script FILE")
                return
            }
            let read = entries.filter(\.isRead).count
            let skipped = entries.filter(\.paragraph.isSkipped).count
            let words = entries.reduce(0) { $0 + $1.paragraph.wordCount }
            Console.print("\"\(article.title)\" (\(article.id)): \(Self.count(entries.count, "paragraph")), \(read) read, \(skipped > 0 ? "\(skipped) skipped, " : "")\(Self.count(words, "word")).")
            Console.print("    #  kind       words  state                          text")
            for (entry, flags) in zip(entries, hints) {
                let paragraph = entry.paragraph
                let state = !flags.isEmpty
                    ? "FLAGGED: \(flags.count) hint\(flags.count == 1 ? "" : "s")"
                    : entry.paragraph.isSkipped
                    ? "skipped"
                    : entry.isRead
                    ? "read: \(Self.count(entry.chunks.count, "chunk")), \(Timecode.tenths(entry.duration))"
                    : paragraph.id == next?.id ? "not read (next)" : "not read"
                let kind = paragraph.kind == .heading ? "heading" : "paragraph"
                let line = "\(Console.rightAligned(paragraph.number, 5))  \(kind.padding(toLength: 9, withPad: " ", startingAt: 0))  \(Console.rightAligned(paragraph.wordCount, 5))  \(state.padding(toLength: 29, withPad: " ", startingAt: 0))  "
                Console.print(line + TerminalText.escaped(paragraph.text).clipped(to: max(20, 110 - line.count)))
                for flag in flags { Console.print("         chunk \(flag.chunk): \(TerminalText.escaped(flag.hint.description))") }
            }
            if hints.contains(where: { !$0.isEmpty }) {
                Console.print("Listen to a flagged take; re-read its paragraph with \"narrate record --paragraph N\", or dismiss its hints with \"narrate script --dismiss N\".")
            }
        }

        static func count(_ value: Int, _ noun: String, plural: String? = nil) -> String {
            "\(value) \(value == 1 ? noun : plural ?? noun + "s")"
        }

    }
}
