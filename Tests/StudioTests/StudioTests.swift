import Foundation
@testable import Narration
import NarrationAudio
import NarrationCore
import NarrationTerminal
import NarrationTestSupport
import Studio
import Testing

/// The studio session driven by keys, as the screen would drive it, in process: the real
/// recorder, player, exporter and catalog, with an in-memory microphone the test speaks into and
/// in-memory speakers it reads back and paces (`MemoryDevices`). The devices themselves are
/// tested on their own (CaptureDeviceTests, QueuePlayerTests), and the studio on the emulated USB
/// devices end to end (StudioCommandTests, the browser tests).
@Suite("Studio session")
struct StudioTests {
    final class Session {
        let folder = TemporaryFolder("narrate-studio")
        let library: NarrationLibrary
        let devices: MemoryDevices
        let studio: Studio
        /// The session's options, for another studio on the same library.
        let options: Studio.Options
        /// The article opened with a text, if one was given.
        let article: Article?
        /// The studio's clock: each tick is 50 ms of it, as a screen's loop ticks 20 times a second.
        private let time = Clock()

        final class Clock {
            var now = 1_000.0
        }

        /// A studio on the new-article form, or, given `text`, on a new article with that text.
        /// Takes are checked only when `checksTakes`: the check's notice comes when it is done.
        /// With `recorded`, the article is made with takes of those lengths before the studio
        /// opens on it. With `pacedPlayback`, what is played is heard only as the test says.
        init(
            destination: Destination? = nil, text: [ScriptParagraph]? = nil, checksTakes: Bool = false, profile: DeliveryProfile = .archive,
            recorded: [Double] = [], publication: String = "Daily Post", narrator: String = "Ann Reader", pacedPlayback: Bool = false,
            checksAsJobs: Bool = false
        ) throws {
            library = try NarrationLibrary(root: DataRoot(url: folder.url.appendingPathComponent("home")))
            devices = MemoryDevices(pacedPlayback: pacedPlayback)
            var options = Studio.Options(
                captureDevice: "memory microphone", playbackDevice: "memory speaker", profile: profile, destination: destination,
                retry: RetrySchedule(attempts: 1, first: 0, limit: 0), publication: publication, narrator: narrator,
                format: .speech, checksTakes: checksTakes)
            // As in a reading service: the take checks as jobs of the catalog's queue.
            if checksAsJobs { options.checkQueue = TakeCheckWork(library: library, runner: try WorkRunner(library: library), language: "en") }
            var article: Article?
            if !recorded.isEmpty {
                let new = try library.newArticle(title: "Harbour news", publication: "Daily Post", narrator: "Ann Reader", format: .speech)
                // Speech, as a volunteer reads: each take is the start of it.
                let speech = try Signals.speech(.speech, seconds: (recorded.max() ?? 0) + 1)
                for seconds in recorded { try Self.record(new, Array(speech.prefix(Int(seconds * 44_100) * 2)), in: library) }
                article = new
            }
            if let text {
                let new = try library.newArticle(title: "Budget vote", publication: "Daily Post", narrator: "Ann Reader", format: .speech)
                _ = try library.attachText(text, to: new, file: "budget.md")
                article = new
            }
            self.article = article
            self.options = options
            studio = Self.studio(library: library, options: options, devices: devices, article: article, time: time)
        }

        /// Another studio on the same library and devices.
        func another(on article: Article?) -> Studio {
            Self.studio(library: library, options: options, devices: devices, article: article, time: time)
        }

        private static func studio(library: NarrationLibrary, options: Studio.Options, devices: MemoryDevices, article: Article?, time: Clock) -> Studio {
            Studio(
                library: library, options: options,
                devices: StudioDevices(capture: devices.capture, playback: { (format) throws(NarrationError) in try devices.playback(format) }),
                article: article, clock: { time.now })
        }

        deinit { devices.stopPacing() }  // a pre-roll or player still writing goes on to its end

        /// The emulated microphone's tone: a sine peaking at −12 dBFS, 16-bit mono at 44.1 kHz.
        static func tone(seconds: Double) -> [UInt8] { Signals.sine(frequency: 441, peakDBFS: -12, seconds: seconds) }

        /// Records one take of exactly `bytes` (16-bit little-endian mono) into `article`.
        static func record(_ article: Article, _ bytes: [UInt8], in library: NarrationLibrary) throws {
            let microphone = StreamedCapture(name: "memory microphone", format: article.format)
            let take = try library.prepareRecording(into: article, placement: .append, input: .streamed(microphone), duration: nil)
            try take.start()
            microphone.append(bytes)
            take.requestStop()  // the stream ends: what it holds is still written
            _ = take.finish()
        }

        var state: StudioState { studio.state }

        /// Ticks once, 50 ms later by the studio's clock.
        func tick() {
            time.now += 0.05
            studio.tick()
        }

        /// Presses keys as the screen would: each means what the state says it means.
        func press(_ keys: KeyPress...) {
            for key in keys {
                if let action = studio.state.action(for: key) { studio.perform(action) }
                tick()
            }
        }

        func type(_ text: String) {
            for character in text { press(.character(character)) }
        }

        /// Fills in the new-article form with `title` and the prefilled publication and narrator.
        func startArticle(_ title: String) {
            type(title)
            press(.enter, .enter, .enter)
        }

        /// Ticks until `done` holds what the studio's threads (player, export, upload, take check)
        /// did, for at most `limit` seconds of its own polls (one every 5 ms): a bound on a wait for
        /// an event, not a measure.
        /// Sleeps without holding a thread of the concurrency pool: the studio's background work
        /// (a pre-roll, what follows a take, submit's upload) starts from it. The bound counts
        /// polls, not the clock: in the whole suite on two cores a poll can wait minutes for a
        /// thread, and a bound by the clock ran out after a poll or two, before the player's
        /// thread had been seen to act.
        func run(_ limit: Double = 120, until done: (StudioState) -> Bool) async {
            for _ in 0..<Int(limit / 0.005) {
                tick()
                if done(studio.state) { return }
                try? await Task.sleep(for: .milliseconds(5))
            }
            tick()
        }

        /// Plays the open article from its start on the paced speaker, lets `frames` be heard,
        /// pauses, and returns the paused point in the chunk, in seconds.
        func playAndPause(after frames: Int) async throws -> Double {
            press(.character(" "))
            try #require(devices.speaker).hear(frames: frames)
            let seconds = Double(frames) / 44_100 - 0.1
            await run { if case .playing(_, _, _, _, _, let inChunk) = $0.activity { inChunk > seconds } else { false } }
            press(.character(" "))
            try #require(devices.speaker).hear(frames: 4_410)  // the player acts on the pause once its block is written
            await run { if case .playing(_, _, _, _, let paused, _) = $0.activity { paused } else { false } }
            guard case .playing(_, _, _, _, true, let point) = studio.state.activity else { throw PauseMissed(activity: "\(studio.state.activity)") }
            return point
        }

        struct PauseMissed: Error { let activity: String }

        /// Lets `seconds` pass by the studio's clock, ticking 20 times a second.
        func pass(_ seconds: Double) {
            for _ in 0..<Int((seconds / 0.05).rounded(.up)) { tick() }
        }

        /// Speaks `seconds` of the tone into the take under way.
        func speak(_ seconds: Double) {
            devices.speak(Self.tone(seconds: seconds))
        }

        /// Starts a take with `key`, speaks `seconds` of the tone, and stops it with r: the take
        /// holds exactly what was spoken.
        /// - Returns: the seconds spoken.
        @discardableResult
        func recordTake(_ key: KeyPress = .character("r"), seconds: Double) -> Double {
            press(key)
            speak(seconds)
            press(.character("r"))
            return seconds
        }
    }

    @Test("the form requires a publication and a narrator, naming what is missing, and offers the last article's when config.toml sets none")
    func formCredits() async throws {
        let session = try Session(publication: "", narrator: "")
        guard case .newArticle(let empty) = session.state.panel else { Issue.record("no form without an article"); return }
        #expect(empty.publication == "" && empty.narrator == "")
        session.startArticle("No credits")
        guard case .newArticle(let refused) = session.state.panel else { Issue.record("an article started without credits"); return }
        #expect(refused.problem == "Fill in the publication and your name as narrator: deliveries are filed under the publication, and the narrator is credited and counted in the volunteer hours.")
        #expect(refused.focus == .publication)
        #expect(try session.library.catalog.articles().isEmpty)
        session.type("Daily Post")
        session.press(.enter)
        session.press(.enter)
        guard case .newArticle(let half) = session.state.panel else { Issue.record("an article started without a narrator"); return }
        #expect(half.problem == "Fill in your name as narrator: it is credited in the recording and counted in the volunteer hours.")
        #expect(half.focus == .narrator)
        session.type("Ann Reader")
        session.press(.enter)
        #expect(session.state.header?.title == "No credits")

        // The next form (n from the article list a studio starts on) offers what the last article named.
        let next = session.another(on: nil)
        if let action = next.state.action(for: .character("n")) { next.perform(action) }
        guard case .newArticle(let offered) = next.state.panel else { Issue.record("no form without an article"); return }
        #expect(offered.publication == "Daily Post" && offered.narrator == "Ann Reader")
    }

    @Test("form, two takes, a delete that asks, a re-record, playback, then queue: the result names the file and its loudness")
    func wholeArticle() async throws {
        let session = try Session(pacedPlayback: true)
        guard case .newArticle(let form) = session.state.panel else { Issue.record("no form without an article"); return }
        #expect(form.publication == "Daily Post" && form.narrator == "Ann Reader")
        session.startArticle("Studio 港口")
        #expect(session.state.header?.title == "Studio 港口")
        #expect(session.state.notice?.text == "Started \"Studio 港口\". Press r to record the first chunk.")

        let firstTake = session.recordTake(seconds: 0.6)
        session.recordTake(seconds: 0.4)
        #expect(session.state.chunks.count == 2)
        #expect(session.state.selection == 1)
        let first = try #require(session.state.chunks.first)
        // The take holds every frame the microphone sent, and nothing else.
        #expect(abs(first.duration - firstTake) < 0.000_1, "\(first.duration) s in \(firstTake) s")
        #expect(abs(first.peak.value - -12) < 0.1, "the emulated microphone's sine peaks at -12 dBFS")
        #expect(first.levels.count == ChunkLevels.count)
        // The sparkline draws RMS levels: a sine's is 3 dB below its peak.
        #expect(first.levels.allSatisfy { abs($0.value - -15.05) < 0.2 }, "\(first.levels)")
        let second = session.state.chunks[1].duration
        #expect(session.state.notice?.text.hasPrefix("Chunk 2 recorded: \(Timecode.tenths(second)), peak -12.0 dBFS") == true, "\(String(describing: session.state.notice))")
        #expect(Timecode.tenths(second) == Timecode.tenths(0.4))

        session.press(.character("x"))
        #expect(session.state.panel == .confirmDelete(ChunkIndex(2)))
        session.press(.character("n"))
        #expect(session.state.chunks.count == 2)
        #expect(session.state.notice?.text == "Nothing was deleted.")
        session.press(.character("x"), .character("y"))
        #expect(session.state.chunks.count == 1)
        #expect(session.state.notice?.text.hasPrefix("Chunk 2 deleted (") == true)

        let article = try session.library.article(nil)
        let before = try session.library.chunkEntries(of: article)[0].chunk.id
        session.press(.up)
        session.recordTake(.character("e"), seconds: 0.3)
        let after = try session.library.chunkEntries(of: article)
        #expect(after.count == 1 && after[0].chunk.id != before)
        #expect(session.state.notice?.text.hasPrefix("Chunk 1 re-recorded: ") == true)
        #expect(FileManager.default.fileExists(atPath: session.library.root.trashedChunkURL(before, of: article.id).path))

        session.press(.character(" "))
        #expect(session.state.isPlaying)
        try #require(session.devices.speaker).stopPacing()  // heard to the end
        await session.run { !$0.isPlaying }
        #expect(session.state.notice?.text == "Played to the end.")
        // The speaker received the chunk's samples unchanged, each once.
        #expect(session.devices.speaker?.samples == (try SoundFileReader(path: after[0].file.path).readAll()))

        session.press(.character("q"))
        session.press(.character("y"))  // q and s ask first
        await session.run { if case .result = $0.panel { true } else { false } }
        guard case .result(let heading, let lines, let remedy) = session.state.panel else { Issue.record("no result: \(session.state)"); return }
        #expect(heading == "Queued \"Studio 港口\"" && remedy == .pushOutboxTo)
        let outboxLine = try #require(lines.first { $0.hasPrefix("In the outbox: ") })
        let file = URL(fileURLWithPath: String(outboxLine.dropFirst("In the outbox: ".count)))
        let exported = try SoundFileReader(path: file.path).readAll()
        #expect(exported == (try SoundFileReader(path: after[0].file.path).readAll()), "the export holds the re-recorded take, sample for sample")
        #expect(lines.contains { $0.hasPrefix("Loudness ") && $0.hasSuffix(": meets the archive profile.") })
        #expect(session.state.header == nil)

        session.press(.character("z"))
        guard case .newArticle = session.state.panel else { Issue.record("any key goes on to a new article"); return }
    }

    @Test("playing from chunk 2 shows the article's time: chunk 1's length plus the way into chunk 2, out of the whole article; paused, the meter falls")
    func playingShowsArticleTime() async throws {
        let session = try Session(pacedPlayback: true)
        session.startArticle("Times")
        session.recordTake(seconds: 0.5)
        session.recordTake(seconds: 0.5)
        let lengths = session.state.chunks.map(\.duration)
        #expect(lengths.count == 2 && session.state.selection == 1)

        session.press(.character(" "))
        let speaker = try #require(session.devices.speaker)
        speaker.hear(frames: 4_410)  // the selected chunk 2 plays: 0.1 s of it is heard
        await session.run { if case .playing(_, _, let position, _, _, _) = $0.activity { position > lengths[0] } else { false } }
        session.press(.character(" "))
        speaker.hear(frames: 4_410)  // the player acts on the pause once its block is written, as a device plays on
        await session.run { if case .playing(_, _, _, _, let paused, _) = $0.activity { paused } else { true } }
        guard case .playing(let chunk, let count, let position, let total, let paused, let inChunk) = session.state.activity else {
            Issue.record("not playing: \(session.state.activity)")
            return
        }
        #expect(chunk == ChunkIndex(2) && count == 2 && paused)
        #expect(position > lengths[0] && position <= lengths[0] + lengths[1], "\(position) s: chunk 2 starts at \(lengths[0]) s")
        // Pausing plays out what the speaker holds: the position is chunk 1 and every frame of chunk 2 it received.
        #expect(abs(position - (lengths[0] + Double(speaker.frames) / 44_100)) < 0.000_1, "\(position) s, \(speaker.frames) frames played")
        #expect(abs(inChunk - (position - lengths[0])) < 0.001, "\(inChunk) s into chunk 2")
        #expect(session.state.notice?.text == "Paused. ← → move 1 s, PgUp PgDn 5 s; c fixes a slip from there; space plays on.")
        #expect(abs(total - (lengths[0] + lengths[1])) < 0.001, "\(total) s of \(lengths) s")
        #expect(session.state.meter?.litSegments ?? 0 > 0 || session.state.meter?.heldSegment != nil, "the sine lit the meter")
        // Paused, nothing is heard: the meter falls, and the held peak drops once its hold is over.
        session.pass(MeterDisplay().holdSeconds + 0.3)
        #expect(session.state.meter?.litSegments == 0)
        #expect(session.state.meter?.heldSegment == nil)
        #expect(session.state.peak == .silence)
        session.press(.escape)
    }

    @Test("leaving while recording stops and keeps the take")
    func leaveWhileRecording() async throws {
        let session = try Session()
        session.startArticle("Leaving")
        session.press(.character("r"))
        session.speak(0.5)
        session.press(.interrupt)
        #expect(session.studio.isFinished)
        let entries = try session.library.chunkEntries(of: try session.library.article(nil))
        #expect(entries.count == 1)
        #expect(entries[0].chunk.frames == 22_050, "every frame the microphone sent")
    }

    @Test("a studio dropped while recording (its screen failed) stops and keeps the take itself")
    func droppedWhileRecording() async throws {
        var session: Session? = try Session()
        let library = try #require(session?.library)
        let folder = try #require(session?.folder)
        session?.startArticle("Dropped")
        session?.press(.character("r"))
        session?.speak(0.5)
        #expect(session?.state.isRecording == true)
        session = nil
        let entries = try library.chunkEntries(of: try library.article(nil))
        #expect(entries.count == 1)
        #expect(entries.first?.chunk.recovered == false, "committed by the studio, not adopted later by recovery")
        #expect(entries.first?.chunk.frames == 22_050)
        withExtendedLifetime(folder) {}
    }

    @Test("a microphone pulled mid-take: recording stops by itself, keeps what came before and says so")
    func unpluggedMicrophone() async throws {
        let session = try Session()
        session.startArticle("Unplugged")
        session.press(.character("r"))
        session.speak(0.6)
        session.devices.microphone?.fail(NarrationError(.deviceFailed, "The microphone was unplugged.", subject: .device("memory microphone")))
        await session.run { !$0.isRecording }
        #expect(!session.state.isRecording)
        let notice = try #require(session.state.notice)
        #expect(notice.isProblem)
        #expect(notice.text.hasPrefix("Recording stopped: "))
        #expect(notice.text.hasSuffix(" What was captured before is kept as chunk 1."))
        #expect(session.state.chunks.count == 1)
        #expect(session.state.chunks.first?.duration == 0.6, "what came before the failure, every frame")
    }

    @Test("an export that fails (a chunk file is gone) queues nothing, says why, and keeps the article open")
    func failedQueue() async throws {
        let session = try Session()
        session.startArticle("Broken")
        session.recordTake(seconds: 0.3)
        session.recordTake(seconds: 0.3)
        let article = try session.library.article(nil)
        let entries = try session.library.chunkEntries(of: article)
        try FileManager.default.removeItem(at: entries[1].file)
        session.press(.character("q"))
        session.press(.character("y"))  // q and s ask first
        await session.run { !$0.isWorking }
        let notice = try #require(session.state.notice)
        #expect(notice.isProblem)
        #expect(notice.text.hasSuffix(" Nothing was queued; the chunks are as they were."))
        #expect(notice.text.hasPrefix("Chunk 2's file "))
        #expect(session.state.panel == .chunks)
        #expect(session.state.header?.title == "Broken")
        #expect(try session.library.outboxJobs().isEmpty)
        #expect(FileManager.default.fileExists(atPath: entries[0].file.path))
    }

    @Test("submit: without a destination it says how to set one; with a folder it delivers and says where")
    func submit() async throws {
        let nowhere = try Session()
        nowhere.startArticle("Nowhere")
        nowhere.press(.character("s"))
        let empty = try nowhere.library.article(nil)
        #expect(nowhere.state.notice == .init(NarrationError.emptyArticle(empty, nothingTo: "submit")))
        nowhere.recordTake(seconds: 0.3)
        nowhere.press(.character("s"))
        #expect(nowhere.state.notice == .init(
            "No destination to submit to; press q to queue it and send it later.", isProblem: true, remedy: .setDestination))

        let share = TemporaryFolder("narrate-share")
        let session = try Session(destination: .folder(share.url.path))
        session.startArticle("Shared")
        session.recordTake(seconds: 0.3)
        session.press(.character("s"))
        session.press(.character("y"))  // q and s ask first
        await session.run { if case .result = $0.panel { true } else { false } }
        guard case .result(let heading, let lines, let remedy) = session.state.panel else { Issue.record("no result"); return }
        #expect(heading == "Submitted \"Shared\"" && remedy == nil)
        let sent = try #require(lines.first { $0.hasPrefix("Sent to ") })
        #expect(sent.contains("/Daily Post/") && sent.hasSuffix(".flac and checked."))
        let delivered = FileManager.default.enumerator(atPath: share.url.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".flac") }
        #expect(delivered?.count == 1)
    }

    @Test("with the podcast profile the export is made ready after each take: the header says so, and q then encodes no part again")
    func exportMadeReady() async throws {
        let session = try Session(profile: .podcast, recorded: [15, 15, 15])
        // Opened on an article with chunks, the studio makes its export ready at once.
        await session.run(120) { $0.header?.exportReady == true }
        #expect(session.state.header?.exportReady == true)
        let screen = StudioRenderer.render(session.state, width: 100, height: 30).lines.map { $0.map(\.text).joined() }
        #expect(screen.contains { $0.contains("· 3 chunks · ready to queue") }, "\(screen)")

        session.press(.character("r"))
        #expect(session.state.header?.exportReady == false, "a take is under way")
        session.speak(1)
        session.press(.character("r"))
        #expect(session.state.header?.exportReady == false, "not ready for the new take yet")
        await session.run(120) { $0.header?.exportReady == true }
        #expect(session.state.header?.exportReady == true)

        session.press(.character("q"))
        session.press(.character("y"))  // q and s ask first
        await session.run { if case .result = $0.panel { true } else { false } }
        guard case .result(let heading, let lines, _) = session.state.panel else { Issue.record("no result: \(session.state)"); return }
        #expect(heading == "Queued \"Harbour news\"")
        // Three segments: from 0, 15 and 30 s (the 1 s take joins the last); all were ready.
        #expect(lines.contains("Made ready between takes: 0 of its 3 parts were encoded after the last change."), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Loudness ") && $0.hasSuffix(": meets the podcast profile.") }, "\(lines)")
        let outboxLine = try #require(lines.first { $0.hasPrefix("In the outbox: ") })
        let file = URL(fileURLWithPath: String(outboxLine.dropFirst("In the outbox: ".count)))
        // The check the summary quotes is the file's own, measured in one pass again here.
        let measured = try Analyzer.measure(file: file)
        let loudness = try #require(measured.integratedLoudness)
        #expect(lines.contains { $0.contains(String(format: "%.1f LUFS", loudness)) }, "\(lines) against \(loudness)")
    }

    @Test("after a take the chunk is measured on a thread of its own and its measure kept, as record's after-take process does")
    func measuredAfterTheTake() async throws {
        let session = try Session()
        session.startArticle("Measured")
        session.recordTake(seconds: 0.5)
        let article = try session.library.article(nil)
        let chunks = try session.library.catalog.chunks(of: article)
        #expect(chunks.count == 1)
        var measures: [ChunkID: ChunkMeasure] = [:]
        await session.run(30) { _ in
            measures = (try? session.library.catalog.measures(of: chunks)) ?? [:]
            return !measures.isEmpty
        }
        let measure = try #require(measures[chunks[0].id])
        // The emulated microphone's tone peaks at −12 dBFS: every whole 100 ms window holds it.
        #expect(measure.windowFrames == 4_410 && measure.samplePeaks.count == (chunks[0].frames + 4_409) / 4_410)
        #expect(measure.samplePeaks.dropLast().allSatisfy { abs(20 * log10(Double($0)) + 12) < 0.1 })
    }

    @Test("after a take the check runs on a thread of its own; its hint about the take (a tone, no words) comes as a notice")
    func takeCheckNotice() async throws {
        let session = try Session(text: Self.text, checksTakes: true)
        let article = try #require(session.article)
        session.recordTake(seconds: 0.5)
        #expect(session.state.notice?.text.hasPrefix("Chunk 1 recorded (paragraph 1): ") == true)
        await session.run(30) { $0.notice?.text.contains("may need a listen") == true }
        #expect(session.state.notice?.text.hasPrefix("Chunk 1, paragraph 1 may need a listen: ") == true, "\(String(describing: session.state.notice))")
        #expect(session.state.notice?.text.hasSuffix(". It stays marked ⚑ until you dismiss it (d); to read it again, move to it with p or n and press a.") == true)
        let chunk = try #require(try session.library.catalog.chunks(of: article).first)
        let check = try #require(try session.library.catalog.takeChecks(of: article.id)[chunk.id])
        #expect(!check.report.hints.isEmpty && check.report.recognised)
        #expect(session.state.notice?.text.contains(check.report.hints[0].description) == true)
    }


    @Test("in a reading service the check is a job of the catalog's queue, one per take: the same notice, and each job done on its first try")
    func takeCheckAsJob() async throws {
        let session = try Session(text: Self.text, checksTakes: true, checksAsJobs: true)
        let article = try #require(session.article)
        session.recordTake(seconds: 0.5)
        await session.run(30) { $0.notice?.text.contains("may need a listen") == true }
        #expect(session.state.notice?.text.hasPrefix("Chunk 1, paragraph 1 may need a listen: ") == true, "\(String(describing: session.state.notice))")
        let chunk = try #require(try session.library.catalog.chunks(of: article).first)
        #expect(try session.library.catalog.takeChecks(of: article.id)[chunk.id] != nil)
        let jobs = try session.library.catalog.reading { sql in
            try sql.rows("SELECT kind, subject, state, attempts FROM work_job").map {
                [try $0.text("kind"), try $0.text("subject"), try $0.text("state"), "\(try $0.int("attempts"))"]
            }
        }
        #expect(jobs == [[TakeCheckWork.kind, TakeCheckWork.subject(chunk.id, of: article.id), "done", "1"]])
    }

    @Test("a flagged take stays marked in its row and under its paragraph after moving away and back, until d dismisses it for good")
    func flaggedTakeStaysMarked() async throws {
        let session = try Session(text: Self.text, checksTakes: true)
        let library = session.library
        let article = try #require(session.article)
        session.recordTake(seconds: 0.5)
        await session.run(30) { !($0.chunks.first?.hints.isEmpty ?? true) }
        let chunk = try #require(try library.catalog.chunks(of: article).first)
        let check = try #require(try library.catalog.takeChecks(of: article.id)[chunk.id])
        let hints = check.report.hints.map(\.description)
        #expect(!hints.isEmpty && session.state.chunks[0].hints == hints)
        // The pane went on to paragraph 2; back on paragraph 1 the flag shows, not only "read already".
        #expect(session.state.reading?.number == 2 && session.state.reading?.flags == [])
        session.press(.character("p"))
        #expect(session.state.reading?.number == 1)
        #expect(session.state.reading?.flags == hints.map { StudioState.Flag(chunk: ChunkIndex(1), hint: $0) })
        session.press(.character("n"), .character("p"))
        #expect(session.state.reading?.flags.count == hints.count && session.state.chunks[0].hints == hints)
        session.press(.character("d"))
        #expect(session.state.notice?.text == "Chunk 1's hint is dismissed: it is no longer marked.")
        #expect(session.state.chunks[0].hints.isEmpty && session.state.reading?.flags == [])
        #expect(try library.catalog.takeChecks(of: article.id)[chunk.id]?.dismissed == true)
        // Kept in the catalog: a new session shows the take unflagged.
        let again = session.another(on: article)
        #expect(again.state.chunks[0].hints.isEmpty)
    }

    @Test("c while paused plays the pre-roll and says so (not REC); r cannot start a take then; Esc cancels the fix and the chunk stays byte for byte")
    func preRollInTheTerminal() async throws {
        let session = try Session(recorded: [2.5], pacedPlayback: true)
        let article = try #require(session.article)
        let file = session.library.root.chunkURL(try session.library.catalog.chunks(of: article)[0].id, of: article.id)
        let before = try Data(contentsOf: file)
        let samples = try SoundFileReader(path: file.path).readAll()
        let point = try await session.playAndPause(after: 57_330)  // 1.3 s
        session.press(.character("c"))
        guard case .preRoll(let preRoll) = session.state.activity else { Issue.record("no pre-roll: \(session.state.activity)"); return }
        #expect(preRoll.chunk == ChunkIndex(1) && abs(preRoll.at - point) < 0.2 && preRoll.lead > 0.9)
        #expect(session.state.notice?.text.hasPrefix("Playing the ") == true && session.state.notice?.text.hasSuffix(" Esc cancels the fix.") == true)
        #expect(!session.state.isRecording)
        // The pre-roll plays the chunk's own samples, from `lead` seconds before the point.
        let started = Date()
        await session.run { _ in session.devices.speakers.count == 2 && session.devices.speakers[1].frames > 0 }
        try #require(session.devices.speakers.count == 2, "\(session.devices.speakers.count) speakers after \(Date().timeIntervalSince(started)) s: \(session.state.activity), \(String(describing: session.state.notice))")
        let preRollSpeaker = session.devices.speakers[1]
        let start = Int(((preRoll.at - preRoll.lead) * 44_100).rounded())
        let heard = preRollSpeaker.samples
        try #require(start >= 0 && start + heard.count <= samples.count, "pre-roll from frame \(start), \(heard.count) frames, of \(samples.count)")
        #expect(heard == Array(samples[start..<(start + heard.count)]))
        session.press(.character("r"))
        #expect(session.state.isPreRolling, "r does not stop, start or record during the pre-roll")
        #expect(session.state.notice?.text == "Listen: the take starts by itself after the seconds before the slip. Esc cancels the fix.")
        session.press(.escape)
        #expect(session.state.activity == .ready)
        #expect(session.state.notice?.text == "The fix is cancelled: chunk 1 is as it was.")
        #expect(session.state.chunks.count == 1)
        #expect(try Data(contentsOf: file) == before)
        #expect(!session.studio.isFinished, "Esc cancelled the fix; it did not leave")
        // The pre-roll stops at the next block, short of its lead, and closes its speaker.
        preRollSpeaker.stopPacing()
        await session.run { _ in preRollSpeaker.isClosed }
        #expect(preRollSpeaker.isClosed && preRollSpeaker.frames < Int(preRoll.lead * 44_100))
    }

    @Test("c while paused: once the pre-roll has played the take starts by itself and says so; r joins it at the paused position")
    func punchAfterPreRoll() async throws {
        let session = try Session(recorded: [2.5], pacedPlayback: true)
        let article = try #require(session.article)
        let original = try SoundFileReader(path: session.library.chunkEntries(of: article)[0].file.path).readAll()
        let point = try await session.playAndPause(after: 57_330)  // 1.3 s
        session.press(.character("c"))
        #expect(session.state.isPreRolling)
        await session.run { _ in session.devices.speakers.count == 2 }
        try #require(session.devices.speakers.count == 2, "\(session.devices.speakers.count) speakers: \(session.state.activity), \(String(describing: session.state.notice))")
        session.devices.speakers[1].stopPacing()  // the pre-roll is heard to its end
        await session.run { $0.notice?.text == "Recording from there. Press r to stop; the take is kept whatever happens." }
        #expect(session.state.isRecording && !session.state.isPreRolling)
        #expect(session.devices.speakers[1].frames == Int((point * 44_100).rounded()), "the whole pre-roll, up to the point")
        session.speak(0.5)
        session.press(.character("r"))
        let entries = try session.library.chunkEntries(of: article)
        #expect(entries.count == 1)
        let joined = try SoundFileReader(path: entries[0].file.path).readAll()
        let take = Signals.samples(Session.tone(seconds: 0.5), bitsPerSample: 16)
        let punchFrame = joined.count - take.count
        #expect(abs(punchFrame - Int((point * 44_100).rounded())) <= 1, "punched at frame \(punchFrame), paused at \(point) s")
        #expect(Array(joined[0..<punchFrame]) == Array(original[0..<punchFrame]))
        #expect(Array(joined[(punchFrame + 441)...]) == Array(take[441...]), "after the crossfade, the take as spoken")
    }

    @Test("a front end's pre-roll (the web page plays it): the state shows it, r and every other take are refused, the punch that follows records")
    func frontEndPreRoll() async throws {
        let session = try Session(recorded: [1.5, 1.0])
        let library = session.library
        let article = try #require(session.article)
        let ids = try library.catalog.chunks(of: article).map(\.id)
        session.studio.beginPreRoll(ChunkIndex(1), at: 0.8, lead: 0.8)
        #expect(session.state.activity == .preRoll(.init(chunk: ChunkIndex(1), at: 0.8, lead: 0.8)))
        #expect(session.state.notice?.text == "Playing the 0.8 s before the slip in chunk 1, then read on from 00:00:00.8 into chunk 1.")
        #expect(session.state.selection == 0)
        for key in [KeyPress.character("r"), .character("e"), .character("i")] { session.press(key) }
        session.studio.perform(.toggleRecording)  // even an action that skips the key rules starts nothing
        #expect(session.state.isPreRolling && !session.state.isRecording)
        #expect(try library.catalog.chunks(of: article).map(\.id) == ids, "no chunk was added")
        session.studio.punch(ChunkIndex(1), at: 0.8)
        #expect(session.state.isRecording && !session.state.isPreRolling)
        session.speak(0.6)
        session.press(.character("r"))
        let after = try library.catalog.chunks(of: article)
        #expect(after.count == 2 && after[1].id == ids[1] && after[0].id != ids[0], "chunk 1 was punched, chunk 2 kept")
    }

    @Test("o lists the articles with paragraphs read and length; Enter opens another, o and Esc go back; with none open the studio starts on the list")
    func articleList() async throws {
        let session = try Session(recorded: [0.5])
        let library = session.library
        let other = try library.newArticle(title: "Budget vote", publication: "Weekly", narrator: "Ann Reader", format: .speech)
        _ = try library.attachText(Self.text, to: other, file: "budget.md")
        session.press(.character("o"))
        guard case .articles(let list) = session.state.panel else { Issue.record("no list: \(session.state.panel)"); return }
        #expect(list.rows.map(\.title) == ["Budget vote", "Harbour news"])
        #expect(list.rows[0].progress == "0 of 4 paragraphs read" && list.rows[0].publication == "Weekly" && list.rows[0].state == .open)
        #expect(list.rows[1].progress == "no text" && list.rows[1].chunkCount == 1 && list.rows[1].seconds > 0.4)
        #expect(list.selected?.title == "Harbour news", "the open article is selected")
        session.press(.escape)
        #expect(session.state.panel == .chunks && session.state.header?.title == "Harbour news")
        session.press(.character("o"), .up, .enter)
        #expect(session.state.header?.title == "Budget vote" && session.state.reading?.number == 1)
        #expect(session.state.notice?.text == "Opened “Budget vote”.")
        #expect(try library.catalog.currentArticle()?.id == other.id)
        // A studio started with no article to open starts on the list; n goes to the form, Esc back to the list.
        let fresh = session.another(on: nil)
        guard case .articles(let start) = fresh.state.panel else { Issue.record("not on the list: \(fresh.state.panel)"); return }
        #expect(start.rows.count == 2 && start.openArticle == nil)
        fresh.perform(.showNewArticleForm)
        guard case .newArticle = fresh.state.panel else { Issue.record("no form"); return }
        #expect(fresh.state.action(for: .escape) == .showArticles)
    }

    static let text = [
        ScriptParagraph(kind: .heading, text: "Budget vote"),
        ScriptParagraph(kind: .paragraph, text: "The council adopted the budget on Tuesday."),
        ScriptParagraph(kind: .paragraph, text: "The mayor said the schools would get new roofs."),
        ScriptParagraph(kind: .paragraph, text: "The budget comes into force in January."),
    ]

    @Test("k skips the paragraph shown and the pane goes on; m puts a take on the paragraph its check heard; u takes each back")
    func skipAndMoveTake() async throws {
        let session = try Session(text: Self.text)
        let library = session.library
        let article = try #require(session.article)
        session.recordTake(seconds: 0.3)
        #expect(session.state.reading?.number == 2)
        session.press(.character("k"))
        #expect(session.state.notice?.text.hasPrefix("Paragraph 2 is skipped: it is not read") == true, "\(String(describing: session.state.notice))")
        #expect(session.state.reading?.number == 3 && session.state.reading?.isSkipped == false)
        #expect(session.state.unread == UnreadParagraphs(numbers: [3, 4], total: 4))
        session.press(.character("p"))
        #expect(session.state.reading?.number == 2 && session.state.reading?.isSkipped == true)
        session.press(.character("k"))
        #expect(session.state.notice?.text == "Paragraph 2 is to be read again.")
        #expect(session.state.unread == UnreadParagraphs(numbers: [2, 3, 4], total: 4))

        // The check heard paragraph 4 in the take of paragraph 1: m puts it there, u puts it back.
        let chunk = try library.catalog.chunks(of: article)[0].id
        let heard = TakeCheckReport(
            hints: [TakeHint(.wrongParagraph, words: "The budget comes into force", seconds: 0, paragraph: 3)],
            sentenceCues: [], rate: SpeakingRate(words: 5, speechSeconds: 2), recognised: true)
        #expect(try library.catalog.storeTakeCheck(heard, for: chunk))
        session.studio.openArticle(article)
        #expect(session.state.chunks.map(\.suggestedParagraph) == [4])
        session.press(.character("m"))
        #expect(session.state.notice?.text == "Chunk 1 now reads paragraph 4. Press u to undo.")
        #expect(try library.catalog.chunks(of: article).map(\.paragraphID) == [try library.catalog.paragraphs(of: article.id)[3].id])
        #expect(session.state.chunks.map(\.suggestedParagraph) == [nil])
        session.press(.character("u"))
        #expect(session.state.notice?.text.hasPrefix("Undone: Put chunk 1 on paragraph 4.") == true, "\(String(describing: session.state.notice))")
        #expect(session.state.chunks.map(\.paragraph) == [1])
    }

    @Test("the reading pane follows the text take by take; p goes back to paragraph 1 and a reads it again in place of its take")
    func readingPane() async throws {
        let session = try Session(text: Self.text)
        let library = session.library
        let article = try #require(session.article)
        let paragraphs = try library.catalog.paragraphs(of: article.id)
        #expect(paragraphs.map(\.text) == Self.text.map(\.text))
        #expect(session.state.reading == .init(
            number: 1, count: 4, kind: .heading, text: "Budget vote", isRead: false, standing: .next, next: Self.text[1].text))

        // r reads the paragraph shown; while recording the pane shows it being read.
        session.press(.character("r"))
        #expect(session.state.reading?.standing == .reading && session.state.reading?.number == 1)
        session.speak(0.4)
        session.press(.character("r"))
        #expect(session.state.reading?.number == 2 && session.state.reading?.standing == .next)
        #expect(session.state.notice?.text.hasPrefix("Chunk 1 recorded (paragraph 1): ") == true, "\(String(describing: session.state.notice))")
        session.recordTake(seconds: 0.4)
        #expect(session.state.reading?.number == 3 && session.state.reading?.isRead == false)
        var chunks = try library.catalog.chunks(of: article)
        #expect(chunks.map(\.paragraphID) == [paragraphs[0].id, paragraphs[1].id])

        // p p: back to paragraph 1, which is read; at the first, p says so.
        session.press(.character("p"), .character("p"))
        #expect(session.state.reading == .init(
            number: 1, count: 4, kind: .heading, text: "Budget vote", isRead: true, standing: .chosen, next: Self.text[1].text))
        session.press(.character("p"))
        #expect(session.state.notice?.text == "This is the first paragraph of the text.")
        #expect(session.state.reading?.number == 1)

        // a reads it again: the new take replaces chunk 1, whose file goes to the trash.
        let old = chunks[0].id
        session.press(.character("a"))
        guard case .recording(_, let placement) = session.state.activity else { Issue.record("a did not record: \(session.state)"); return }
        #expect(placement == .replace(ChunkIndex(1)), "the status line says the take replaces chunk 1")
        #expect(session.state.reading?.standing == .reading && session.state.reading?.isRead == true)
        session.speak(0.4)
        session.press(.character("r"))
        chunks = try library.catalog.chunks(of: article)
        #expect(chunks.count == 2)
        #expect(chunks[0].id != old && chunks[0].paragraphID == paragraphs[0].id)
        #expect(chunks[1].paragraphID == paragraphs[1].id)
        #expect(FileManager.default.fileExists(atPath: library.root.trashedChunkURL(old, of: article.id).path))
        #expect(!FileManager.default.fileExists(atPath: library.root.chunkURL(old, of: article.id).path))
        #expect(session.state.notice?.text.hasPrefix("Chunk 1 re-recorded (paragraph 1): ") == true, "\(String(describing: session.state.notice))")
        #expect(session.state.chunks.count == 2 && session.state.selection == 0)
        // Then on to the first paragraph not read after it.
        #expect(session.state.reading?.number == 3 && session.state.reading?.standing == .next)

        // n n: the last paragraph, not read yet; r reads it, and with every paragraph read r explains.
        session.press(.character("n"))
        #expect(session.state.reading?.number == 4 && session.state.reading?.standing == .chosen && session.state.reading?.next == nil)
        session.recordTake(seconds: 0.3)
        chunks = try library.catalog.chunks(of: article)
        #expect(chunks.map(\.paragraphID) == [paragraphs[0].id, paragraphs[1].id, paragraphs[3].id])
        #expect(session.state.reading?.number == 3 && session.state.reading?.standing == .next, "paragraph 3 is still to read")
        session.recordTake(seconds: 0.3)
        chunks = try library.catalog.chunks(of: article)
        #expect(chunks.map(\.paragraphID) == paragraphs.map(\.id), "paragraph 3's take goes before paragraph 4's")
        #expect(session.state.reading?.standing == .allRead && session.state.reading?.number == 3)
        session.press(.character("r"))
        #expect(!session.state.isRecording)
        #expect(session.state.notice?.text == "Every paragraph is read. Press p or n to move to one, then a to read it again.")
    }

    @Test("a chunk's level profile is the RMS level of each stretch: a loud sentence, a soft one and a pause differ")
    func levelProfile() async throws {
        let folder = TemporaryFolder()
        // 1 s at -6 dBFS peak, 1 s at -30 dBFS peak, 1 s of digital silence: 48 stretches of 16 each.
        var samples = Signals.samples(Signals.sine(frequency: 441, peakDBFS: -6, seconds: 1), bitsPerSample: 16)
        samples += Signals.samples(Signals.sine(frequency: 441, peakDBFS: -30, seconds: 1), bitsPerSample: 16)
        samples += [Int32](repeating: 0, count: 44_100)
        let file = folder.file("chunk.wav")
        let writer = try SoundFileWriter(creating: file.path, format: .speech)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.close()

        let levels = try #require(ChunkLevels.profile(of: file))
        #expect(levels.count == ChunkLevels.count)
        #expect(levels[0..<16].allSatisfy { abs($0.value - -9.03) < 0.05 }, "\(levels[0..<16])")
        #expect(levels[16..<32].allSatisfy { abs($0.value - -33.03) < 0.05 }, "\(levels[16..<32])")
        #expect(levels[32..<48].allSatisfy { $0 == .silence })
        #expect(Sparkline.render(levels, width: 12) == "▇▇▇▇▄▄▄▄▁▁▁▁")
        #expect(ChunkLevels.profile(of: folder.file("missing.wav")) == nil)
    }
}
