import Foundation
import NarrationCore
import NarrationTestSupport
import Testing

/// The sign-in limit under brute force, on a clock the test moves by hand.
@Suite("Login rate limit: it holds, and the window passes")
struct LoginRateLimitTests {
    @Test("10 000 guesses at one account from many addresses: 5 are checked in the window, the rest wait")
    func accountLimitHolds() {
        let clock = HandClock()
        var limit = LoginRateLimit(clock: clock.function)
        var checked = 0
        for guess in 0..<10_000 {
            if limit.attempt(account: "ann", address: "198.51.100.\(guess % 250)") == .allowed { checked += 1 }
        }
        #expect(checked == 5)
        #expect(limit.attempt(account: "ann", address: "203.0.113.9") == .wait(until: clock.date.addingTimeInterval(15 * 60)))
        // Another account is not held back by ann's guesser (from a fresh address).
        #expect(limit.attempt(account: "bob", address: "203.0.113.9") == .allowed)
    }

    @Test("one address guessing many names: 20 are checked in the window")
    func addressLimitHolds() {
        let clock = HandClock()
        var limit = LoginRateLimit(clock: clock.function)
        let checked = (0..<1000).filter { limit.attempt(account: "name\($0)", address: "198.51.100.7") == .allowed }.count
        #expect(checked == 20)
    }

    @Test("the owner is not locked out for good: after the window the account may try again, and a success forgives")
    func windowPasses() {
        let clock = HandClock()
        var limit = LoginRateLimit(clock: clock.function)
        for _ in 0..<5 { #expect(limit.attempt(account: "ann", address: "198.51.100.1") == .allowed) }
        #expect(limit.attempt(account: "ann", address: "192.0.2.1") != .allowed)
        clock.advance(15 * 60 - 1)
        #expect(limit.attempt(account: "ann", address: "192.0.2.1") != .allowed)
        clock.advance(1)
        #expect(limit.attempt(account: "ann", address: "192.0.2.1") == .allowed)
        limit.succeeded(account: "ann", address: "192.0.2.1")
        for _ in 0..<5 { #expect(limit.attempt(account: "ann", address: "192.0.2.1") == .allowed) }
    }

    @Test("a sliding window: failures spread out leave room as each one ages")
    func sliding() {
        let clock = HandClock()
        var limit = LoginRateLimit(clock: clock.function)
        for _ in 0..<5 {
            #expect(limit.attempt(account: "ann", address: "a") == .allowed)
            clock.advance(60)
        }
        // The first failure, 5 minutes ago, frees its place 10 minutes from now.
        #expect(limit.attempt(account: "ann", address: "a") == .wait(until: clock.date.addingTimeInterval(10 * 60)))
        clock.advance(10 * 60)
        #expect(limit.attempt(account: "ann", address: "a") == .allowed)
        #expect(limit.attempt(account: "ann", address: "a") == .wait(until: clock.date.addingTimeInterval(60)))
    }

    @Test("a flood of made-up names keeps memory bounded by the policy's maximum")
    func bounded() {
        let clock = HandClock()
        var limit = LoginRateLimit(policy: .init(failuresPerAddress: 1_000_000, maximumKeys: 1000), clock: clock.function)
        var most = 0
        for index in 0..<5000 {
            _ = limit.attempt(account: "made-up-\(index)", address: "a")
            most = max(most, limit.trackedKeys)
        }
        #expect(most == 1000)
    }
}

/// Sessions' idle timeout and lifetime.
@Suite("Session policy: idle timeout and absolute lifetime")
struct SessionPolicyTests {
    @Test("live within both limits; idle after an hour unused; too old after twelve hours however busy")
    func verdicts() {
        let policy = SessionPolicy()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(policy.verdict(createdAt: start, lastSeenAt: start, now: start.addingTimeInterval(3599)) == .live)
        #expect(policy.verdict(createdAt: start, lastSeenAt: start, now: start.addingTimeInterval(3600)) == .idle)
        let busy = start.addingTimeInterval(12 * 3600 - 10)
        #expect(policy.verdict(createdAt: start, lastSeenAt: busy, now: busy.addingTimeInterval(9)) == .live)
        #expect(policy.verdict(createdAt: start, lastSeenAt: busy, now: busy.addingTimeInterval(10)) == .tooOld)
    }
}
