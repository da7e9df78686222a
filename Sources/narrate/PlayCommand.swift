import ArgumentParser
import Foundation
import Narration
import NarrationCore

extension Narrate {
    /// `narrate play`: plays chunks of the article as one gapless stream.
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play the article's chunks in order, gaplessly, from any chunk.",
            discussion: """
                Keys while playing: Space pause/resume, ← → seek 5 s, n / p next and previous \
                chunk, 1–9 jump to that chunk, q stop. Without a terminal it plays to the end.

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

        func run() throws {
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
            let keys = TerminalKeys.start { key in
                switch key {
                case .character(" "): player.togglePause()
                case .left: player.seek(by: -5)
                case .right: player.seek(by: 5)
                case .character("n"), .character("N"): player.next()
                case .character("p"), .character("P"): player.previous()
                case .character("q"), .character("Q"), .escape: player.stop()
                case .character(let digit) where ("1"..."9").contains(digit):
                    player.jump(to: ChunkIndex(Int(String(digit))!))
                default: break
                }
            }
            let signals = SignalTrap { _ in player.stop() }
            defer {
                keys?.stop()
                withExtendedLifetime(signals) {}
            }
            let display = PlaybackDisplay(mode: progress, player: player, chunkCount: chunkCount)
            player.play()
            while !player.status.state.isOver {
                usleep(50_000)
                display.refresh()
            }
            let final = player.wait()
            display.finished()
            return final
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
