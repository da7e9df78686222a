import func Foundation.ceil

/// The colour band of a meter segment: green below 0.5, yellow below 0.8, red above.
public enum MeterBand: Sendable, Equatable {
    case green, yellow, red

    public init(level: Double) {
        self = level < 0.5 ? .green : level < 0.8 ? .yellow : .red
    }
}

/// A 20-segment level meter with peak hold, rendered as text.
///
/// Pure state: feed it levels with `update(average:peak:at:)`, read `segments` or `render()`.
/// The held peak stays for `holdSeconds`, then falls to the current peak.
public struct MeterDisplay: Sendable, Equatable {
    public static let segmentCount = 20

    public let table: MeterTable
    public let holdSeconds: Double
    public private(set) var averageLevel: Double = 0
    public private(set) var peakLevel: Double = 0
    public private(set) var heldPeakLevel: Double = 0
    private var heldSince: Double = 0

    public init(table: MeterTable = MeterTable(), holdSeconds: Double = 1.5) {
        self.table = table
        self.holdSeconds = holdSeconds
    }

    /// Takes the levels of the latest stretch; `time` is seconds on any monotonic clock.
    public mutating func update(average: Decibels, peak: Decibels, at time: Double) {
        averageLevel = table.level(average)
        peakLevel = table.level(peak)
        if peakLevel >= heldPeakLevel || time - heldSince > holdSeconds {
            heldPeakLevel = peakLevel
            heldSince = time
        }
    }

    /// Takes per-channel levels: the meter shows the loudest channel.
    public mutating func update(levels: [ChannelLevel], at time: Double) {
        update(average: levels.map(\.average).max() ?? .silence, peak: levels.map(\.peak).max() ?? .silence, at: time)
    }

    /// How many segments the average lights.
    public var litSegments: Int { Int((averageLevel * Double(Self.segmentCount)).rounded()) }

    /// The segment (0-based) that shows the held peak, if any.
    public var heldSegment: Int? {
        guard heldPeakLevel > 0 else { return nil }
        return min(Self.segmentCount - 1, max(0, Int(ceil(heldPeakLevel * Double(Self.segmentCount))) - 1))
    }

    /// The band of segment `index` (0-based).
    public static func band(ofSegment index: Int) -> MeterBand {
        MeterBand(level: (Double(index) + 0.5) / Double(segmentCount))
    }

    /// The meter as text: `█` lit, `·` unlit, `|` the held peak. With `colour`, ANSI colours by band.
    public func render(colour: Bool) -> String {
        var text = ""
        var currentBand: MeterBand?
        for index in 0..<Self.segmentCount {
            let glyph: Character = index < litSegments ? "█" : index == heldSegment ? "|" : "·"
            if colour {
                let band = Self.band(ofSegment: index)
                if band != currentBand {
                    text += band == .green ? "\u{1B}[32m" : band == .yellow ? "\u{1B}[33m" : "\u{1B}[31m"
                    currentBand = band
                }
            }
            text.append(glyph)
        }
        if colour { text += "\u{1B}[0m" }
        return text
    }
}
