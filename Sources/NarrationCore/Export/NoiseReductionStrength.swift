import Foundation

/// Whether an export reduces the room's noise, and by how many dB: enough that the made file's
/// noise floor lands 6 dB under the profile's limit, as the noise-reduction study worked it out
/// (`nr-study/REPORT.md` §6.1).
///
/// The mastering gain raises the noise with the voice, so what matters is the floor after the
/// gain: `floor + gain`. Within 3 dB of the limit or above it, the reduction is
/// `ceil(floor + gain − limit + 6)` dB, at least 12 (less is not worth the gate's slight dulling
/// of the voice) and at most 30 (beyond that the voice suffers: PESQ-WB fell to 3.08 at 30 dB). The
/// 6 dB margin covers pauses that sit up to 4 dB above the quietest half second, and the gain
/// going up a little to make up for the level the gate takes off the voice. A room that would
/// need more than 30 dB still gets 30, and the file's check says it is too noisy to clean.
public struct NoiseReductionStrength: Sendable, Equatable {
    public static let least = 12.0
    public static let most = 30.0
    /// How far under the limit the floor is aimed at.
    public static let margin = 6.0
    /// A floor this close to the limit (or above it) is reduced.
    public static let closeness = 3.0

    /// The reduction applied, in dB (12…30).
    public let decibels: Double
    /// What the room would have needed: more than `decibels` when it is too noisy to clean.
    public let needed: Double

    /// The reduction for a recording whose noise floor is `floor` and that the export raises by
    /// `gain` dB, under a profile whose noise floor must be at most `limit`; nil when the profile
    /// has no noise-floor rule or the floor is clear of it.
    public init?(floor: Decibels, gain: Double, limit: Decibels?) {
        guard let limit, floor > .silence else { return nil }
        let after = floor.value + gain
        guard after > limit.value - Self.closeness else { return nil }
        needed = (after - limit.value + Self.margin).rounded(.up)
        decibels = min(Self.most, max(Self.least, needed))
    }

    /// Whether the room needs more reduction than the gate gives.
    public var tooNoisy: Bool { needed > decibels }
}
