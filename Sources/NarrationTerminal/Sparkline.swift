public import NarrationCore

/// A one-line picture of a chunk's level over time, in block characters: `▁▂▃▅▇█▆▃▁`.
public enum Sparkline {
    private static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    /// Levels at or below this draw the lowest block; 0 dBFS draws the highest.
    public static let floor = Decibels(-60)

    /// `levels` (one per equal stretch, in order) drawn in exactly `width` columns: stretches
    /// are merged (loudest wins) or repeated to fit. Empty levels draw as blank.
    public static func render(_ levels: [Decibels], width: Int) -> String {
        guard width > 0 else { return "" }
        guard !levels.isEmpty else { return String(repeating: " ", count: width) }
        var text = ""
        for column in 0..<width {
            let start = column * levels.count / width
            let end = max(start + 1, (column + 1) * levels.count / width)
            let loudest = levels[start..<min(end, levels.count)].max() ?? .silence
            text.append(block(for: loudest))
        }
        return text
    }

    static func block(for level: Decibels) -> Character {
        let fraction = (min(0, max(floor.value, level.value)) - floor.value) / -floor.value
        return blocks[min(blocks.count - 1, Int(fraction * Double(blocks.count)))]
    }
}
