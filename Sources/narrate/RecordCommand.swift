import ArgumentParser
import Foundation
import Narration
import NarrationCore
import NarrationTerminal
import Synchronization

extension Narrate {
    /// `narrate record`: records one chunk from the microphone into the article.
    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record one chunk from the microphone and add it to the article.",
            discussion: """
                Stops on Enter or q (on a terminal), Ctrl-C, SIGTERM, after --duration, or when the \
                device fails or the disk fills; what was captured is always kept. While recording, \
                the level meter shows average and peak level (aim for peaks around -6 dBFS).

                  narrate record                    # append a chunk
                  narrate record --replace 3        # re-record chunk 3 (the old take goes to the trash)
                  narrate record --insert 3         # a new chunk before chunk 3
                  narrate record --start-after 3    # count in 3 seconds first

                In an article with a text (narrate script FILE), each take reads one paragraph: \
                record shows the paragraph to read and the first words of the next, binds the take \
                to it, and the next record moves on.

                  narrate record --paragraph 4      # read paragraph 4 again (old chunks: trash)
                  narrate record --continue         # one more chunk for the last paragraph
                  narrate record --paragraph 4 --continue   # another chunk for paragraph 4

                Slipped inside a chunk? Punch in: record plays the seconds before the slip, then \
                records from there on. The chunk keeps what came before, joined to the new take \
                with a 10 ms crossfade; what came after goes to the trash (narrate undo brings the \
                chunk back as it was).

                  narrate record --punch 3@12.5     # chunk 3 from 12.5 s on, after 3 s of it
                  narrate record --punch 3@0:12.5 --pre-roll 5 --output-device hw:1

                In a reading service, --as NAME records the take at the booth for that account, as \
                its page in the browser would: the account must be one that may record the article \
                (its own on the desk), the take counts for its hours, an Assigned article becomes \
                Recording, and an open pickup the take covers is done.

                  narrate record --article 7f3k2m9q --as ann.lee
                """)

        @OptionGroup var target: ArticleOption

        @Option(help: ArgumentHelp("The ALSA capture device (see \"narrate devices\"; default: device in config.toml, else \"default\").", valueName: "PCM"))
        var device: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("Stop after exactly this many seconds (rounded to the nearest frame).", valueName: "S"))
        var duration: Double?

        @Option(name: .customLong("start-after"), parsing: .unconditional, help: ArgumentHelp("Count in this many seconds before recording.", valueName: "S"))
        var startAfter: Double = 0

        @Option(parsing: .unconditional, help: ArgumentHelp("Re-record chunk N in place.", valueName: "N"))
        var replace: Int?

        @Option(parsing: .unconditional, help: ArgumentHelp("Record a new chunk before chunk N.", valueName: "N"))
        var insert: Int?

        @Option(parsing: .unconditional, help: ArgumentHelp("Read paragraph N of the article's text (again: its old chunks go to the trash).", valueName: "N"))
        var paragraph: Int?

        @Option(help: ArgumentHelp(
            "Punch-and-roll: play the seconds of chunk N before TIME, then record over it from TIME on (seconds or HH:MM:SS.mmm).",
            valueName: "N@TIME"))
        var punch: PunchPoint?

        @Option(name: .customLong("pre-roll"), parsing: .unconditional, help: ArgumentHelp("With --punch: how many seconds to play before TIME (default 3).", valueName: "S"))
        var preRoll: Double = PunchRequest.defaultPreRollSeconds

        @Option(name: .customLong("output-device"), help: ArgumentHelp("With --punch: the ALSA playback device for the pre-roll (default: device in config.toml, else \"default\").", valueName: "PCM"))
        var outputDevice: String?

        @Flag(name: .customLong("continue"), help: "Add another chunk to the paragraph read last (or to --paragraph N), keeping its chunks.")
        var continuing = false

        @Option(help: ArgumentHelp(
            "Live display on stderr: bar (meter line), json (one object per line, 20 per second), none, or auto (bar on a terminal, else none).",
            valueName: "MODE"))
        var progress: ProgressMode = .auto

        @Option(name: .customLong("as"), help: ArgumentHelp("In a reading service: the account whose take it is (see narrate accounts list).", valueName: "NAME"))
        var account: String?

        @OptionGroup var output: JSONOption

        func validate() throws {
            if let account {
                do { _ = try AccountName(account) } catch { throw ValidationError("--as \(error.message)") }
            }
            if replace != nil && insert != nil { throw ValidationError("Use --replace or --insert, not both.") }
            if (paragraph != nil || continuing) && (replace != nil || insert != nil) {
                throw ValidationError("--paragraph and --continue choose where the take goes by the text; use them without --replace or --insert.")
            }
            if let paragraph, paragraph < 1 {
                throw ValidationError("--paragraph \(paragraph) is not a paragraph: paragraphs are numbered from 1 (see \"narrate script\").")
            }
            _ = try punch?.checked()
            if punch != nil, replace != nil || insert != nil || paragraph != nil || continuing {
                throw ValidationError("--punch records over a chunk from a time on; use it without --replace, --insert, --paragraph or --continue.")
            }
            if !(preRoll >= 0 && preRoll <= 30) {
                throw ValidationError("--pre-roll \(Console.number(preRoll)) is not a pre-roll: give 0 to 30 seconds.")
            }
            if punch == nil, outputDevice != nil {
                throw ValidationError("--output-device plays the pre-roll of a punch; use it with --punch N@TIME.")
            }
            if let duration, !(duration > 0 && duration <= 86_400) {
                throw ValidationError("--duration \(Console.number(duration)) is not a length to record: give more than 0 and at most 86400 seconds.")
            }
            if !(startAfter >= 0 && startAfter <= 60) {
                throw ValidationError("--start-after \(Console.number(startAfter)) is not a count-in: give 0 to 60 seconds.")
            }
            for (name, value) in [("--replace", replace), ("--insert", insert)] {
                if let value, value < 1 { throw ValidationError("\(name) \(value) is not a chunk: chunks are numbered from 1 (see \"narrate chunks\").") }
            }
        }

        var placement: ChunkPlacement {
            if let replace { return .replace(ChunkIndex(replace)) }
            if let insert { return .insert(before: ChunkIndex(insert)) }
            return .append
        }

        /// The paragraph asked for, if any; nil lets the library choose (the next one not read).
        var reading: ReadingPlan.Choice? {
            if continuing { return .continuing(paragraph) }
            return paragraph.map { .reread($0) }
        }

        func run() throws {
            let settings = try CommandRunner.settings()
            let (outcome, article, accountLine) = try CommandRunner.withLibrary { library throws(NarrationError) in
                let article = try library.article(target.article)
                // A service account's take is checked before anything is captured: a refusal records nothing.
                let forAccount = try account.map { (name) throws(NarrationError) in
                    try RecordAsAccount(library: library, account: name, article: article, reviewIsOn: settings.serviceReview)
                }
                let recording = try library.prepareRecording(
                    into: article, placement: placement, reading: reading,
                    punch: try punch.map { point throws(NarrationError) in
                        let (chunk, time) = try point.checkedAsUsage()
                        return PunchRequest(index: ChunkIndex(chunk), seconds: time.seconds, preRollSeconds: preRoll)
                    },
                    device: device ?? settings.device, duration: duration)
                if !output.json, let paragraph = recording.paragraph {
                    showParagraph(paragraph, upNext: recording.upNext, of: try library.records(of: article).paragraphs().count)
                }
                let outcome = try capture(recording, playbackDevice: outputDevice ?? settings.device)
                return (outcome, article, forAccount?.kept(outcome))
            }
            // The take's measure (for mastering and check) and its check run after it, in a process of
            // its own: they never delay the stop or the next take.
            if outcome.chunk != nil {
                NarrationLibrary.startInBackground(["script", "--check", "--after-take", "--article", article.id.rawValue])
            }
            try report(outcome, article: article, accountLine: accountLine)
        }

        /// The paragraph to read, wrapped to 76 columns, and the first words of the next, on stderr.
        private func showParagraph(_ paragraph: Paragraph, upNext: Paragraph?, of count: Int) {
            let kind = paragraph.kind == .heading ? "heading" : "paragraph"
            Console.error("Read \(kind) \(paragraph.number) of \(count):")
            for line in TerminalText.escaped(paragraph.text).wrapped(to: 76) { Console.error("  " + line) }
            Console.error(upNext.map { "Next: \(TerminalText.escaped($0.content.firstWords(8)))" } ?? "This is the last paragraph.")
        }

        /// Runs the take: count-in, capture with a live display, stop on any stop signal.
        private func capture(_ recording: Recording, playbackDevice: String) throws(NarrationError) -> Recording.Outcome {
            let stopped = Atomic<Bool>(false)
            let keys = TerminalKeys.start { key in
                if [KeyPress.enter, .character("q"), .character("Q")].contains(key) {
                    stopped.store(true, ordering: .releasing)
                    recording.requestStop()
                }
            }
            let signals = SignalTrap { _ in
                stopped.store(true, ordering: .releasing)
                recording.requestStop()
            }
            defer {
                keys?.stop()
                withExtendedLifetime(signals) {}
            }
            let display = LiveDisplay(mode: progress, recording: recording)
            if startAfter > 0, !display.countIn(seconds: startAfter) {
                return recording.finish()
            }
            if let preRoll = recording.preRoll {
                let format = preRoll.format
                if !output.json {
                    Console.error("Listen: \(Timecode.precise(format.seconds(preRoll.frames.count))) of the chunk up to \(Timecode.precise(format.seconds(preRoll.frames.upperBound))) on \(playbackDevice); recording starts where it stops.")
                }
                do {
                    _ = try preRoll.play(device: playbackDevice) { stopped.load(ordering: .acquiring) }
                } catch {
                    _ = recording.finish()
                    throw error
                }
                if stopped.load(ordering: .acquiring) { return recording.finish() }
            }
            do {
                try recording.start()
            } catch {
                _ = recording.finish()
                throw error
            }
            // Redraw briskly until audio flows, so that "speak now" comes at once; then 20 times a second.
            while recording.status.stopReason == nil {
                DisplayRefresh.wait(recording.status.firstFrameTime == nil ? .brisk : .steady)
                display.refresh()
            }
            display.refresh()  // a take that ended before the first poll is still announced (and its "started" event sent)
            let outcome = recording.finish()
            display.finished()
            return outcome
        }

        private func report(_ outcome: Recording.Outcome, article: Article, accountLine: String?) throws {
            let report = TakeReport(outcome, detail: .full)
            if output.json {
                Console.printJSON(RecordJSON(outcome, article: article, paragraphNumber: outcome.paragraph?.number))
            } else if let saved = report.saved {
                Console.print(saved)
            }
            if let accountLine {
                if output.json { Console.error(accountLine) } else { Console.print(accountLine) }
            }
            if let withdrawn = outcome.withdrawn, !output.json {
                Console.error(WithdrawnExport.sentence(withdrawn, title: article.title))
            }
            if let stopped = report.stopped {
                Console.error(stopped)
            }
            if let deferred = outcome.deferredBecause {
                Console.error("\(deferred.sentence) The take is safe in \(outcome.chunk == nil ? "its partial file" : "the article") and will be added by the next narrate command.")
            }
            if let empty = report.empty {
                Console.error(empty)
            }
            if report.problem != nil || outcome.deferredBecause != nil { throw ExitCode.failure }
        }
    }
}

/// What `record --json` prints.
struct RecordJSON: Encodable {
    let chunk: ChunkJSON?
    let stopReason: String
    /// The first chunk the take replaced, if any.
    let replaced: String?
    /// Every chunk the take replaced: all of a paragraph's chunks when it was read again.
    let replacedChunks: [String]
    /// The paragraph of the article's text the take reads (numbered from 1), if it has a text.
    let paragraph: Int?
    let error: String?
    /// "queued" or "delivered": the article's export this chunk withdrew; nil if it had none.
    let withdrawnExport: String?

    init(_ outcome: Recording.Outcome, article: Article, paragraphNumber: Int?) {
        chunk = outcome.chunk.flatMap { chunk in
            outcome.index.map { ChunkJSON(chunk, index: $0, file: outcome.file, fileMissing: false) }
        }
        switch outcome.reason {
        case .durationReached: (stopReason, error) = ("duration", outcome.deferredBecause?.sentence)
        case .requested: (stopReason, error) = ("requested", outcome.deferredBecause?.sentence)
        case .deviceFailed(let failure): (stopReason, error) = ("deviceFailed", failure.sentence)
        case .diskFull(let failure): (stopReason, error) = ("diskFull", failure.sentence)
        }
        replaced = outcome.replaced.first?.rawValue
        replacedChunks = outcome.replaced.map(\.rawValue)
        paragraph = paragraphNumber
        withdrawnExport = outcome.withdrawn.map { "\($0)" }
    }
}
