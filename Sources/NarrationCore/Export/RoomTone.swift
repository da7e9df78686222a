import Foundation

/// What room tone is, for the exporter that adds it and for `check` that measures it: one
/// definition, so that an export's room tone is what `check` finds there.
///
/// Room tone is the recording's own background, the sound of the room where nobody speaks. Its
/// sample is the recording's quietest 500 ms (five consecutive 100 ms windows: the noise floor's
/// stretch), which the exporter repeats at the head and the tail. A 100 ms window is room tone
/// when its RMS is at most `margin` above that noise floor.
///
/// Why relative to the floor and not a fixed level (`check` used to count windows below −50
/// dBFS): a real room at −44 dB is never below −50 dBFS, so a fixed threshold finds no room tone
/// where 2.75 s were added; and the mastering gain moves the floor and the room tone together,
/// so the exporter (before the gain) and `check` (after it) agree only on a relative measure.
public enum RoomTone {
    /// The length of the stretch the exporter repeats.
    public static let sampleSeconds = 0.5
    /// How far above the noise floor a window may be and still be room tone. The windows of a
    /// steady room's quietest 500 ms lie within a dB or two of their mean; speech lies 20 dB and
    /// more above it.
    public static let margin = 6.0

    /// The RMS level at or below which a 100 ms window is room tone, for a recording whose noise
    /// floor (its quietest 500 ms) is `noiseFloor`.
    public static func threshold(noiseFloor: Decibels) -> Decibels { Decibels(noiseFloor.value + margin) }

    /// Whether a window of mean square `power` (linear) is room tone.
    public static func isRoomTone(power: Double, noiseFloor: Decibels) -> Bool {
        power <= pow(10, threshold(noiseFloor: noiseFloor).value / 10)
    }

    /// How many windows of `powers` from the start are room tone.
    public static func leadingWindows(_ powers: some Collection<Double>, noiseFloor: Decibels) -> Int {
        powers.prefix { isRoomTone(power: $0, noiseFloor: noiseFloor) }.count
    }
}
