import Foundation

/// A reproducible random number generator (SplitMix64) for fuzzing and random fault injection.
/// The seed comes from `NARRATE_FUZZ_SEED` when set, else from the test's own fixed default, so
/// a failure found on one machine replays on another; each test prints the seed it used.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    public let seed: UInt64
    private var state: UInt64

    public init(default fallback: UInt64) {
        let environment = ProcessInfo.processInfo.environment["NARRATE_FUZZ_SEED"].flatMap { UInt64($0) }
        seed = environment ?? fallback
        state = seed
    }

    /// A generator of exactly `seed`, whatever the environment says: for signals that must be
    /// the same in every run (a test room's noise), not for fuzzing.
    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// `bytes` damaged the ways files get damaged: cut short, bytes overwritten, a run of
    /// bytes repeated or dropped, random bytes appended. Always changes something when it can.
    public mutating func mutate(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        for _ in 0..<Int.random(in: 1...4, using: &self) {
            switch Int.random(in: 0..<6, using: &self) {
            case 0 where !result.isEmpty:
                result = Array(result.prefix(Int.random(in: 0..<result.count, using: &self)))
            case 1 where !result.isEmpty:
                result[Int.random(in: 0..<result.count, using: &self)] = UInt8.random(in: 0...255, using: &self)
            case 2 where !result.isEmpty:
                let index = Int.random(in: 0..<result.count, using: &self)
                result[index] ^= UInt8(1) << UInt8.random(in: 0...7, using: &self)
            case 3 where result.count > 1:
                let start = Int.random(in: 0..<result.count - 1, using: &self)
                let end = Int.random(in: start + 1...min(result.count, start + 16), using: &self)
                result.insert(contentsOf: result[start..<end], at: end)
            case 4 where result.count > 1:
                let start = Int.random(in: 0..<result.count - 1, using: &self)
                result.removeSubrange(start..<min(result.count, start + Int.random(in: 1...16, using: &self)))
            default:
                result += (0..<Int.random(in: 1...32, using: &self)).map { _ in UInt8.random(in: 0...255, using: &self) }
            }
        }
        return result
    }
}
