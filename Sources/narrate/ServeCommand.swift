import ArgumentParser
import Foundation
import Narration
import NarrationCore
import Studio
import WebStudio

extension Narrate {
    /// `narrate serve`: the studio as a page in a browser.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Narrate in a web browser: the studio as a page, for volunteers who never open a terminal.",
            discussion: """
                Starts a small web server on this computer and prints a link to open in a \
                browser; the link carries a secret token, so only whoever has it gets in. \
                The page shows the paragraph to read, a big Record button, the level meter and \
                the chunks, and plays, fixes, queues and submits as the terminal studio does, \
                with the same keys (r, space, x, e, i, u, q, s).

                Two microphones, the volunteer's choice on the page: the booth's (--device, \
                recorded here by narrate itself) or the browser's own (a laptop's or phone's, \
                sent to narrate as the volunteer speaks). Either way each take is written to \
                disk as it is recorded: a closed tab or a dropped network keeps what arrived.

                By default only this computer can connect (127.0.0.1). To narrate from another \
                device, listen on its network address and give a certificate: browsers allow \
                the microphone only on https pages or on localhost. Off this computer, plain \
                http (the token and the recordings readable by anyone on the network) needs \
                --allow-plain-http.

                Each link lets one browser in: once opened, the server prints the next link \
                for another browser (and --open opens the newest).

                  narrate serve --open                    # opens the page in the default browser
                  narrate serve --listen 0.0.0.0:8443 --tls-cert cert.pem --tls-key key.pem
                  narrate serve --listen 0.0.0.0:8765 --allow-plain-http   # a trusted LAN only

                Ctrl-C stops the server; a take being recorded is kept.

                A reading service: once the first account exists (narrate accounts add), the \
                server asks everyone to sign in with their account instead of printing a link, \
                and prints the address of the sign-in page. Off this computer it then needs \
                https (--tls-cert and --tls-key), or a reverse proxy in front of it that \
                serves https (--behind-proxy with the proxy's address, whose X-Forwarded-For, \
                X-Forwarded-Proto and X-Forwarded-Host are then believed); plain http is refused.

                  narrate serve --listen 0.0.0.0:8765 --behind-proxy 127.0.0.1   # behind nginx or Caddy

                With --open, a studio already serving these recordings (the one the systemd \
                user unit starts: systemctl --user enable --now narrate-serve) is opened \
                instead of starting a second: the desktop entry runs narrate serve --open.
                """)

        @OptionGroup var target: ArticleOption

        @Option(help: ArgumentHelp("Where to listen: ADDRESS:PORT (port 0 picks a free one).", valueName: "ADDR:PORT"))
        var listen = "127.0.0.1:8765"

        @Option(help: ArgumentHelp("The booth's ALSA capture device (default: device in config.toml, else \"default\").", valueName: "PCM"))
        var device: String?

        @Flag(help: "Open the page in the default browser (xdg-open).")
        var open = false

        @Option(name: .customLong("tls-cert"), help: ArgumentHelp("A PEM certificate chain, to serve https.", valueName: "FILE"))
        var tlsCertificate: String?

        @Option(name: .customLong("tls-key"), help: ArgumentHelp("The certificate's PEM private key.", valueName: "FILE"))
        var tlsKey: String?

        @Flag(help: "Serve plain http on an address other computers can reach (the token and the recordings travel unencrypted).")
        var allowPlainHttp = false

        @Option(
            name: .customLong("behind-proxy"),
            help: ArgumentHelp(
                "A reading service behind a reverse proxy that serves https: the proxy's IP address, whose X-Forwarded-* headers are believed.",
                valueName: "ADDRESS"))
        var behindProxy: String?

        /// How a reading service logs on stderr.
        enum LogFormat: String, ExpressibleByArgument, CaseIterable {
            case none, json
        }

        @Option(help: ArgumentHelp(
            "A reading service's log on stderr: json (one object per line: serving, stopping, each take kept, each request that failed), or none.",
            valueName: "FORMAT"))
        var log: LogFormat = .none

        @OptionGroup var profile: ProfileOption
        @OptionGroup var destination: DestinationOptions

        func validate() throws {
            guard Self.address(listen) != nil else {
                throw ValidationError("--listen takes ADDRESS:PORT, e.g. 127.0.0.1:8765 or 0.0.0.0:8443, not \"\(listen)\".")
            }
            guard (tlsCertificate == nil) == (tlsKey == nil) else {
                throw ValidationError("--tls-cert and --tls-key go together: give both, or neither for plain http.")
            }
            if let behindProxy, !WebStudioServer.isProxyAddress(behindProxy) {
                throw ValidationError("--behind-proxy takes the proxy's IP address, e.g. 127.0.0.1 or ::1, not \"\(behindProxy.prefix(60))\".")
            }
        }

        /// Why serving plain http on `host` is refused, or nil when it is not: a personal studio
        /// needs --allow-plain-http for it, a reading service (`isService`) https or a proxy.
        func plainHTTPRefusal(host: String, isService: Bool) -> String? {
            guard tlsCertificate == nil, behindProxy == nil, !WebStudioServer.isLoopback(listening: host) else { return nil }
            if isService {
                return "This library has accounts, so narrate serve is a reading service, and --listen \(listen) would carry passphrases and session cookies over plain http: give --tls-cert and --tls-key to serve https, or --behind-proxy with the address of a reverse proxy that serves https."
            }
            guard !allowPlainHttp else { return nil }
            return "--listen \(listen) lets other computers in over plain http, where the link's token and the recordings travel unencrypted: give --tls-cert and --tls-key to serve https, or add --allow-plain-http to serve plain http all the same."
        }

        /// "host:port" or "[v6]:port" as a host and a port.
        static func address(_ text: String) -> (host: String, port: Int)? {
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
                return nil
            }
            var host = String(text[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            return host.isEmpty ? nil : (host, port)
        }

        func run() async throws {
            let settings = try CommandRunner.settings()
            let (host, port) = Self.address(listen)!
            let open = self.open
            // Before the library is opened (which may adopt takes): a studio already serving it.
            if open, let root = try? DataRoot.fromEnvironment(), let running = RunningStudio.find(in: root) {
                Console.print("The web studio is already running (process \(running.processID)): opening \(running.url.absoluteString)")
                let kept = [
                    ("--listen", listen != "127.0.0.1:8765"), ("--device", device != nil), ("--article", target.article != nil),
                    ("--tls-cert", tlsCertificate != nil), ("--allow-plain-http", allowPlainHttp), ("--profile", profile.profile != nil), ("--to", destination.to != nil),
                ].filter(\.1).map(\.0)
                if !kept.isEmpty {
                    Console.print("It keeps its own settings: \(kept.joined(separator: ", ")) apply to a studio started anew (stop it first).")
                }
                Self.openInBrowser(running.url)
                return
            }
            // The library tells whether this is a reading service, and with it which plain http
            // is refused: the refusal comes back out of the library's scope as a usage error.
            let refusal = try await CommandRunner.withLibrary { (library) async throws(NarrationError) -> String? in
                let isService = try !library.accountStore.accounts().isEmpty
                if let refusal = plainHTTPRefusal(host: host, isService: isService) { return refusal }
                if !isService, log != .none {
                    throw NarrationError(
                        .usage,
                        "--log is for a reading service, and this library has no accounts yet: add the first with narrate accounts add NAME --role admin, or leave out --log.")
                }
                if !isService, behindProxy != nil {
                    throw NarrationError(
                        .usage,
                        "--behind-proxy is for a reading service, and this library has no accounts yet: add the first with narrate accounts add NAME --role admin, or leave out --behind-proxy.")
                }
                if !isService, settings.serviceRecordings != nil {
                    throw NarrationError(
                        .usage,
                        "recordings in config.toml's [service] is for a reading service, and this library has no accounts yet: add the first with narrate accounts add NAME --role admin, or remove the setting.")
                }
                let options = try StudioSessionSetup.options(
                    settings, captureDevice: device, playbackDevice: nil, profile: profile, destination: destination, confirmsEverySend: false)
                let article = try StudioSessionSetup.startingArticle(target, in: library)
                // Copies of every take off this host, checked; its connection closed when the service stops.
                let recordings = try settings.serviceRecordings.map { destination throws(NarrationError) in
                    RecordingStore(try NarrationLibrary.store(for: destination))
                }
                let shown: [(name: String, value: String)] = [
                    ("Booth microphone", options.captureDevice),
                    ("Profile", options.profile.name),
                    ("Destination", options.destination?.description ?? "none: queue keeps files in the outbox"),
                    ("Publication", settings.publication.isEmpty ? "not set" : settings.publication),
                    ("Narrator", settings.narrator.isEmpty ? "not set" : settings.narrator),
                    ("Language of the texts", settings.language),
                    ("Recordings are kept in", library.root.url.path + (recordings.map { ", copied to \($0.name)" } ?? "")),
                ]
                let server = WebStudioServer(
                    library: library, options: options, article: article,
                    configuration: .init(
                        host: host, port: port, tls: tlsCertificate.map { ($0, tlsKey ?? "") }, settings: shown,
                        service: isService
                            ? .init(
                                accounts: AccountService(store: library.accountStore), articleAccess: DeskArticleAccess(library: library, desk: library.deskStore),
                                trustedProxy: behindProxy, desk: DeskService(store: library.deskStore, reviewIsOn: settings.serviceReview),
                                activity: AccountActivity(store: library.activityStore, accounts: library.accountStore),
                                logLines: log == .json ? WebStudioServer.logToStandardError : nil, recordings: recordings)
                            : nil))
                let root = library.root
                defer { RunningStudio.forgetOwnRecord(in: root) }
                let plainHTTPOffThisComputer = tlsCertificate == nil && behindProxy == nil && !WebStudioServer.isLoopback(listening: host)
                let served: Result<Void, NarrationError>
                do throws(NarrationError) {
                    try await server.run { url in
                        RunningStudio(url: url).record(in: root)
                        if plainHTTPOffThisComputer {
                            // Said once the port is bound: with port 0 the system picks it.
                            let bound = host.contains(":") ? "[\(host)]:\(url.port ?? port)" : "\(host):\(url.port ?? port)"
                            Console.error("Serving plain http on \(bound): anyone on the network can read the link's token and the recordings.")
                        }
                        if isService {
                            Console.print("Serving the reading service: people sign in at \(url.absoluteString) with their accounts. Ctrl-C stops.")
                        } else {
                            Console.print("Open \(url.absoluteString) in a browser (the token in the link lets only you in). Ctrl-C stops.")
                        }
                        if open { Self.openInBrowser(url) }
                    } linkChanged: { url in
                        RunningStudio(url: url).record(in: root)
                        Console.print("The link let a browser in and works no more; for another browser, open \(url.absoluteString)")
                    }
                    served = .success(())
                } catch {
                    served = .failure(error)
                }
                await recordings?.close()
                try served.get()
                return nil
            }
            if let refusal { throw ValidationError(refusal) }
            Console.print("Stopped the web studio.")
        }

        private static func openInBrowser(_ url: URL) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["xdg-open", url.absoluteString]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                Console.error("Could not open a browser (xdg-open): open the link by hand.")
            }
        }
    }
}
