public import Foundation
import Synchronization

/// A clock that stands still until a test moves it: for expiries, timeouts and rate limits
/// without waiting.
public final class HandClock: Sendable {
    private let now: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { now = Mutex(start) }

    public var date: Date { now.withLock { $0 } }

    public func advance(_ seconds: TimeInterval) { now.withLock { $0 += seconds } }

    /// The clock as the engine takes it.
    public var function: @Sendable () -> Date { { [self] in date } }
}
