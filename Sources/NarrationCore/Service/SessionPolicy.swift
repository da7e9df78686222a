public import Foundation

/// How long a signed-in session lasts: it ends after `idleTimeout` without a request, and in
/// any case `lifetime` after sign-in, when the person signs in again.
public struct SessionPolicy: Sendable, Equatable {
    public var idleTimeout: TimeInterval
    public var lifetime: TimeInterval
    /// A session's last use is written at most this often (or a tenth of `idleTimeout`, when
    /// that is shorter): each signed-in request would otherwise be a write to the catalog (on
    /// PostgreSQL, a commit forced to disk), and a session may then go idle up to this much early.
    public var touchInterval: TimeInterval = 60

    /// An hour idle (a long take keeps its page talking to the server), twelve hours at most:
    /// one working day, never a stolen cookie that works for weeks.
    public init(idleTimeout: TimeInterval = 60 * 60, lifetime: TimeInterval = 12 * 60 * 60) {
        self.idleTimeout = idleTimeout
        self.lifetime = lifetime
    }

    /// Whether a use at `now` of a session last written as used at `lastSeenAt` is written too.
    public func touches(lastSeenAt: Date, now: Date) -> Bool {
        now.timeIntervalSince(lastSeenAt) >= min(touchInterval, idleTimeout / 10)
    }

    /// Whether a session begun at `createdAt` and last used at `lastSeenAt` still holds at `now`.
    public func verdict(createdAt: Date, lastSeenAt: Date, now: Date) -> SessionVerdict {
        if now.timeIntervalSince(createdAt) >= lifetime { return .tooOld }
        if now.timeIntervalSince(lastSeenAt) >= idleTimeout { return .idle }
        return .live
    }
}

/// What a session's times say about it.
public enum SessionVerdict: Sendable, Equatable {
    case live
    /// Unused for longer than the idle timeout.
    case idle
    /// Begun longer ago than the lifetime.
    case tooOld
}
