import ArgumentParser
import Foundation
import Narration
import NarrationCore
import NarrationTerminal
import Studio
import Synchronization

/// The studio session; inside `Narrate`, `Studio` names this subcommand.
private typealias StudioSession = Studio

extension Narrate {
    /// `narrate studio`: the one full screen a volunteer narrates in.
    struct Studio: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Narrate an article on one screen: record, review, fix and queue or submit with single keys.",
            discussion: """
                Opens --article (any article not pruned), else the current article while it is \
                open; else the list of your articles (title, publication, state, paragraphs read, \
                length, last change), or the new-article form when there are none, with \
                publication and narrator filled in from config.toml. Keys are shown at the bottom \
                of the screen and ? shows them all:

                  r       record a new chunk; r again stops and keeps it
                  space   play from the selected chunk; pause and resume
                  ← →     while playing or paused: 1 s back or on (PgUp PgDn: 5 s)
                  c       paused: fix a slip from there (hear the seconds before it, read on;
                          Esc cancels while they play)
                  ↑ ↓     select a chunk; Enter plays it
                  x e i   delete (asks first), re-record, insert before the selected chunk
                  d       dismiss the selected take's ⚑ "may need a listen" mark
                  o       your articles: Enter opens one, n starts a new one
                  q s     queue into the outbox; submit to the destination
                  Esc     leave (Ctrl-C too); a take being recorded is stopped and kept

                With an MP3 profile (podcast, or one of config.toml's at a constant bitrate), \
                the export is made between takes, in the background, and the header says \
                "ready to queue": queue then encodes only what the last take changed. \
                After queue or submit the screen shows where the file went and its loudness, \
                then starts the next article. Colours follow the terminal; NO_COLOR turns them \
                off, and on TERM=dumb the screen is printed line by line.
                """)

        @OptionGroup var target: ArticleOption

        @Option(help: ArgumentHelp("The ALSA capture device (default: device in config.toml, else \"default\").", valueName: "PCM"))
        var device: String?

        @Option(name: .customLong("output-device"), help: ArgumentHelp("The ALSA playback device (default: device in config.toml, else \"default\").", valueName: "PCM"))
        var outputDevice: String?

        @OptionGroup var profile: ProfileOption
        @OptionGroup var destination: DestinationOptions

        func run() throws {
            let settings = try CommandRunner.settings()
            let environment = ProcessInfo.processInfo.environment
            let summary = try CommandRunner.withLibrary { (library) throws(NarrationError) -> String in
                let options = try StudioSessionSetup.options(
                    settings, captureDevice: device, playbackDevice: outputDevice, profile: profile, destination: destination)
                let article = try StudioSessionSetup.startingArticle(target, in: library)
                let screen = try TerminalScreens.open(environment: environment, colour: TerminalCapabilities.colourAllowed)
                defer { screen.close() }
                let studio = StudioSession(library: library, options: options, devices: .alsa(options), article: article)
                Self.runLoop(studio, on: screen, catalog: CatalogWatch(library: library))
                return Self.goodbye(studio.state)
            }
            Console.print(summary)
        }

        /// Keys in, 20 screens a second out, until the volunteer leaves. SIGTERM and SIGHUP (the
        /// terminal closed) leave as Esc does: a take being recorded is kept. What another command
        /// changed in the catalog is read again before a key acts and a few times a second.
        private static func runLoop(_ studio: StudioSession, on screen: any TerminalScreen, catalog: CatalogWatch) {
            let signalled = Atomic<Bool>(false)
            let signals = SignalTrap { _ in signalled.store(true, ordering: .relaxed) }
            defer { withExtendedLifetime(signals) {} }
            var catalog = catalog
            while !studio.isFinished {
                let key = screen.nextKey(waiting: 50)
                if catalog.changed(checkingNow: key != nil), studio.reloadAfterOutsideChange() { catalog.caughtUp() }
                if let key, let action = studio.state.action(for: key) {
                    studio.perform(action)
                }
                if signalled.load(ordering: .relaxed) { studio.perform(.leave) }
                studio.tick()
                let size = screen.size
                screen.draw(StudioRenderer.render(studio.state, width: size.width, height: size.height))
            }
        }

        private static func goodbye(_ state: StudioState) -> String {
            guard let header = state.header else { return "Left the studio." }
            let chunks = header.chunkCount == 1 ? "1 chunk" : "\(header.chunkCount) chunks"
            return "Left the studio: \"\(header.title)\" has \(chunks), \(Timecode.precise(header.duration))."
        }
    }
}
