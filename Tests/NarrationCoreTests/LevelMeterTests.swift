import NarrationCore
import NarrationTestSupport
import Testing

@Suite("Level metering")
struct LevelMeterTests {
    private func levels(ofRaw bytes: [UInt8], channels: Int = 1) -> LevelAccumulator {
        var accumulator = LevelAccumulator(channels: channels)
        Signals.samples(bytes, bitsPerSample: 16).withUnsafeBufferPointer { accumulator.add($0) }
        return accumulator
    }

    @Test("a sine at -6 dBFS peak reads peak -6.0 and RMS -9.0 dBFS")
    func sineAtMinusSix() {
        let meter = levels(ofRaw: Signals.sine(frequency: 1_000, peakDBFS: -6, seconds: 1))
        #expect(abs(meter.peak.value - -6.0) <= 0.1)
        #expect(abs(meter.rms.value - -9.0) <= 0.1)
        #expect(meter.frames == 44_100)
    }

    @Test("levels are per channel", arguments: [(-6.0, -20.0), (-12.0, -3.0)])
    func perChannel(left: Double, right: Double) {
        let leftSamples = Signals.samples(Signals.sine(frequency: 440, peakDBFS: left, seconds: 0.5), bitsPerSample: 16)
        let rightSamples = Signals.samples(Signals.sine(frequency: 440, peakDBFS: right, seconds: 0.5), bitsPerSample: 16)
        let interleaved = zip(leftSamples, rightSamples).flatMap { [$0, $1] }
        var meter = LevelAccumulator(channels: 2)
        interleaved.withUnsafeBufferPointer { meter.add($0) }
        #expect(abs(meter.levels[0].peak.value - left) <= 0.1)
        #expect(abs(meter.levels[1].peak.value - right) <= 0.1)
        #expect(abs(meter.levels[0].average.value - (left - 3.01)) <= 0.1)
        #expect(abs(meter.levels[1].average.value - (right - 3.01)) <= 0.1)
        #expect(meter.peak == max(meter.levels[0].peak, meter.levels[1].peak))
    }

    @Test("digital silence reads -160 dBFS, as AVAudioRecorder does")
    func silence() {
        let meter = levels(ofRaw: [UInt8](repeating: 0, count: 2_000))
        #expect(meter.peak == .silence)
        #expect(meter.rms == .silence)
        #expect(LevelAccumulator(channels: 1).levels == [.silent])
    }

    @Test("full-scale negative samples do not overflow the peak")
    func fullScaleNegative() {
        var meter = LevelAccumulator(channels: 1)
        [Int32.min, 0].withUnsafeBufferPointer { meter.add($0) }
        #expect(meter.peak.value >= 0 && meter.peak.value < 0.001)
    }

    @Test("reset forgets everything, and the accumulator meters afresh")
    func reset() {
        let samples = Signals.samples(Signals.sine(frequency: 440, peakDBFS: -12, seconds: 0.2), bitsPerSample: 16)
        var reused = LevelAccumulator(channels: 1)
        var fresh = LevelAccumulator(channels: 1)
        samples.withUnsafeBufferPointer { reused.add($0) }
        [Int32.max].withUnsafeBufferPointer { reused.add($0) }
        reused.reset()
        #expect(reused.frames == 0 && reused.levels == [.silent])
        samples.withUnsafeBufferPointer { reused.add($0); fresh.add($0) }
        #expect(reused.levels == fresh.levels && reused.frames == fresh.frames)
    }

    @Test("merging two halves equals metering the whole")
    func merge() {
        let samples = Signals.samples(Signals.sine(frequency: 300, peakDBFS: -10, seconds: 0.3), bitsPerSample: 16)
        var whole = LevelAccumulator(channels: 1)
        var first = LevelAccumulator(channels: 1)
        var second = LevelAccumulator(channels: 1)
        samples.withUnsafeBufferPointer { buffer in
            whole.add(buffer)
            first.add(UnsafeBufferPointer(rebasing: buffer[0..<5_000]))
            second.add(UnsafeBufferPointer(rebasing: buffer[5_000...]))
        }
        first.merge(second)
        #expect(first.frames == whole.frames)
        #expect(abs(first.rms.value - whole.rms.value) < 1e-9)
        #expect(first.peak == whole.peak)
    }
}

@Suite("Meter table and display")
struct MeterDisplayTests {
    @Test("the meter table maps the -60 dB floor to 0 and full scale to 1, square-root in between")
    func table() {
        let table = MeterTable()
        #expect(table.level(Decibels(-61)) == 0)
        #expect(table.level(Decibels(-60)) == 0)
        #expect(table.level(Decibels(0)) == 1)
        let floorAmplitude = 0.001
        let expected = ((0.5 - floorAmplitude) / (1 - floorAmplitude)).squareRoot()
        #expect(abs(table.level(Decibels(amplitude: 0.5)) - expected) < 1e-9)
        #expect(table.level(Decibels(-20)) < table.level(Decibels(-10)))
    }

    @Test("segments are green below 0.5, yellow below 0.8, red above")
    func bands() {
        let bands = (0..<MeterDisplay.segmentCount).map(MeterDisplay.band(ofSegment:))
        #expect(bands.filter { $0 == .green }.count == 10)
        #expect(bands.filter { $0 == .yellow }.count == 6)
        #expect(bands.filter { $0 == .red }.count == 4)
    }

    @Test("the peak is held, then falls after the hold time")
    func peakHold() {
        var display = MeterDisplay(holdSeconds: 1.5)
        display.update(average: Decibels(-6), peak: Decibels(0), at: 0)
        #expect(display.heldSegment == 19)
        // -6 dB: amplitude 0.501, level √((0.501 − 0.001) / 0.999) = 0.708, so 14 of 20 segments.
        #expect(display.litSegments == 14)
        display.update(average: Decibels(-40), peak: Decibels(-30), at: 1.0)
        #expect(display.heldSegment == 19)
        display.update(average: Decibels(-40), peak: Decibels(-30), at: 1.6)
        #expect(display.heldSegment! < 19)
        let text = display.render(colour: false)
        #expect(text.count == 20)
        #expect(text.filter { $0 == "|" }.count == 1)
    }
}
