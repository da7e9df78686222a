public import Foundation

/// How many wrong passphrases are allowed before sign-in waits: per account, so that a guesser
/// spread over many addresses gets a few tries an hour at one account, and per address, so that
/// one guesser gets a few tries an hour at all accounts together.
///
/// Pure: the time comes from the injected clock, and nothing is kept outside the value. Only
/// failures count; a refused attempt is not checked and not counted, so the limit holds however
/// fast the guesses come. The owner is never locked out for good: a failure stops counting once
/// it is older than the window, and a successful sign-in clears the account's failures. While
/// guesses keep coming at the account's limit, its owner must wait out the window too: the
/// price of a limit that holds.
public struct LoginRateLimit: Sendable {
    /// The numbers of the limit.
    public struct Policy: Sendable, Equatable {
        public var failuresPerAccount: Int
        public var failuresPerAddress: Int
        public var window: TimeInterval
        /// The most keys (accounts and addresses) remembered; beyond it the oldest are dropped,
        /// so that a flood of made-up names or addresses cannot fill the memory.
        public var maximumKeys: Int

        public init(failuresPerAccount: Int = 5, failuresPerAddress: Int = 20, window: TimeInterval = 15 * 60, maximumKeys: Int = 100_000) {
            self.failuresPerAccount = failuresPerAccount
            self.failuresPerAddress = failuresPerAddress
            self.window = window
            self.maximumKeys = maximumKeys
        }
    }

    /// Whether a sign-in may be tried now.
    public enum Verdict: Sendable, Equatable {
        case allowed
        /// Too many failures: try again at that time.
        case wait(until: Date)
    }

    private enum Key: Hashable, Sendable {
        case account(String)
        case address(String)
    }

    public let policy: Policy
    private let clock: @Sendable () -> Date
    private var failures: [Key: [Date]] = [:]

    /// How many accounts and addresses have failures remembered (never more than the policy's maximum).
    public var trackedKeys: Int { failures.count }

    public init(policy: Policy = Policy(), clock: @escaping @Sendable () -> Date = { Date() }) {
        self.policy = policy
        self.clock = clock
    }

    /// Whether a sign-in as `account` from `address` may be checked now; when it may, the
    /// attempt counts as a failure until `succeeded` says otherwise, so that attempts checked
    /// at the same time cannot together pass the limit. `account` is the name as typed (it need
    /// not exist: made-up names are limited like real ones).
    public mutating func attempt(account: String, address: String) -> Verdict {
        let now = clock()
        var until: Date?
        for (key, limit) in [(Key.account(account), policy.failuresPerAccount), (.address(address), policy.failuresPerAddress)] {
            forgetOld(of: key, before: now)
            if let times = failures[key], times.count >= limit {
                let free = times[times.count - limit].addingTimeInterval(policy.window)
                until = max(until ?? free, free)
            }
        }
        if let until { return .wait(until: until) }
        for key in [Key.account(account), .address(address)] { failures[key, default: []].append(now) }
        if failures.count > policy.maximumKeys { forgetOldest(now: now) }
        return .allowed
    }

    /// The attempt's passphrase was right: the account's failures are forgiven, and the
    /// attempt no longer counts against the address (its other failures still do).
    public mutating func succeeded(account: String, address: String) {
        failures[.account(account)] = nil
        if var times = failures[.address(address)], !times.isEmpty {
            times.removeLast()
            failures[.address(address)] = times.isEmpty ? nil : times
        }
    }

    /// Old failures forgotten, then the keys least recently failed until nine tenths of
    /// `maximumKeys` remain (so that the sorting is rare). Evicting a key forgets its failures;
    /// a guesser needs more than `maximumKeys` / `failuresPerAddress` addresses to force it.
    private mutating func forgetOldest(now: Date) {
        forgetOld(before: now)
        let excess = failures.count - policy.maximumKeys * 9 / 10
        guard excess > 0 else { return }
        for (key, _) in failures.sorted(by: { ($0.value.last ?? now) < ($1.value.last ?? now) }).prefix(excess) { failures[key] = nil }
    }

    private mutating func forgetOld(of key: Key, before now: Date) {
        guard let times = failures[key] else { return }
        let recent = times.filter { $0 > now.addingTimeInterval(-policy.window) }
        failures[key] = recent.isEmpty ? nil : recent
    }

    /// Every key's old failures forgotten: only when the keys are too many, so that an attempt
    /// costs no more than its own two keys.
    private mutating func forgetOld(before now: Date) {
        let horizon = now.addingTimeInterval(-policy.window)
        failures = failures.compactMapValues { times in
            let recent = times.filter { $0 > horizon }
            return recent.isEmpty ? nil : recent
        }
    }
}
