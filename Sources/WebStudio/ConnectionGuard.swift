import HummingbirdCore
import Logging
import NIOCore
import NIOWebSocket
import Synchronization

/// Keeps connections that never make a request from starving the server: each connection must
/// deliver a whole request head within `headDeadline` of opening (an idle or slowloris connection
/// is closed), and `ConnectionTable` decides how many quiet connections one address may hold.
/// What follows the first request is Hummingbird's: its idle timeout closes a keep-alive
/// connection with no request, and a WebSocket's pings close a page that is gone.
///
/// One guard serves the whole server; `Watch` is its handler at the front of each connection's
/// pipeline (before TLS, so it never reads what it forwards).
final class ConnectionGuard: Sendable {
    /// How long a new connection has to send its first request head.
    let headDeadline: TimeAmount
    private let table: Mutex<(table: ConnectionTable, channels: [Int: any Channel], next: Int)>

    init(headDeadline: TimeAmount = .seconds(10), quietLimit: Int = 32, totalLimit: Int = 512) {
        self.headDeadline = headDeadline
        table = Mutex((ConnectionTable(quietLimit: quietLimit, totalLimit: totalLimit), [:], 0))
    }

    /// A connection opened: its id, or nil when it is refused. Evicted connections are closed.
    fileprivate func opened(_ channel: any Channel, from address: String) -> Int? {
        let (id, admission, evicted) = table.withLock { state in
            let id = state.next
            state.next += 1
            let admission = state.table.admit(id, from: address)
            let evicted = admission.evict.compactMap { state.channels.removeValue(forKey: $0) }
            if !admission.refuse { state.channels[id] = channel }
            return (id, admission, evicted)
        }
        for channel in evicted { channel.close(promise: nil) }
        return admission.refuse ? nil : id
    }

    fileprivate func spoke(_ id: Int, from address: String) {
        table.withLock { $0.table.spoke(id, from: address) }
    }

    fileprivate func closed(_ id: Int, from address: String) {
        table.withLock { state in
            state.table.closed(id, from: address)
            state.channels[id] = nil
        }
    }

    /// The handler that watches one connection.
    fileprivate final class Watch: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        typealias OutboundIn = IOData
        typealias OutboundOut = IOData

        private let owner: ConnectionGuard
        private var id: Int?
        private var address = ""
        private var hasSpoken = false
        private var deadline: Scheduled<Void>?

        init(owner: ConnectionGuard) {
            self.owner = owner
        }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { start(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            start(context)
            context.fireChannelActive()
        }

        private func start(_ context: ChannelHandlerContext) {
            guard id == nil, !hasSpoken else { return }
            address = context.channel.remoteAddress?.ipAddress ?? "unknown"
            guard let id = owner.opened(context.channel, from: address) else {
                hasSpoken = true  // nothing more to watch
                context.close(promise: nil)
                return
            }
            self.id = id
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: owner.headDeadline) { [self] in
                if !checkSpoken(context) { context.close(promise: nil) }
            }
        }

        func channelReadComplete(context: ChannelHandlerContext) {
            if !hasSpoken { _ = checkSpoken(context) }
            context.fireChannelReadComplete()
        }

        /// A WebSocket's head has been read before its upgrade (which waits for the route's
        /// checks), and an open page may never send again: the server's first frame to it
        /// finds the connection a WebSocket. Without this, a page would count as quiet until
        /// `headDeadline`, and pages opened together from one address (a reverse proxy's, or
        /// every page reconnecting after a restart) would close each other past `quietLimit`.
        /// A TLS handshake's writes find no HTTP or WebSocket handler yet, so they do not count.
        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if !hasSpoken { _ = checkSpoken(context) }
            context.write(data, promise: promise)
        }

        func channelInactive(context: ChannelHandlerContext) {
            deadline?.cancel()
            deadline = nil
            if let id { owner.closed(id, from: address) }
            id = nil
            context.fireChannelInactive()
        }

        /// Whether a whole request head has arrived: Hummingbird then has added its HTTP
        /// connection handler, or the connection has become a WebSocket.
        private func checkSpoken(_ context: ChannelHandlerContext) -> Bool {
            guard !hasSpoken else { return true }
            let pipeline = context.pipeline.syncOperations
            let http = (try? pipeline.context(handlerType: HTTPConnectionStateHandler.self)) != nil
            let webSocket = !http && (try? pipeline.context(handlerType: WebSocketFrameEncoder.self)) != nil
            guard http || webSocket else { return false }
            hasSpoken = true
            deadline?.cancel()
            deadline = nil
            if let id { owner.spoke(id, from: address) }
            return true
        }
    }
}

/// A child channel whose connections `ConnectionGuard` watches from the moment they open.
struct GuardedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let connectionGuard: ConnectionGuard

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(ConnectionGuard.Watch(owner: connectionGuard), position: .first)
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
