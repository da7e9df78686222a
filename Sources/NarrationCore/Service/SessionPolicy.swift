public import Foundation

/// How long a signed-in session lasts: it ends after `idleTimeout` without a request, and in
/// any case `lifetime` after sign-in, when the person signs in again.
public struct SessionPolicy: Sendable, Equatable {
    public var idleTimeout: TimeInterval
    public var lifetime: TimeInterval

    /// An hour idle (a long take keeps its page talking to the server), twelve hours at most:
    /// one working day, never a stolen cookie that works for weeks.
    public init(idleTimeout: TimeInterval = 60 * 60, lifetime: TimeInterval = 12 * 60 * 60) {
        self.idleTimeout = idleTimeout
        self.lifetime = lifetime
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
