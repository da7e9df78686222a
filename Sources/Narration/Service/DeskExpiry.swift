public import NarrationCore

/// A reading service's expiry while it runs: every article whose "listen until" has passed is
/// marked Expired (`DeskService.expireOverdue`, as `narrate desk expire` does) when the service
/// starts and then after each `interval`, until the task running it is cancelled (the server
/// stopping). A timer, not a thread: between passes the task sleeps.
public struct DeskExpiry: Sendable {
    public let desk: DeskService
    /// How long between passes.
    public let interval: Duration

    /// How often `narrate serve` expires articles: often enough that an article leaves its
    /// feeds within minutes of its "listen until", seldom enough to cost nothing.
    public static let serviceInterval = Duration.seconds(300)

    public init(desk: DeskService, interval: Duration = serviceInterval) {
        self.desk = desk
        self.interval = interval
    }

    /// Expires what is overdue now and after each interval, until cancelled.
    /// - Parameters:
    ///   - sleep: waits one interval (the task's clock; a test's hand); throws when cancelled.
    ///   - expired: told after each pass of the articles it expired, or of the desk's error (the
    ///     next pass tries again).
    public func run(
        sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        expired: @Sendable (Result<[DeskEntry], NarrationError>) -> Void = { _ in }
    ) async {
        repeat {
            do throws(NarrationError) {
                let desk = self.desk
                // SQLite: blocking work, off the concurrency pool.
                expired(.success(try await BlockingWork.run(named: "narrate-desk-expiry") { () throws(NarrationError) in try desk.expireOverdue() }))
            } catch {
                expired(.failure(error))
            }
            do {
                try await sleep(interval)
            } catch {
                return  // cancelled: the server is stopping
            }
        } while !Task.isCancelled
    }
}
