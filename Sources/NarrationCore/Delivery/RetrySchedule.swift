/// Waits between attempts at a delivery that failed for a reason that may pass (the storage
/// unreachable or busy, a dropped connection): doubling from `first`, never above `limit`, and
/// at most `attempts` tries in all.
public struct RetrySchedule: Sendable, Equatable {
    public let attempts: Int
    public let first: Double
    public let limit: Double

    public init(attempts: Int = 4, first: Double = 1, limit: Double = 30) {
        precondition(attempts >= 1 && first >= 0 && limit >= first, "a schedule tries at least once and waits no less than nothing")
        self.attempts = attempts
        self.first = first
        self.limit = limit
    }

    /// Seconds to wait before retry number `retry` (1 for the second attempt); nil once the
    /// attempts are spent.
    public func delay(beforeRetry retry: Int) -> Double? {
        guard retry >= 1, retry < attempts else { return nil }
        return min(limit, first * Double(1 << min(retry - 1, 30)))
    }
}
