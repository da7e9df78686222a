import Foundation
public import NarrationCore

extension SpeechFrames {
    /// Mel-frequency cepstra of `samples` (mono, full scale 1.0): 25 ms Hamming windows every
    /// 10 ms, 26 mel bands from 100 Hz to 7.6 kHz (or the Nyquist frequency), coefficients 1–12
    /// of their logarithms' cosine transform (the 0th, the level, is left out), each less its
    /// mean over the take, so that two readings of the same words by one voice lie close
    /// whatever the level or the microphone.
    ///
    /// The usual features of speech recognisers, computed here rather than taken from
    /// PocketSphinx because its front end's header is not in Debian's development package.
    public init(cepstraOf samples: [Float], sampleRate: Int) {
        precondition(sampleRate > 0, "a sample rate is positive")
        let hop = max(1, Int((0.010 * Double(sampleRate)).rounded()))
        let window = max(2, Int((0.025 * Double(sampleRate)).rounded()))
        var size = 16
        while size < window { size *= 2 }
        let dimensions = 12, bands = 26
        let frames = samples.count >= window ? (samples.count - window) / hop + 1 : 0
        guard frames > 0 else {
            self.init(frameSeconds: 0.010, dimensions: dimensions, values: [])
            return
        }
        let fft = RealFFT(size: size)
        let hamming = (0..<window).map { Float(0.54 - 0.46 * cos(2 * Double.pi * Double($0) / Double(window - 1))) }
        // Triangular mel filters over the FFT's bins.
        func mel(_ hertz: Double) -> Double { 2595 * log10(1 + hertz / 700) }
        func hertz(_ mel: Double) -> Double { 700 * (pow(10, mel / 2595) - 1) }
        let low = mel(100), high = mel(min(7600, Double(sampleRate) / 2))
        let edges = (0...(bands + 1)).map { hertz(low + (high - low) * Double($0) / Double(bands + 1)) * Double(size) / Double(sampleRate) }
        var filters: [[(bin: Int, weight: Float)]] = []
        for band in 0..<bands {
            let (left, centre, right) = (edges[band], edges[band + 1], edges[band + 2])
            var filter: [(bin: Int, weight: Float)] = []
            for bin in Int(left.rounded(.up))...min(fft.bins - 1, Int(right.rounded(.down))) {
                let position = Double(bin)
                let weight = position <= centre ? (position - left) / (centre - left) : (right - position) / (right - centre)
                if weight > 0 { filter.append((bin, Float(weight))) }
            }
            filters.append(filter)
        }
        let cosines = (1...dimensions).map { k in (0..<bands).map { Float(cos(Double.pi * Double(k) * (Double($0) + 0.5) / Double(bands))) } }
        var logEnergies = [Float](repeating: 0, count: frames * bands)
        for frame in 0..<frames {
            let start = frame * hop
            var previous = start > 0 ? samples[start - 1] : 0
            for index in 0..<window {
                let sample = samples[start + index]
                fft.signal[index] = (sample - 0.97 * previous) * hamming[index]
                previous = sample
            }
            for index in window..<size { fft.signal[index] = 0 }
            fft.forward()
            for band in 0..<bands {
                var energy: Float = 0
                for (bin, weight) in filters[band] {
                    let real = fft.spectrum[2 * bin], imaginary = fft.spectrum[2 * bin + 1]
                    energy += weight * (real * real + imaginary * imaginary)
                }
                logEnergies[frame * bands + band] = log(energy + 1e-20)
            }
        }
        // Nothing below 50 dB under the take's loudest band counts: silence and faint hiss
        // become a flat spectrum, whose cepstra are all 0; the mean is of the other frames.
        let floor = (logEnergies.max() ?? 0) - Float(50 * log(10.0) / 10)
        var values = [Float](repeating: 0, count: frames * dimensions)
        var sounding: [Int] = []
        var mean = [Float](repeating: 0, count: dimensions)
        for frame in 0..<frames {
            var heard = false
            for band in 0..<bands {
                let index = frame * bands + band
                if logEnergies[index] > floor { heard = true } else { logEnergies[index] = floor }
            }
            guard heard else { continue }
            sounding.append(frame)
            for k in 0..<dimensions {
                var sum: Float = 0
                for band in 0..<bands { sum += cosines[k][band] * logEnergies[frame * bands + band] }
                values[frame * dimensions + k] = sum
                mean[k] += sum
            }
        }
        for k in 0..<dimensions where !sounding.isEmpty {
            mean[k] /= Float(sounding.count)
            for frame in sounding { values[frame * dimensions + k] -= mean[k] }
        }
        self.init(frameSeconds: Double(hop) / Double(sampleRate), dimensions: dimensions, values: values)
    }
}
