import func Foundation.cos
import func Foundation.sin

/// Converts mono samples from one rate to another by windowed-sinc interpolation, polyphase:
/// the recogniser's model wants 16 kHz, the articles record at 44.1 or 48 kHz.
///
/// Why this filter: speech recognition needs the band below the model's upper filter edge
/// (6.8 kHz for PocketSphinx's English model) kept flat and anything above 8 kHz kept out of it
/// (aliases would land inside the band the model listens to). A Blackman-windowed sinc with its
/// cutoff at 0.45 of the lower rate (7.2 kHz for 16 kHz) and 8 zero crossings each side does
/// both (stopband below −70 dB) for about 50 multiply-adds per output sample, a few percent of
/// the decoder's cost, and needs no library. A rate ratio reduced to L/M has L phases, each
/// precomputed and normalised to unit gain at DC.
///
/// Pure maths; any positive rates.
struct Resampler {
    let inputRate: Int
    let outputRate: Int
    private let up: Int  // L
    private let down: Int  // M
    private let halfTaps: Int
    private let table: [Float]  // up rows of 2 * halfTaps taps

    static let zeroCrossings = 8
    static let cutoff = 0.45

    init(from inputRate: Int, to outputRate: Int) {
        precondition(inputRate > 0 && outputRate > 0, "sample rates are positive")
        self.inputRate = inputRate
        self.outputRate = outputRate
        let divisor = Self.gcd(inputRate, outputRate)
        up = outputRate / divisor
        down = inputRate / divisor
        // The cutoff as a fraction of the input rate, and the kernel's reach in input samples.
        let cutoff = Self.cutoff * Double(min(inputRate, outputRate)) / Double(inputRate)
        let reach = Double(Self.zeroCrossings) / (2 * cutoff)
        halfTaps = Int(reach.rounded(.up))
        var table = [Float](repeating: 0, count: up * 2 * halfTaps)
        for phase in 0..<up {
            let fraction = Double(phase) / Double(up)
            var row = [Double](repeating: 0, count: 2 * halfTaps)
            for tap in 0..<(2 * halfTaps) {
                // Tap i weighs input sample k0 - halfTaps + 1 + i, at distance t from the output.
                let t = fraction + Double(halfTaps - 1 - tap)
                guard abs(t) < reach else { continue }
                let x = 2 * cutoff * t
                let sinc = x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
                let w = 0.42 + 0.5 * cos(Double.pi * t / reach) + 0.08 * cos(2 * Double.pi * t / reach)
                row[tap] = sinc * w
            }
            let sum = row.reduce(0, +)
            for tap in 0..<(2 * halfTaps) { table[phase * 2 * halfTaps + tap] = Float(row[tap] / sum) }
        }
        self.table = table
    }

    /// `samples` at the output rate; the same samples when the rates are equal.
    func callAsFunction(_ samples: [Float]) -> [Float] {
        guard inputRate != outputRate else { return samples }
        let count = samples.count * up / down
        var output = [Float](repeating: 0, count: count)
        let width = 2 * halfTaps
        samples.withUnsafeBufferPointer { input in
            table.withUnsafeBufferPointer { table in
                output.withUnsafeMutableBufferPointer { output in
                    for n in 0..<count {
                        let position = n * down
                        let centre = position / up
                        let phase = position % up
                        let first = centre - halfTaps + 1
                        var sum: Float = 0
                        let row = phase * width
                        if first >= 0, first + width <= input.count {
                            for tap in 0..<width { sum += input[first + tap] * table[row + tap] }
                        } else {
                            for tap in 0..<width where (0..<input.count).contains(first + tap) {
                                sum += input[first + tap] * table[row + tap]
                            }
                        }
                        output[n] = sum
                    }
                }
            }
        }
        return output
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
