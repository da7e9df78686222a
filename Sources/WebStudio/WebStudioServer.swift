public import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
public import Narration
public import NarrationCore
import NIOCore
import NIOSSL
import ServiceLifecycle
public import Studio
import Synchronization

/// `narrate serve`: the studio as a page in a browser. One local HTTP server (Hummingbird)
/// serves the page compiled into the binary, the article's audio as one seekable WAV, a form's
/// new article, and one WebSocket per page for the live state, the keys and a browser
/// microphone's audio. Every request must carry the session cookie that the printed link's
/// token is exchanged for, and come from the studio's own origin (`AccessGuard`). When the
/// library has accounts (`Configuration.service`), it is a reading service instead: people sign
/// in with their accounts, and every request and live message is authorised by `ServiceDoor`
/// (Service.md beside this file).
public struct WebStudioServer: Sendable {
    /// What `narrate serve` was given.
    public struct Configuration: Sendable {
        public var host: String
        public var port: Int
        /// PEM files for https; both or neither.
        public var tls: (certificate: String, key: String)?
        /// The settings shown read-only on the page: name and value.
        public var settings: [(name: String, value: String)]
        /// The reading service, when the library has accounts; nil for the personal studio.
        public var service: Service?

        public init(
            host: String, port: Int, tls: (certificate: String, key: String)?, settings: [(name: String, value: String)], service: Service? = nil
        ) {
            self.host = host
            self.port = port
            self.tls = tls
            self.settings = settings
            self.service = service
        }
    }

    /// What serving a reading service needs beyond the studio: its accounts, who may open which
    /// article, and the reverse proxy in front of it, if any.
    public struct Service: Sendable {
        public var accounts: AccountService
        public var articleAccess: any ArticleAccess
        /// The reverse proxy's address, whose `X-Forwarded-*` headers are believed.
        public var trustedProxy: String?
        /// The policy `accounts` was made with: the cookie lasts as long as a session can.
        public var sessionPolicy: SessionPolicy
        /// How often an open page's session is checked again (a disabled account's page closes
        /// within this).
        public var sessionCheckInterval: Duration
        /// The desk: the volunteers' home page reads and claims through it, and each article's
        /// studio tells it of takes and sends. Nil: no home-page articles, studios tell nobody.
        public var desk: DeskService?
        /// Where the studios record each account's takes for its hours; nil records none.
        public var activity: AccountActivity?
        /// How long an article's studio stays open after its last page closed.
        public var studioIdleClose: Duration
        /// How often the desk's overdue articles are expired (`DeskExpiry`), from the start.
        public var expiryInterval: Duration
        /// Where the service's log goes, one JSON object per line (`JSONLineLogHandler`): the
        /// server serving and stopping, each take kept, each answer the server failed (5xx).
        /// Nil logs nothing.
        public var logLines: (@Sendable (String) -> Void)?
        /// Where every chunk is copied off this host (`ChunkCopier`), and brought home from before
        /// an article's studio or audio is opened here; nil keeps chunks on this host's disk only.
        public var recordings: RecordingStore?

        public init(
            accounts: AccountService, articleAccess: any ArticleAccess, trustedProxy: String?, sessionPolicy: SessionPolicy = SessionPolicy(),
            sessionCheckInterval: Duration = .seconds(2), desk: DeskService? = nil, activity: AccountActivity? = nil,
            studioIdleClose: Duration = .seconds(120), expiryInterval: Duration = DeskExpiry.serviceInterval,
            logLines: (@Sendable (String) -> Void)? = nil, recordings: RecordingStore? = nil
        ) {
            self.logLines = logLines
            self.recordings = recordings
            self.accounts = accounts
            self.articleAccess = articleAccess
            self.trustedProxy = trustedProxy
            self.sessionPolicy = sessionPolicy
            self.sessionCheckInterval = sessionCheckInterval
            self.desk = desk
            self.activity = activity
            self.studioIdleClose = studioIdleClose
            self.expiryInterval = expiryInterval
        }
    }

    /// The most a new article's request may carry: the text file (2 MiB) as JSON, where
    /// escaping may double it.
    static let articleRequestLimit = 5 << 20
    static let textLimit = 2 << 20
    /// The most one WebSocket message may carry (1 MiB): a browser's 100 ms of 48 kHz stereo is
    /// 19,200 bytes. A message over it closes the connection with a sentence.
    static let messageLimit = 1 << 20
    /// The most one WebSocket frame or message is read up to: twice the message limit, so that a
    /// message just over the limit is read and refused with a sentence; a frame over this is
    /// closed unread (close code 1009, "message too big").
    static let frameLimit = 2 << 20
    static let messageTooBig = "The page sent a message over the 1 MiB limit: reload the page."
    /// How long a keep-alive connection may wait for its next request.
    static let idleTimeout = TimeAmount.seconds(30)
    static let tooBig = "The text file is too big: the studio takes texts of at most 2 MB."

    let library: NarrationLibrary
    let options: Studio.Options
    let article: Article?
    let configuration: Configuration

    public init(library: NarrationLibrary, options: Studio.Options, article: Article?, configuration: Configuration) {
        self.library = library
        self.options = options
        self.article = article
        self.configuration = configuration
    }

    /// Serves until SIGINT or SIGTERM; then a take being recorded is stopped and kept, work under
    /// way finishes, and the call returns.
    /// - Parameters:
    ///   - ready: called once the server listens, with the link to open (token included; for a
    ///     reading service the sign-in page).
    ///   - linkChanged: called when the link's token was exchanged, with the next link (a link
    ///     lets one browser in).
    public func run(ready: @escaping @Sendable (URL) -> Void, linkChanged: @escaping @Sendable (URL) -> Void = { _ in }) async throws(NarrationError) {
        OpenFileLimit.raiseToHardLimit()  // connections are descriptors: the usual 1,024 is soon spent
        let loopback = Self.isLoopback(listening: configuration.host)
        let hosts: AccessGuard.Hosts = loopback ? .loopback : configuration.tls != nil ? .any : .these(Self.machineNames(listening: configuration.host))
        let access = AccessGuard(hosts: hosts)
        let scheme = configuration.tls == nil ? "http" : "https"
        let displayHost = Self.reachableHost(listening: configuration.host)
        let port = Mutex(configuration.port)
        let isService = configuration.service != nil
        let link = { @Sendable (token: String) in
            URL(string: "\(scheme)://\(displayHost):\(port.withLock { $0 })" + (isService ? "/signin" : "/?token=\(token)"))
        }
        let door: ServiceDoor?
        if let service = configuration.service {
            let proxy = try service.trustedProxy.map { address throws(NarrationError) in try ProxyTrust(proxy: address) } ?? .none
            door = ServiceDoor(
                accounts: service.accounts, articleAccess: service.articleAccess, proxy: proxy,
                hosts: service.trustedProxy != nil ? .any : hosts, sessionPolicy: service.sessionPolicy,
                sessionCheckInterval: service.sessionCheckInterval)
        } else {
            door = nil
        }
        let log = configuration.service?.logLines.map(Self.serviceLog)
        let metrics = door.map { _ in ServiceMetrics(library: library) }
        let copier = configuration.service?.recordings.map { ChunkCopier(library: library, recordings: $0) }
        let runner = try door.map { _ throws(NarrationError) in try workRunner(log: log, metrics: metrics) }
        // In a service a take's check is a job of the catalog's queue: the studios ask for it and
        // do it, and the runner does any host's that is due (one whose host died).
        var options = options
        options.checkQueue = runner.map { TakeCheckWork(library: library, runner: $0, language: options.language, recordings: configuration.service?.recordings) }
        options.checkQueue?.handleDueJobs()
        let host = StudioHost(library: library, options: options, article: article, settings: configuration.settings)
        let rooms = configuration.service.map { service in
            let (library, options, settings) = (library, options, configuration.settings)
            let deskLink = service.desk.map { desk in
                StudioDeskLink(
                    desk: desk, activity: service.activity, pickups: (Self.pickupCompletion(library, desk), library),
                    sends: (service.accounts, runner, service.recordings))
            }
            return StudioRooms(idleClose: service.studioIdleClose) { article in
                StudioHost(library: library, options: options, article: article, settings: settings, deskLink: deskLink, isArticleStudio: true)
            }
        }
        let idleCloser = rooms.map { rooms in
            Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: max(.milliseconds(250), rooms.idleClose / 4))
                    await rooms.closeIdle()
                }
            }
        }
        defer { idleCloser?.cancel() }
        if door != nil { library.removeHandedOverPartials() }  // a service host's takes that went on through another host
        let studiosStop = StudiosStop { [rooms] in
            log?.info("stopping", metadata: ["studios": "\(rooms?.openArticles.count ?? 0)"])
            runner?.stop()  // a job under way is handed back for another host
            await host.shutDown()  // a take under way is stopped and kept first
            await rooms?.shutDown()
        }
        do throws(NarrationError) {
            let router = routes(
                door: door, host: host, rooms: rooms, scheme: scheme, log: log, metrics: metrics, runner: runner,
                personal: AccessMiddleware(access: access, scheme: scheme, linkChanged: { token in link(token).map(linkChanged) }))
            let server: HTTPServerBuilder
            do {
                let tls = try configuration.tls.map { tls in
                    let chain = try NIOSSLCertificate.fromPEMFile(tls.certificate).map { NIOSSLCertificateSource.certificate($0) }
                    let key = try NIOSSLPrivateKey(file: tls.key, format: .pem)
                    return TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
                }
                server = try Self.serverBuilder(webSocketRouter: router, tls: tls, connectionGuard: ConnectionGuard())
            } catch {
                throw NarrationError(.usage, "The TLS certificate or key could not be read (\(error)): give PEM files to --tls-cert and --tls-key.")
            }
            let bindHost = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
            var logger = Logger(label: "narrate-serve")
            logger.logLevel = .critical  // the terminal shows narrate's own lines, not a request log
            let app = Application(
                router: router, server: server,
                configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: "narrate"),
                onServerRunning: { channel in
                    port.withLock { $0 = channel.localAddress?.port ?? 0 }
                    if let url = link(access.token) {
                        log?.info("serving", metadata: ["address": "\(url.absoluteString)", "catalog": "\(library.catalogKind)"])
                        ready(url)
                    }
                },
                logger: logger)
            let expiry = configuration.service.flatMap { service in service.desk.map { DeskExpiry(desk: $0, interval: service.expiryInterval) } }
            // On SIGINT or SIGTERM the studios stop first (the last service is told first), then
            // the server stops taking requests and waits for its connections.
            let services = ServiceGroup(
                configuration: .init(
                    services: [.init(service: app), .init(service: studiosStop)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            do {
                // The desk's expiry runs beside the server, in its task group: cancelled when it stops.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    if let expiry { group.addTask { await expiry.run() } }
                    if let copier { group.addTask { await copier.run { Self.copied($0, metrics: metrics, log: log) } } }
                    if let runner { group.addTask { await runner.run { Self.worked($0, metrics: metrics, log: log) } } }
                    try await services.run()
                    group.cancelAll()
                }
                // The studios stopped and kept their takes: one more round copies them off this host.
                if let copier, let result = await copier.finalRound(within: Self.finalCopyLimit) {
                    Self.copied(result, metrics: metrics, log: log)
                }
            } catch let error as IOError where error.errnoCode == EADDRINUSE {
                throw NarrationError(
                    .usage, "Another program already listens on \(bindHost):\(configuration.port): choose another port with --listen (port 0 picks a free one).")
            } catch let error as IOError where error.errnoCode == EADDRNOTAVAIL {
                throw NarrationError(.usage, "This computer has no address \(bindHost): give one of its own addresses to --listen, or 127.0.0.1.")
            } catch {
                throw NarrationError(.usage, "Cannot listen on \(bindHost):\(configuration.port): \(error). Choose another port with --listen.")
            }
        } catch {
            await studiosStop.stopOnce()
            throw error
        }
        await studiosStop.stopOnce()  // awaited, never waited for; done already after a signal
    }

    /// How long a stopping service waits for its last round of copies to the recordings store;
    /// what it did not copy stays on this host's disk and is copied when the service starts again.
    static let finalCopyLimit = Duration.seconds(10)

    /// The host's hands on the catalog's queue of background work, doing the deliveries of
    /// approved articles and of volunteers' sends (review off) when the service has a
    /// destination; each Approved article that has no job (its approval's process died before
    /// asking) is asked for now. (Take checks are handed to it in `run`.)
    private func workRunner(log: Logger?, metrics: ServiceMetrics?) throws(NarrationError) -> WorkRunner {
        let runner = try WorkRunner(library: library)
        guard let destination = options.destination else { return runner }
        let desk = configuration.service?.desk ?? DeskService(store: library.deskStore)
        let sending = DeskDelivery.Sending(destination: destination, profile: nil, fallback: options.profile, language: options.language, retry: options.retry)
        let recordings = configuration.service?.recordings
        let delivery = ApprovedDelivery(library: library, desk: desk, sending: sending, recordings: recordings)
        delivery.handled(by: runner)
        if let accounts = configuration.service?.accounts {
            SentDelivery(library: library, desk: desk, accounts: accounts, sending: sending, recordings: recordings).handled(by: runner)
        }
        let asked = try delivery.askForEveryApproved(in: runner.queue, now: Date().timeIntervalSince1970)
        if asked > 0 { log?.info("approved articles to deliver", metadata: ["articles": "\(asked)"]) }
        return runner
    }

    /// Logs how a job of the queue ended, and counts it.
    static func worked(_ outcome: WorkRunner.Outcome, metrics: ServiceMetrics?, log: Logger?) {
        switch outcome {
        case .finished(let job):
            log?.info("job done", metadata: ["kind": "\(job.kind)", "subject": "\(job.subject)", "attempt": "\(job.attempt)"])
        case .failed(let job, let error):
            metrics?.jobFailed()
            log?.warning("job failed", metadata: ["kind": "\(job.kind)", "subject": "\(job.subject)", "attempt": "\(job.attempt)", "error": "\(error.message)"])
        case .handedBack(let job):
            log?.info("job handed back", metadata: ["kind": "\(job.kind)", "subject": "\(job.subject)"])
        case .lost(let job):
            log?.warning("job taken by another host", metadata: ["kind": "\(job.kind)", "subject": "\(job.subject)", "attempt": "\(job.attempt)"])
        }
    }

    /// Tells the metrics and the log of a round of copies to the recordings store.
    static func copied(_ result: Result<[ChunkCopier.Copied], NarrationError>, metrics: ServiceMetrics?, log: Logger?) {
        switch result {
        case .success(let copies):
            for copied in copies {
                metrics?.chunkStored(sinceKept: copied.sinceKept)
                log?.info("chunk stored", metadata: [
                    "article": "\(copied.copy.article.rawValue)", "chunk": "\(copied.copy.chunk.rawValue)", "bytes": "\(copied.copy.bytes)",
                    "since_kept_ms": "\(copied.sinceKept.map { "\(milliseconds($0))" } ?? "")",
                ])
            }
        case .failure(let error):
            metrics?.chunkCopyFailed()
            log?.warning("chunk copy failed", metadata: ["error": "\(error.message)"])
        }
    }

    /// HTTP/1.1 with the WebSocket upgrade (over TLS when given), every connection watched by
    /// `connectionGuard` from its first byte, keep-alive connections closed after `idleTimeout`
    /// without a request, and WebSocket frames read up to `frameLimit`.
    static func serverBuilder(
        webSocketRouter: Router<StudioRequestContext>, tls: TLSConfiguration?, connectionGuard: ConnectionGuard
    ) throws -> HTTPServerBuilder {
        let webSocketResponder = webSocketRouter.buildResponder()
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(idleTimeout: idleTimeout), ws: .init(maxFrameSize: frameLimit))
        if let tls { _ = try NIOSSLContext(configuration: tls) }  // a certificate and key that do not match fail here, not per connection
        return HTTPServerBuilder { responder in
            let http = HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder, configuration: configuration)
            if let tls { return GuardedChannel(base: try TLSChannel(http, tlsConfiguration: tls), connectionGuard: connectionGuard) }
            return GuardedChannel(base: http, connectionGuard: connectionGuard)
        }
    }

    /// Whether `host` (as given to listen on: a name or an address, IPv6 without brackets) is
    /// this machine's loopback, which no other computer reaches.
    public static func isLoopback(listening host: String) -> Bool {
        HostName(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host)?.isLoopback ?? false
    }

    /// Whether `text` is an IP address a reverse proxy can be trusted at (`Service.trustedProxy`).
    public static func isProxyAddress(_ text: String) -> Bool {
        (try? ProxyTrust(proxy: text)) != nil
    }

    /// Whether `host` (as given to listen on) is every address of the machine.
    static func isWildcard(_ host: String) -> Bool { host == "0.0.0.0" || host == "::" || host == "[::]" }

    /// The address to print in the link: the one listened on, or for a wildcard one of the
    /// machine's own network addresses that another computer can reach (IPv4 first), else its name.
    static func reachableHost(listening host: String) -> String {
        guard isWildcard(host) else { return host.contains(":") ? "[\(host)]" : host }
        let addresses = Foundation.Host.current().addresses.filter { address in
            guard let name = HostName(address.contains(":") ? "[\(address)]" : address), !name.isLoopback else { return false }
            return !address.hasPrefix("169.254.") && !address.lowercased().hasPrefix("fe80:")
        }
        if let v4 = addresses.first(where: { !$0.contains(":") }) { return v4 }
        if let v6 = addresses.first { return "[\(v6)]" }
        return Foundation.Host.current().name ?? "localhost"
    }

    /// The names a plain-http studio off loopback answers to: the address listened on, or for a
    /// wildcard every address and name of the machine.
    static func machineNames(listening host: String) -> Set<String> {
        guard isWildcard(host) else { return [host.lowercased()] }
        let current = Foundation.Host.current()
        var names = Set((current.addresses + current.names).map { $0.lowercased() })
        for name in current.names where !name.contains(".") { names.insert(name.lowercased() + ".local") }
        return names
    }

    // MARK: Routes

    /// Every route the server answers, as `run` serves them: with a door the reading service's
    /// (its pages, the home page's and the desk's routes), else the personal studio's door
    /// `personal`; then the studio's page, its API and the live connection. The OpenAPI document
    /// (`openapi.json`) is checked against this router's routes.
    func routes(
        door: ServiceDoor?, host: StudioHost, rooms: StudioRooms?, scheme: String, log: Logger? = nil, metrics: ServiceMetrics? = nil,
        runner: WorkRunner? = nil, personal: AccessMiddleware<StudioRequestContext>
    ) -> Router<StudioRequestContext> {
        let router = Router(context: StudioRequestContext.self)
        router.middlewares.add(ServerTimingMiddleware())
        if let door {
            let metrics = metrics ?? ServiceMetrics(library: library)
            router.middlewares.add(MetricsMiddleware(metrics: metrics, log: log))
            if let log {
                library.takesKept.listen { take in
                    log.info("take kept", metadata: [
                        "article": "\(take.article.rawValue)", "chunk": "\(take.chunk.rawValue)", "frames": "\(take.frames)",
                        "durable_ms": "\(Self.milliseconds(take.captureEndToDurable))",
                    ])
                }
            }
            Self.addService(to: router, door: door, scheme: scheme)
            HealthRoutes(library: library).add(to: router)
            metrics.add(to: router, library: library, rooms: rooms)
            // The home page and the desk page ask one desk, with the service's review setting.
            let desk = configuration.service?.desk ?? DeskService(store: library.deskStore)
            Self.addHome(to: router, desk: desk)
            PickupRoutes(door: door, pickups: Self.pickupCompletion(library, desk), library: library).add(to: router)
            DeskRoutes(door: door, desk: desk, library: library, clock: { Date() }, accessChanged: { rooms?.accessChanged($0) }).add(to: router)
            ReviewRoutes(door: door, desk: desk, library: library, activity: configuration.service?.activity, options: options, runner: runner, recordings: configuration.service?.recordings).add(to: router)
        } else {
            router.middlewares.add(personal)
        }
        addPage(to: router)
        addAPI(to: router, host: host, door: door, rooms: rooms)
        let library = self.library
        router.ws("/live") { _, _ in .upgrade([:]) } onUpgrade: { inbound, outbound, context in
            let signedIn = context.requestContext.signedIn
            if let door, let rooms, let wanted = context.request.uri.queryParameters.get("article") {
                // A reading service's studio of one article, for a page whose account may see it.
                guard let article = await Self.article(wanted, for: signedIn, door: door, library: library) else {
                    return try await outbound.close(.policyViolation, reason: StudioRooms.notYours)
                }
                await bringHome(article)
                guard let articleHost = rooms.enter(article) else { return try await outbound.close(.policyViolation, reason: StudioRooms.full) }
                defer { rooms.leave(article.id) }
                // The page keeps the studio while its account may still do what it came to do.
                var access = ServiceAction.view
                if let account = signedIn?.account, await door.may(account, .record, article: article.id) { access = .record }
                let page = LivePage(host: articleHost, door: door, signedIn: signedIn, studioOf: (article.id, access))
                rooms.watch(page, on: article.id)
                defer { rooms.forget(page, on: article.id) }
                try await Self.serve(page: inbound, outbound: outbound, live: page)
                return
            }
            let page = LivePage(host: host, door: door, signedIn: signedIn)
            try await Self.serve(page: inbound, outbound: outbound, live: page)
        }
        return router
    }

    /// Brings home from the recordings store the chunks of `article` this host lacks (another
    /// host recorded them), before its studio or its audio is opened here. A chunk that cannot be
    /// brought home shows as missing in the studio, which says so; nothing else is touched.
    func bringHome(_ article: Article) async {
        guard let recordings = configuration.service?.recordings else { return }
        _ = try? await library.bringChunksHome(of: article.id, from: recordings)
    }

    private func addPage(to router: Router<StudioRequestContext>) {
        let files: [(path: RouterPath, type: String, bytes: [UInt8])] = [
            ("/", "text/html; charset=utf-8", PackageResources.index_html),
            ("/studio.css", "text/css; charset=utf-8", PackageResources.studio_css),
            ("/studio.js", "text/javascript; charset=utf-8", PackageResources.studio_js),
            ("/takes.js", "text/javascript; charset=utf-8", PackageResources.takes_js),
            ("/piece-codec.js", "text/javascript; charset=utf-8", PackageResources.piece_codec_js),
            ("/microphone-worklet.js", "text/javascript; charset=utf-8", PackageResources.microphone_worklet_js),
        ]
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }  // the page has no icon
        for file in files {
            let body = ByteBuffer(bytes: file.bytes)
            router.get(file.path) { _, _ in
                Response(
                    status: .ok,
                    headers: [.contentType: file.type, .cacheControl: "no-store", .init("X-Content-Type-Options")!: "nosniff"],
                    body: .init(byteBuffer: body))
            }
        }
    }

    /// The studio's own routes; in a reading service each asks the door first.
    /// The article `wanted` names when `signedIn`'s account may see it (`view`); nil for an
    /// article that is not theirs, a name that is no article's, or no session.
    static func article(_ wanted: String, for signedIn: SignedInRequest?, door: ServiceDoor, library: NarrationLibrary) async -> Article? {
        guard let signedIn, (1...64).contains(wanted.utf8.count), wanted.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        guard await door.may(signedIn.account, .view, article: ArticleID(wanted)) else { return nil }
        return try? await BlockingWork.run(named: "narrate-web-access") { () throws(NarrationError) in try library.article(wanted) }
    }

    private func addAPI(to router: Router<StudioRequestContext>, host: StudioHost, door: ServiceDoor?, rooms: StudioRooms?) {
        let library = self.library
        let options = self.options
        router.post("/api/articles") { request, context -> Response in
            if let door, let refusal = await door.refusal(context, .manageArticles, article: nil) { return refusal }
            var request = request
            let body: ByteBuffer
            do {
                body = try await request.collectBody(upTo: Self.articleRequestLimit)
            } catch {
                return Self.refusal(413, Self.tooBig)
            }
            struct Form: Decodable {
                var title: String
                var publication: String?
                var narrator: String?
                var textName: String?
                var text: String?
            }
            guard let form = try? JSONDecoder().decode(Form.self, from: Data(buffer: body)) else {
                return Self.refusal(400, "The form could not be read: reload the page and try again.")
            }
            if let text = form.text, text.utf8.count > Self.textLimit {
                return Self.refusal(413, Self.tooBig)
            }
            let result = await host.create(
                .init(
                    title: form.title, publication: form.publication ?? options.publication, narrator: form.narrator ?? options.narrator,
                    textName: form.textName, text: form.text))
            switch result {
            case .success(let id): return Self.json(201, ["article": id.rawValue])
            case .failure(let error): return Self.refusal(400, PageState.sentence(error, canSend: options.destination != nil))
            }
        }
        router.get("/audio") { request, context -> Response in
            let article: Article
            switch await heardArticle(request, context, host: host, door: door, rooms: rooms) {
            case .article(let heard): article = heard
            case .refused(let refusal): return refusal
            }
            let from = request.uri.queryParameters.get("from").flatMap { Int($0) }
            // The catalog and the chunk files are read through the door for blocking work,
            // never on the concurrency pool that uploads need.
            let entries: [NarrationLibrary.ChunkEntry]
            do throws(NarrationError) {
                entries = try await BlockingWork.run(named: "narrate-web-audio") { () throws(NarrationError) in
                    try library.chunkEntries(of: article)
                }
            } catch {
                return Self.refusal(500, PageState.sentence(error, canSend: options.destination != nil))
            }
            if let from, !(1...max(1, entries.count)).contains(from) {
                return Self.refusal(404, "The article has no chunk \(from).")
            }
            let wave = ArticleWave(entries: entries, from: from.map { ChunkIndex(position: $0 - 1) }, format: article.format)
            guard wave.frames > 0 else { return Self.refusal(404, "The article has no chunks to play yet.") }
            let size = wave.byteCount
            var headers: HTTPFields = [.contentType: "audio/wav", .acceptRanges: "bytes", .cacheControl: "no-store"]
            let range: Range<Int>
            let status: HTTPResponse.Status
            switch ByteRange.parse(request.headers[.range], size: size) {
            case .whole:
                (range, status) = (0..<size, .ok)
            case .part(let part):
                (range, status) = (part, .partialContent)
                headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(size)"
            case .unsatisfiable:
                headers[.contentRange] = "bytes */\(size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            headers[.contentLength] = String(range.count)
            return Response(
                status: status, headers: headers,
                body: ResponseBody(contentLength: range.count) { writer in
                    var start = range.lowerBound
                    while start < range.upperBound {
                        let piece = start..<min(range.upperBound, start + (256 << 10))
                        let bytes = try await BlockingWork.run(named: "narrate-web-audio") { () throws(NarrationError) in
                            try wave.bytes(in: piece)
                        }
                        try await writer.write(ByteBuffer(bytes: bytes))
                        start = piece.upperBound
                    }
                    try await writer.finish(nil)
                })
        }
        router.get("/api/cuts/:chunk/:number/audio") { request, context -> Response in
            let article: Article
            switch await heardArticle(request, context, host: host, door: door, rooms: rooms) {
            case .article(let heard): article = heard
            case .refused(let refusal): return refusal
            }
            let chunk = context.parameters.get("chunk") ?? ""
            guard (1...64).contains(chunk.utf8.count), chunk.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                return Self.refusal(404, "The page named a chunk the article does not have: reload the page.")
            }
            guard let number = context.parameters.get("number").flatMap({ Int($0) }), (0...9_999).contains(number) else {
                return Self.refusal(404, "The page named a cut no take has: reload the page.")
            }
            let asCut: Bool
            switch request.uri.queryParameters.get("as") ?? "read" {
            case "read": asCut = false
            case "cut": asCut = true
            default: return Self.refusal(400, "A cut is heard \"as read\" or \"as cut\": reload the page.")
            }
            let wave: [UInt8]
            do throws(NarrationError) {
                wave = try await BlockingWork.run(named: "narrate-web-audio") { () throws(NarrationError) in
                    try library.cutPreview(number, ofChunk: ChunkID(chunk), of: article).wav(asCut: asCut)
                }
            } catch {
                switch error.kind {
                case .chunkIndexOutOfRange:
                    return Self.refusal(404, "That chunk is no longer in the article (it was deleted or replaced): reload the page.")
                case .usage:
                    return Self.refusal(404, "That cut was made or left already: reload the page.")
                case .chunkFileMissing, .catalogCorrupt, .fileCorrupt:
                    return Self.refusal(409, PageState.sentence(error, canSend: options.destination != nil))
                default:
                    return Self.refusal(500, PageState.sentence(error, canSend: options.destination != nil))
                }
            }
            return Response(
                status: .ok, headers: [.contentType: "audio/wav", .contentLength: String(wave.count), .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: wave)))
        }
        router.post("/api/outbox/:job/retry") { _, context -> Response in
            if let door, let refusal = await door.refusal(context, .manageArticles, article: nil) { return refusal }
            guard let destination = options.destination else {
                return Self.refusal(409, "No destination is set to send to: ask your reading service to set one.")
            }
            let id = context.parameters.get("job") ?? ""
            // Waiting, or delivered with its feed not updated (see `outbox push`).
            guard let job = try? library.job(matching: id), job.state == .queued || (job.state == .delivered && job.lastError != nil) else {
                return Self.refusal(404, "There is no waiting outbox job \(id.prefix(40)).")
            }
            Task {
                _ = try? await library.deliver(job, to: destination, retrying: options.retry)
                host.outboxChanged()
            }
            return Self.json(202, ["job": job.id])
        }
    }

    /// What an audio route plays from, or why it may not.
    enum HeardArticle {
        case article(Article)
        case refused(Response)
    }

    /// The article an audio route plays from: in a reading service's studio of one article the
    /// article `?article=` names, if the page's account may hear it; else the article open in
    /// the shared studio, if it may (`view`).
    private func heardArticle(
        _ request: Request, _ context: StudioRequestContext, host: StudioHost, door: ServiceDoor?, rooms: StudioRooms?
    ) async -> HeardArticle {
        if let door, rooms != nil, let wanted = request.uri.queryParameters.get("article") {
            // An article's own studio: the article the page names, if its account may hear it.
            guard let named = await Self.article(wanted, for: context.signedIn, door: door, library: library) else {
                return .refused(Self.refusal(403, ServiceDoor.notAllowedArticle))
            }
            await bringHome(named)
            return .article(named)
        }
        guard let open = host.article else { return .refused(Self.refusal(404, "No article is open.")) }
        if let door, let refusal = await door.refusal(context, .view, article: open.id) { return .refused(refusal) }
        return .article(open)
    }

    // MARK: The live connection

    /// One page's WebSocket: the state out, its messages and audio in, until it closes.
    private static func serve(page inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, live: LivePage) async throws {
        let host = live.host
        let (id, messages) = host.connect(account: live.signedIn?.account)
        defer { host.disconnect(id) }
        // On Ctrl-C the server waits for open connections to end: the page's messages end, so
        // this connection does.
        try await withGracefulShutdownHandler {
            try await exchange(page: inbound, outbound: outbound, id: id, messages: messages, live: live)
        } onGracefulShutdown: {
            host.closePages()
        }
    }

    private static func exchange(
        page inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, id: StudioHost.PageID, messages: AsyncStream<String>,
        live: LivePage
    ) async throws {
        let host = live.host
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await message in messages {
                    if live.door != nil {
                        let (allowed, firstRefusal) = await live.mayReceive()
                        if firstRefusal { try await outbound.write(.text(PageState.encode(["type": "error", "text": ServiceDoor.notYoursToSee]))) }
                        guard allowed else { continue }
                    }
                    try await outbound.write(.text(message))
                }
            }
            group.addTask {
                for try await message in inbound.messages(maxSize: frameLimit) {
                    guard Self.size(of: message) <= messageLimit else {
                        try await outbound.close(.messageTooLarge, reason: messageTooBig)
                        return
                    }
                    guard live.isOpen else { return }  // the periodic check ended the session: its close is on the way
                    switch message {
                    case .binary(let buffer):
                        // A browser take's audio is used only from the page that began the take,
                        // which the take's own message was authorised for.
                        host.receiveAudio(Array(buffer.readableBytesView), from: id)
                    case .text(let text):
                        let decoded: PageMessage
                        do throws(NarrationError) {
                            decoded = try PageMessage.decode(text)
                        } catch {
                            try await outbound.write(.text(PageState.encode(["type": "error", "text": error.message])))
                            continue
                        }
                        switch await live.authorise(decoded) {
                        case .allowed:
                            host.receive(decoded, from: id)
                        case .refused(let sentence):
                            try await outbound.write(.text(PageState.encode(["type": "error", "text": sentence])))
                        case .sessionEnded(let sentence):
                            try await outbound.close(.policyViolation, reason: sentence)
                            return
                        }
                    }
                }
            }
            if let interval = live.door?.sessionCheckInterval {
                group.addTask {
                    // Every interval, and at once when the article's desk record changed.
                    while !Task.isCancelled {
                        try await Task.sleep(for: interval)
                        live.recheck()
                    }
                }
                group.addTask {
                    defer { live.endChecks() }
                    if let reason = await live.closingReason() { return try await outbound.close(.policyViolation, reason: reason) }
                    for await _ in live.checks {
                        if let reason = await live.closingReason() { return try await outbound.close(.policyViolation, reason: reason) }
                    }
                }
            }
            try await group.next()  // the page left (or the studio stopped, or the session ended): end all
            group.cancelAll()
        }
    }

    /// The bytes a WebSocket message carries.
    static func size(of message: WebSocketMessage) -> Int {
        switch message {
        case .text(let text): text.utf8.count
        case .binary(let buffer): buffer.readableBytes
        }
    }

    // MARK: Answers

    static func json(_ status: Int, _ object: [String: String]) -> Response {
        Response(
            status: .init(code: status), headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: PageState.encode(object))))
    }

    static func refusal(_ status: Int, _ sentence: String) -> Response {
        json(status, ["error": sentence])
    }
}

/// Applies `AccessGuard` to every request, the WebSocket upgrade included.
struct AccessMiddleware<Context: RequestContext>: RouterMiddleware {
    let access: AccessGuard
    let scheme: String
    /// Told the next link's token after one was exchanged.
    let linkChanged: @Sendable (String) -> Void

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let verdict = access.verdict(
            queryToken: request.uri.queryParameters.get("token"), cookies: request.headers[.cookie], origin: request.headers[.origin],
            host: request.head.authority, scheme: scheme,
            isWebSocket: request.headers[.upgrade]?.lowercased() == "websocket")
        switch verdict {
        case .allow:
            return try await next(request, context)
        case .exchangeToken(let cookie, let nextToken):
            linkChanged(nextToken)
            return Response(status: .seeOther, headers: [.location: "/", .setCookie: cookie, .cacheControl: "no-store"])
        case .goHome:
            return Response(status: .seeOther, headers: [.location: "/", .cacheControl: "no-store"])
        case .refuse(let status, let sentence):
            if request.uri.path.hasPrefix("/api/") || request.uri.path == "/audio" {
                return WebStudioServer.refusal(status, sentence)
            }
            return Response(
                status: .init(code: status), headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: sentence + "\n")))
        }
    }
}
