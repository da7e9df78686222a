import func Foundation.pow

/// Scales left-justified samples, rounding to the nearest value the format can hold (a 16-bit
/// sample s at gain g becomes round(s × g), not a truncation) and clamping at full scale.
public struct SampleGain: Sendable, Equatable {
    public let linear: Double

    public init(linear: Double) { self.linear = linear }
    public init(decibels: Double) { self.linear = pow(10, decibels / 20) }

    public var isUnity: Bool { linear == 1 }

    public func apply(to samples: UnsafeMutableBufferPointer<Int32>, bitsPerSample: Int) {
        guard !isUnity else { return }
        let step = Double(1 << (32 - bitsPerSample))
        let highest = Double(Int32.max) - step + 1
        for index in samples.indices {
            let scaled = ((Double(samples[index]) / step * linear).rounded() * step)
            samples[index] = Int32(max(Double(Int32.min), min(highest, scaled)))
        }
    }
}
