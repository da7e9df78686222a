public import Foundation

/// A narrator in a noisy room, for the noise-reduction tests: real human speech (three LibriVox
/// utterances in `Tests/Fixtures/librivox`, public domain, see SOURCE.txt there) with pauses,
/// over synthetic fan noise made from a seed (the noise-reduction study's "fan": pink above
/// 300 Hz, rising below it, rolling off above 6 kHz, a 180 Hz fan tone with a slight wobble and
/// 50 Hz hum with harmonics). No freely licensed recording of a real room was at hand.
public enum NoisyRoom {
    /// The utterances, in the order the article reads them.
    public static let utterances = ["0880", "0890", "0930"].map { "librivox/sense_and_sensibility_01_austen_64kb-\($0).flac" }

    /// A fixture file of `Tests/Fixtures`.
    public static func fixture(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
    }

    /// Utterance `index` at `sampleRate` (converted by sox), full scale 1.
    public static func utterance(_ index: Int, sampleRate: Int = 44_100) throws -> [Double] {
        let folder = TemporaryFolder("narrate-utterance")
        let raw = folder.file("speech.f32")
        try Signals.run("sox", [fixture(utterances[index]).path, "-r", "\(sampleRate)", "-e", "floating-point", "-b", "32", "-t", "raw", raw.path])
        let data = try Data(contentsOf: raw)
        return data.withUnsafeBytes { bytes in bytes.bindMemory(to: Float.self).map(Double.init) }
    }

    /// Fan noise of `seconds` at `sampleRate`, reproducible from `seed`, scaled so that its noise
    /// floor (the quietest 500 ms of 100 ms windows) is `floor` dBFS.
    public static func fan(seconds: Double, sampleRate: Int = 44_100, seed: UInt64, floor: Double) -> [Double] {
        let count = Int(seconds * Double(sampleRate))
        var random = SeededGenerator(seed: seed)
        func gaussian() -> Double {
            let u = Double(random.next() >> 11 + 1) / 9_007_199_254_740_993, v = Double(random.next() >> 11) / 9_007_199_254_740_992
            return sqrt(-2 * log(u)) * cos(2 * Double.pi * v)
        }
        let rate = Double(sampleRate)
        func onePole(_ cutoff: Double) -> Double { exp(-2 * Double.pi * cutoff / rate) }
        let low = onePole(300), high = onePole(6_000)
        // Paul Kellet's pink filter, plus white noise low-passed at 300 Hz for the rising bottom,
        // then two one-pole low-passes at 6 kHz for the room's absorption.
        var b = [Double](repeating: 0, count: 7)
        var rumble = 0.0, first = 0.0, second = 0.0
        var broadband = [Double](repeating: 0, count: count)
        for index in 0..<count {
            let white = gaussian()
            b[0] = 0.99886 * b[0] + white * 0.0555179
            b[1] = 0.99332 * b[1] + white * 0.0750759
            b[2] = 0.96900 * b[2] + white * 0.1538520
            b[3] = 0.86650 * b[3] + white * 0.3104856
            b[4] = 0.55000 * b[4] + white * 0.5329522
            b[5] = -0.7616 * b[5] - white * 0.0168980
            let pink = b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + white * 0.5362
            b[6] = white * 0.115926
            rumble = low * rumble + (1 - low) * gaussian() * 12
            first = high * first + (1 - high) * (pink + rumble)
            second = high * second + (1 - high) * first
            broadband[index] = second
        }
        let rms = sqrt(broadband.reduce(0) { $0 + $1 * $1 } / Double(max(1, count)))
        let phases = (0..<5).map { _ in Double(random.next() % 6_283) / 1_000 }
        let hum: [(harmonic: Double, amplitude: Double)] = [(1, 0.25), (2, 0.12), (3, 0.18), (5, 0.08), (7, 0.04)]
        var noise = [Double](repeating: 0, count: count)
        for index in 0..<count {
            let time = Double(index) / rate
            var value = broadband[index] / rms
            for (position, tone) in hum.enumerated() { value += tone.amplitude * sin(2 * Double.pi * 50 * tone.harmonic * time + phases[position]) }
            value += 0.15 * sin(2 * Double.pi * (180 * time + 0.5 * sin(2 * Double.pi * 0.3 * time)))
            noise[index] = value
        }
        let scale = pow(10, (floor - noiseFloor(noise, sampleRate: sampleRate)) / 20)
        return noise.map { $0 * scale }
    }

    /// The noise floor as `check` measures it: the RMS of the quietest five consecutive 100 ms
    /// windows, in dBFS.
    public static func noiseFloor(_ samples: [Double], sampleRate: Int = 44_100) -> Double {
        let size = sampleRate / 10
        var powers: [Double] = []
        for start in stride(from: 0, to: samples.count - size + 1, by: size) {
            var sum = 0.0
            for sample in samples[start..<(start + size)] { sum += sample * sample }
            powers.append(sum / Double(size))
        }
        guard powers.count >= 5 else { return -160 }
        var quietest = Double.infinity
        for first in 0...(powers.count - 5) {
            let mean: Double = powers[first..<(first + 5)].reduce(0, +) / 5
            quietest = min(quietest, mean)
        }
        return 10 * log10(max(quietest, 1e-16))
    }

    /// RMS in dBFS.
    public static func rms(_ samples: [Double]) -> Double {
        10 * log10(max(1e-16, samples.reduce(0) { $0 + $1 * $1 } / Double(max(1, samples.count))))
    }

    /// The narrator's reading without the room, as its chunks (mono, full scale 1): 1.5 s of
    /// silence and utterance 1, then utterance 2, then utterance 3 and 1 s of silence, with 0.8 s
    /// pauses after the first two; brought to an RMS of −20 dBFS over the whole (its peaks held at
    /// −1.5 dBFS).
    public static func reading(sampleRate: Int = 44_100) throws -> [[Double]] {
        let silence = { (seconds: Double) in [Double](repeating: 0, count: Int(seconds * Double(sampleRate))) }
        let chunks = [
            silence(1.5) + (try utterance(0, sampleRate: sampleRate)) + silence(0.8),
            (try utterance(1, sampleRate: sampleRate)) + silence(0.8),
            (try utterance(2, sampleRate: sampleRate)) + silence(1.0),
        ]
        let speech = chunks.flatMap { $0 }
        let peak = speech.map(abs).max() ?? 1
        let gain = min(pow(10, (-20 - rms(speech)) / 20), pow(10, -1.5 / 20) / peak)
        return chunks.map { $0.map { $0 * gain } }
    }

    /// `chunks` in this room: fan noise with a floor of `floor` dBFS added, one continuous room
    /// across the chunks.
    public static func inRoom(_ chunks: [[Double]], sampleRate: Int = 44_100, floor: Double = -44, seed: UInt64 = 45) -> [[Double]] {
        let total = chunks.reduce(0) { $0 + $1.count }
        let noise = fan(seconds: Double(total) / Double(sampleRate) + 1, sampleRate: sampleRate, seed: seed, floor: floor)
        var offset = 0
        return chunks.map { chunk in
            defer { offset += chunk.count }
            return chunk.enumerated().map { $0.element + noise[offset + $0.offset] }
        }
    }

    /// The reading in a room whose noise floor is `floor`, as its chunks.
    public static func article(sampleRate: Int = 44_100, floor: Double = -44, seed: UInt64 = 45) throws -> [[Double]] {
        inRoom(try reading(sampleRate: sampleRate), sampleRate: sampleRate, floor: floor, seed: seed)
    }

    /// `samples` (full scale 1) as 16-bit left-justified `Int32` samples.
    public static func int32(_ samples: [Double]) -> [Int32] {
        samples.map { Int32(max(-32_768, min(32_767, ($0 * 32_768).rounded()))) << 16 }
    }
}
