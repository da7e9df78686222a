import ArgumentParser
import Foundation
import Narration
import NarrationCore

extension Narrate {
    /// `narrate play`: plays chunks of the article as one gapless stream.
    struct Play: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play the article's chunks in order, gaplessly, from any chunk.",
            discussion: """
                Keys while playing: Space pause/resume, ← → seek 5 s, n / p next and previous \
                chunk, a chunk number then Enter go to that chunk (a number no longer one starts \
                with goes at once, and so does a number left alone for 2 s; Esc cancels it), \
                + / - volume in 3 dB steps down to -30 dB (never above the recording's own \
                level, so nothing clips), [ / ] speed 0.5 to 2 in steps of 0.25 (pitch kept), \
                q stop. Without a terminal it plays to the end.

                  narrate play --from 5          # hear the last chunks before going on
                  narrate play --speed 1.5       # review the whole article faster, same pitch
                """)

        @OptionGroup var target: ArticleOption

        @Option(parsing: .unconditional, help: ArgumentHelp("The first chunk to play (default 1).", valueName: "N"))
        var from: Int?

        @Option(parsing: .unconditional, help: ArgumentHelp("The last chunk to play (default the last one).", valueName: "N"))
        var to: Int?

        @Option(help: ArgumentHelp("The ALSA playback device (see \"narrate devices\"; default: device in config.toml, else \"default\").", valueName: "PCM"))
        var device: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("Playback speed, 0.5 to 2.0; the pitch stays the same.", valueName: "X"))
        var speed = 1.0

        @Option(parsing: .unconditional, help: ArgumentHelp("Volume, 0 to 1.", valueName: "V"))
        var volume = 1.0

        @Flag(name: .customLong("skip-missing"), help: "Play around chunks whose file is missing or damaged.")
        var skipMissing = false

        @Option(help: ArgumentHelp(
            "Live display on stderr: bar, json (one object per line, 20 per second), none, or auto (bar on a terminal).",
            valueName: "MODE"))
        var progress: ProgressMode = .auto

        @OptionGroup var output: JSONOption

        func validate() throws {
            guard (0.5...2).contains(speed) else { throw ValidationError("--speed \(Console.number(speed)) is out of range: give 0.5 to 2.0.") }
            guard (0...1).contains(volume) else { throw ValidationError("--volume \(Console.number(volume)) is out of range: give 0 to 1.") }
            for (name, value) in [("--from", from), ("--to", to)] {
                if let value, value < 1 { throw ValidationError("\(name) \(value) is not a chunk: chunks are numbered from 1 (see \"narrate chunks\").") }
            }
        }

        func run() async throws {
            // On a host of a reading service the article's chunks may be in the recordings store only.
            try await CommandRunner.bringChunksHome(of: target.article)
            try runHere()
        }

        func runHere() throws {
            if let from, let to, from > to {
                Console.error("--from \(from) comes after --to \(to); give the first chunk first.")
                throw ExitCode(NarrationError.usage("").exitStatus)
            }
            let device = try self.device ?? CommandRunner.settings().device
            let (article, plan, player) = try CommandRunner.withLibrary(readOnly: true) {
                (library) throws(NarrationError) -> (Article, NarrationLibrary.PlaybackPlan, QueuePlayer) in
                let article = try library.article(target.article)
                let plan = try library.playbackPlan(
                    of: article, from: from.map { ChunkIndex($0) }, to: to.map { ChunkIndex($0) }, skipMissing: skipMissing)
                let player = try library.preparePlayback(of: article, plan: plan, device: device, speed: speed, volume: volume)
                return (article, plan, player)
            }
            for (index, reason) in plan.skipped {
                Console.error("Skipping chunk \(index): \(reason.sentence)")
            }
            let final = play(player, article: article, chunkCount: plan.articleChunkCount)
            report(final, article: article, plan: plan)
            if case .failed = final.state { throw ExitCode.failure }
        }

        private func play(_ player: QueuePlayer, article: Article, chunkCount: Int) -> QueuePlayer.Status {
            let controls = SharedControls(PlaybackControls(chunks: player.items.map(\.index), volume: volume, speed: speed))
            let keys = TerminalKeys.start { key in
                if let command = controls.handle(key, at: MonotonicClock.now()) { Self.perform(command, on: player) }
            }
            let signals = SignalTrap { _ in player.stop() }
            defer {
                keys?.stop()
                withExtendedLifetime(signals) {}
            }
            let display = PlaybackDisplay(mode: progress, player: player, chunkCount: chunkCount)
            if keys != nil { display.showLegend() }
            player.play()
            while !player.status.state.isOver {
                DisplayRefresh.wait()
                if let command = controls.tick(at: MonotonicClock.now()) { Self.perform(command, on: player) }
                display.refresh(controls: keys == nil ? nil : controls.snapshot)
            }
            let final = player.wait()
            display.finished()
            return final
        }

        private static func perform(_ command: PlaybackCommand, on player: QueuePlayer) {
            switch command {
            case .togglePause: player.togglePause()
            case .seek(let seconds): player.seek(by: seconds)
            case .next: player.next()
            case .previous: player.previous()
            case .jump(let chunk): player.jump(to: chunk)
            case .setVolume(let linear): player.setVolume(linear)
            case .setSpeed(let speed): player.setSpeed(speed)
            case .stop: player.stop()
            }
        }

        private func report(_ status: QueuePlayer.Status, article: Article, plan: NarrationLibrary.PlaybackPlan) {
            let format = article.format
            let range = plan.items.count == 1 ? "chunk \(plan.items[0].index)" : "chunks \(plan.items.first!.index)–\(plan.items.last!.index)"
            if output.json {
                Console.printJSON(PlayJSON(status, format: format))
            } else {
                switch status.state {
                case .finished:
                    Console.print("Played \(range) of \"\(article.title)\" (\(Timecode.precise(format.seconds(status.total)))), \(underrunText(status.underruns)).")
                case .stopped, .playing, .paused:
                    Console.print("Stopped at chunk \(status.chunk), \(Timecode.precise(format.seconds(status.position))) of \(Timecode.precise(format.seconds(status.total))), \(underrunText(status.underruns)).")
                case .failed:
                    break
                }
            }
            if case .failed(let error) = status.state {
                Console.error("\(error.sentence) Playback stopped at chunk \(status.chunk), \(Timecode.precise(format.seconds(status.position))).")
            }
        }

        private func underrunText(_ count: Int) -> String {
            count == 0 ? "no underruns" : "\(count) underrun\(count == 1 ? "" : "s") (short gaps)"
        }
    }
}

/// What `play --json` prints.
struct PlayJSON: Encodable {
    let state: String
    let chunk: Int
    let position: Double
    let total: Double
    let underruns: Int
    let error: String?

    init(_ status: QueuePlayer.Status, format: AudioFormat) {
        switch status.state {
        case .playing: (state, error) = ("playing", nil)
        case .paused: (state, error) = ("paused", nil)
        case .finished: (state, error) = ("finished", nil)
        case .stopped: (state, error) = ("stopped", nil)
        case .failed(let failure): (state, error) = ("failed", failure.sentence)
        }
        chunk = status.chunk.number
        position = format.seconds(status.position)
        total = format.seconds(status.total)
        underruns = status.underruns
    }
}

/// The playback keys' state, shared by the key reader and the display loop.
final class SharedControls: @unchecked Sendable {
    private let lock = NSLock()
    private var controls: PlaybackControls

    init(_ controls: PlaybackControls) { self.controls = controls }

    func handle(_ key: KeyPress, at time: Double) -> PlaybackCommand? {
        lock.withLock { controls.handle(key, at: time) }
    }

    func tick(at time: Double) -> PlaybackCommand? {
        lock.withLock { controls.tick(at: time) }
    }

    var snapshot: PlaybackControls { lock.withLock { controls } }
}
