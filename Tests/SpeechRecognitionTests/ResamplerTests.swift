import Foundation
@testable import SpeechRecognition
import Testing

/// The conversion of takes to the recogniser's 16 kHz.
@Suite("Resampling to 16 kHz")
struct ResamplerTests {
    static func sine(_ frequency: Double, rate: Int, seconds: Double = 1) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { Float(0.5 * sin(2 * Double.pi * frequency * Double($0) / Double(rate))) }
    }

    static func rms(_ samples: ArraySlice<Float>) -> Double {
        (samples.reduce(0) { $0 + Double($1 * $1) } / Double(samples.count)).squareRoot()
    }

    @Test("speech frequencies pass unchanged and what would alias is removed", arguments: [44_100, 48_000, 22_050])
    func passAndStop(rate: Int) {
        let resample = Resampler(from: rate, to: 16_000)
        let kept = resample(Self.sine(1000, rate: rate))
        #expect(kept.count == 16_000)
        #expect(abs(Self.rms(kept[1000..<15_000]) - 0.5 / 2.0.squareRoot()) < 0.005)
        let stopped = resample(Self.sine(10_000, rate: rate))
        #expect(Self.rms(stopped[1000..<15_000]) < 0.5 / 2.0.squareRoot() * 0.001)  // below −60 dB
    }

    @Test("16 kHz is passed through as it is")
    func sameRate() {
        let samples = Self.sine(440, rate: 16_000, seconds: 0.1)
        #expect(Resampler(from: 16_000, to: 16_000)(samples) == samples)
    }
}
