import func Foundation.log10
import func Foundation.pow

/// A level in decibels relative to full scale (dBFS). Silence is −160 dB, as AVAudioRecorder reports it.
public struct Decibels: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The floor reported for digital silence.
    public static let silence = Decibels(-160)

    public let value: Double

    public init(_ value: Double) { self.value = value }

    /// The level of a linear amplitude where 1.0 is full scale; `silence` at or below 10⁻⁸.
    public init(amplitude: Double) {
        self.value = amplitude > 1e-8 ? max(20 * log10(amplitude), Self.silence.value) : Self.silence.value
    }

    /// The linear amplitude (1.0 is full scale).
    public var amplitude: Double { pow(10, value / 20) }

    public static func < (lhs: Decibels, rhs: Decibels) -> Bool { lhs.value < rhs.value }

    /// "-6.0 dBFS"
    public var description: String { "\(formatted) dBFS" }

    /// One decimal, e.g. "-6.0"; "-inf" for silence.
    public var formatted: String {
        value <= Self.silence.value ? "-inf" : String(format1: value)
    }
}

extension String {
    /// `value` with exactly one decimal, without Foundation's locale-dependent formatting.
    /// Values no measurement makes (beyond ±10¹⁵, infinite, NaN) read as "inf", "-inf" or "nan".
    init(format1 value: Double) {
        guard value.isFinite, abs(value) < 1e15 else {
            self = value.isNaN ? "nan" : value < 0 ? "-inf" : "inf"
            return
        }
        let tenths = (value * 10).rounded()
        let sign = tenths < 0 ? "-" : ""
        let magnitude = Int(abs(tenths))
        self = "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }
}
