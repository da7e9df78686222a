import Hummingbird
import HummingbirdWebSocket
import NarrationCore
import NIOCore

/// What the server knows of a request besides the request itself: the connection's remote
/// address, and in a reading service the signed-in account the middleware found for it.
struct StudioRequestContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<StudioRequestContext>
    /// The connection's peer, as NIO writes addresses.
    let peer: String?
    /// The client's address as the sign-in limit counts it (set by `ServiceMiddleware`: the
    /// peer, or the address a trusted proxy forwards).
    var client: String?
    /// Whether the browser reached the service over https (set by `ServiceMiddleware`).
    var secure = false
    /// Set by `ServiceMiddleware` for a request with a live session.
    var signedIn: SignedInRequest?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        peer = source.channel.remoteAddress?.ipAddress
        client = nil
        signedIn = nil
    }
}

/// A request's account and how it reached the service.
struct SignedInRequest: Sendable {
    let account: Account
    /// The session secret from the cookie (to check the session again later, and to end it).
    let token: String
    /// Whether the browser reached the service over https (the cookie's `Secure`).
    let secure: Bool
}
