import NarrationCore
import Testing

import func Foundation.cos
import func Foundation.pow
import func Foundation.sqrt

/// The checkup's pure judgements: the level test's figures measured on synthetic buffers of known
/// level, a sound engineer's advice at each threshold, and free space in hours of recording.
@Suite("narrate doctor's judgements")
struct DoctorTests {
    /// `seconds` of a 1 kHz sine whose RMS is `rmsDBFS` (exactly: 50 cycles per 50 ms window at
    /// 44.1 kHz), over uniform noise whose RMS is `noiseDBFS`, as left-justified samples.
    static func tone(rmsDBFS: Double?, seconds: Double, noiseDBFS: Double, seed: inout UInt64) -> [Int32] {
        let count = Int(seconds * 44_100)
        let amplitude = rmsDBFS.map { pow(10, $0 / 20) * 2.0.squareRoot() } ?? 0
        // Uniform noise on [-a, a] has RMS a/√3.
        let noise = pow(10, noiseDBFS / 20) * 3.0.squareRoot()
        return (0..<count).map { index in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let uniform = Double(seed >> 11) / Double(1 << 53) * 2 - 1
            let value = amplitude * cos(2 * Double.pi * 1_000 * Double(index) / 44_100) + noise * uniform
            return Int32((value * Double(Int32.max)).rounded())
        }
    }

    static func measure(_ samples: [Int32], format: AudioFormat = .speech) -> LevelMeasurement {
        var meter = LevelTestMeter(format: format)
        samples.withUnsafeBufferPointer { meter.add($0) }
        return meter.measurement
    }

    @Test("a sentence-like take: 0.5 s of room at -60, 1 s of -20 dBFS RMS tone, 0.5 s of room reads peak -17.0, speech -20.0, floor -60.0")
    func knownLevels() {
        var seed: UInt64 = 21
        let room = Self.tone(rmsDBFS: nil, seconds: 0.5, noiseDBFS: -60, seed: &seed)
        let speech = Self.tone(rmsDBFS: -20, seconds: 1, noiseDBFS: -60, seed: &seed)
        let measured = Self.measure(room + speech + Self.tone(rmsDBFS: nil, seconds: 0.5, noiseDBFS: -60, seed: &seed))
        // The sine's peak is its RMS + 3.01 dB; the noise adds at most 0.1 dB to it.
        #expect(abs(measured.peak.value - -16.99) <= 0.15, "\(measured.peak)")
        #expect(abs(measured.speechRMS.value - -20.0) <= 0.02, "\(measured.speechRMS)")
        // Half the time at -20 dBFS: 10·log10(0.5 × 0.01 + 1e-6).
        #expect(abs(measured.rms.value - -23.01) <= 0.02, "\(measured.rms)")
        #expect(abs(measured.noiseFloor.value - -60.0) <= 0.3, "\(measured.noiseFloor)")
        #expect(abs(measured.signalToNoise - 40.0) <= 0.3)
        #expect(measured.clippedSamples == 0 && !measured.isDigitalSilence)
        #expect(measured.seconds == 2)
        #expect(measured.voice == .withPauses)
        #expect(LevelAdvice.issues(measured).isEmpty)
        print("figure: level test of a -20 dBFS RMS tone over -60 dBFS noise: peak \(measured.peak), speech \(measured.speechRMS), floor \(measured.noiseFloor)")
    }

    @Test("a voice held at -15 dBFS without a pause is unbroken: the floor is not measured, and the room not called noisy")
    func steadyTone() {
        var seed: UInt64 = 5
        let measured = Self.measure(Self.tone(rmsDBFS: -15, seconds: 1, noiseDBFS: -90, seed: &seed))
        #expect(abs(measured.noiseFloor.value - -15) <= 0.02 && abs(measured.speechRMS.value - -15) <= 0.02)
        #expect(measured.voice == .unbroken)
        #expect(LevelAdvice.issues(measured) == [.floorUnmeasured])
        let finding = LevelAdvice.finding(measured)
        #expect(finding.status == .warning)
        #expect(finding.found.hasSuffix(
            " dBFS, speech -15.0 dBFS RMS, noise floor not measured, no clipping; the room's noise could not be measured: there was no pause between words"),
            "\(finding.found)")
    }

    @Test("syllables at -14 and -26 dBFS, 100 ms each, with no pause: unbroken, not a room at -26 that is noisy")
    func unbrokenSyllables() {
        var seed: UInt64 = 17
        var samples: [Int32] = []
        for syllable in 0..<20 { samples += Self.tone(rmsDBFS: syllable % 2 == 0 ? -14 : -26, seconds: 0.1, noiseDBFS: -70, seed: &seed) }
        let measured = Self.measure(samples)
        #expect(abs(measured.noiseFloor.value - -26) <= 0.1 && abs(measured.speechRMS.value - -14) <= 0.1, "\(measured)")
        #expect(measured.voice == .unbroken)
        #expect(LevelAdvice.issues(measured) == [.floorUnmeasured])
    }

    @Test("the room alone at -45 dBFS, nobody speaking: one warning, no speech was heard, speak a sentence")
    func roomAlone() {
        var seed: UInt64 = 3
        let measured = Self.measure(Self.tone(rmsDBFS: nil, seconds: 2, noiseDBFS: -45, seed: &seed))
        #expect(abs(measured.noiseFloor.value - -45) <= 0.3 && measured.peak.value > -45 && measured.peak.value < -40, "\(measured)")
        #expect(measured.voice == .notHeard)
        #expect(LevelAdvice.issues(measured) == [.noSpeech])
        #expect(LevelAdvice.finding(measured) == DoctorFinding(
            .level, .warning, "no speech was heard, only the room", advice: "Speak a sentence while the test listens, as you would read an article."))
    }

    @Test("0.5 s of zeros from a device waking up, then a room at -50 dBFS and speech: the floor is -50, not digital silence")
    func leadingZeros() {
        var seed: UInt64 = 11
        let room = Self.tone(rmsDBFS: nil, seconds: 0.5, noiseDBFS: -50, seed: &seed)
        let speech = Self.tone(rmsDBFS: -20, seconds: 1, noiseDBFS: -50, seed: &seed)
        let zeros = [Int32](repeating: 0, count: 22_050)
        var meter = LevelTestMeter(format: .speech)
        // In the periods a device delivers: the zeros and the room straddle a read.
        for part in [Array(zeros.prefix(10_000)), Array(zeros.dropFirst(10_000)) + room.prefix(1_000), Array(room.dropFirst(1_000)) + speech + room] {
            part.withUnsafeBufferPointer { meter.add($0) }
        }
        let measured = meter.measurement
        #expect(abs(measured.noiseFloor.value - -50) <= 0.3, "\(measured.noiseFloor)")
        #expect(abs(measured.speechRMS.value - -20) <= 0.05 && measured.voice == .withPauses)
        // 10·log10((1 × 0.01 + 2 × 1e-5) / 2): the zeros are not in the RMS either.
        #expect(abs(measured.rms.value - -23.0) <= 0.05, "\(measured.rms)")
        #expect(measured.seconds == 2.5 && !measured.isDigitalSilence)
        // Zeros alone, however many reads, are still digital silence.
        var muted = LevelTestMeter(format: .speech)
        for _ in 0..<3 { zeros.withUnsafeBufferPointer { muted.add($0) } }
        #expect(muted.measurement.isDigitalSilence && muted.measurement.seconds == 1.5)
        print("figure: level test after 0.5 s of zeros, room at -50 dBFS: floor \(measured.noiseFloor), speech \(measured.speechRMS)")
    }

    @Test("all zeros is digital silence: the muted microphone's one finding, with alsamixer's F4")
    func digitalSilence() {
        let measured = Self.measure([Int32](repeating: 0, count: 44_100))
        #expect(measured.isDigitalSilence)
        #expect(measured.peak == .silence && measured.noiseFloor == .silence)
        #expect(LevelAdvice.issues(measured) == [.digitalSilence])
        let finding = LevelAdvice.finding(measured)
        #expect(finding.status == .problem && finding.area == .level)
        #expect(finding.found == "the microphone gave digital silence: every sample was exactly zero")
        #expect(finding.advice == "The microphone is muted or its capture switch is off: unmute it in alsamixer (press F4 for the capture controls) or in your system's sound settings.")
        // One sample of the quietest noise is not silence.
        #expect(!Self.measure([Int32](repeating: 0, count: 100) + [1 << 16]).isDigitalSilence)
        // Nothing heard at all is not a measurement of silence either.
        #expect(!LevelTestMeter(format: .speech).measurement.isDigitalSilence)
    }

    @Test("clipped samples are those at the format's full scale, either sign, counted one by one")
    func clippedSamples() {
        let top = Int32(32_767) << 16
        let bottom = Int32.min  // -32768, left-justified
        let below = Int32(32_766) << 16
        let samples: [Int32] = [0, top, top, below, bottom, Int32(-32_767) << 16, -below, 0]
        #expect(Self.measure(samples).clippedSamples == 4)
        // 24-bit: the top code is 0x7FFFFF << 8.
        let deep = AudioFormat(sampleRate: 48_000, channels: 2, bitsPerSample: 24)
        #expect(Self.measure([Int32(0x7F_FFFF) << 8, Int32(0x7F_FFFE) << 8], format: deep).clippedSamples == 1)
    }

    @Test("stereo: the peak of either channel, the floor and speech of both together")
    func stereo() {
        var seed: UInt64 = 9
        let left = Self.tone(rmsDBFS: nil, seconds: 0.5, noiseDBFS: -70, seed: &seed) + Self.tone(rmsDBFS: -20, seconds: 0.5, noiseDBFS: -70, seed: &seed)
        let right = [Int32](repeating: 0, count: left.count)
        let measured = Self.measure(zip(left, right).flatMap { [$0, $1] }, format: AudioFormat(sampleRate: 44_100, channels: 2, bitsPerSample: 16))
        #expect(abs(measured.peak.value - -16.99) <= 0.1)
        // Averaged over two channels, one of them silent: 3.01 dB below the left's own level.
        #expect(abs(measured.speechRMS.value - -23.01) <= 0.05)
        #expect(abs(measured.noiseFloor.value - -73.01) <= 0.4)
    }

    static func measurement(
        peak: Double = -6, speech: Double = -20, floor: Double = -65, clipped: Int = 0, silent: Bool = false,
        voice: LevelMeasurement.Voice = .withPauses
    ) -> LevelMeasurement {
        LevelMeasurement(
            seconds: 3, peak: Decibels(peak), rms: Decibels(speech - 2), speechRMS: Decibels(speech), noiseFloor: Decibels(floor),
            clippedSamples: clipped, isDigitalSilence: silent, voice: voice)
    }

    static let levelThresholds: [(LevelMeasurement, [LevelIssue])] = [
        (measurement(), []),
        (measurement(peak: -3.0), []),
        (measurement(peak: -2.9), [.hot(peak: Decibels(-2.9))]),
        (measurement(peak: 0, clipped: 1), [.clipping(samples: 1)]),
        (measurement(speech: -30, floor: -65), []),
        (measurement(speech: -30.1, floor: -65), [.quiet(speech: Decibels(-30.1))]),
        (measurement(speech: -15, floor: -50), []),
        (measurement(speech: -15, floor: -49.9), [.noisy(floor: Decibels(-49.9))]),
        (measurement(speech: -25, floor: -55), []),
        (measurement(speech: -25.1, floor: -55), [.lowSignalToNoise(decibels: -25.1 - -55)]),
        (measurement(speech: -20, floor: -60), []),
        (measurement(peak: -50), []),
        (measurement(peak: -50.1), [.nothingHeard(peak: Decibels(-50.1))]),
        (measurement(peak: -40, speech: -45, floor: -45, voice: .notHeard), [.noSpeech]),
        (measurement(peak: -10, speech: -14, floor: -26, voice: .unbroken), [.floorUnmeasured]),
        (measurement(peak: -1, speech: -32, floor: -40, voice: .unbroken), [.hot(peak: Decibels(-1)), .quiet(speech: Decibels(-32)), .floorUnmeasured]),
        (measurement(peak: 0, speech: -45, floor: -40, clipped: 12), [
            .clipping(samples: 12), .quiet(speech: Decibels(-45)), .noisy(floor: Decibels(-40)), .lowSignalToNoise(decibels: -5),
        ]),
        (measurement(peak: -160, speech: -160, floor: -160, silent: true), [.digitalSilence]),
    ]

    @Test("each threshold, at it and just past it", arguments: levelThresholds)
    func levelIssues(measured: LevelMeasurement, expected: [LevelIssue]) {
        #expect(LevelAdvice.issues(measured) == expected)
    }

    @Test("good levels are one ok line of figures; bad ones add what is wrong and the advice, worst status first")
    func findings() {
        let good = LevelAdvice.finding(Self.measurement())
        #expect(good == DoctorFinding(.level, .ok, "peak -6.0 dBFS, speech -20.0 dBFS RMS, noise floor -65.0 dBFS (voice 45.0 dB above it), no clipping"))
        let bad = LevelAdvice.finding(Self.measurement(peak: 0, speech: -20, floor: -45, clipped: 3))
        #expect(bad.status == .problem)
        #expect(bad.found == "peak 0.0 dBFS, speech -20.0 dBFS RMS, noise floor -45.0 dBFS (voice 25.0 dB above it), 3 clipped; 3 samples clipped at full scale: the voice is distorted; the room is noisy (noise floor -45.0 dBFS, above -50.0 dBFS); the room is loud next to your voice: the voice is only 25.0 dB above the room's noise")
        #expect(bad.advice == [LevelIssue.clipping(samples: 3).advice, LevelIssue.noisy(floor: Decibels(-45)).advice, LevelIssue.lowSignalToNoise(decibels: 25).advice].joined(separator: " "))
        #expect(bad.advice?.contains("-6 dBFS") == true && bad.advice?.contains("fans") == true && bad.advice?.contains("at least 30 dB") == true)
        let quiet = LevelAdvice.finding(Self.measurement(speech: -34, floor: -80))
        #expect(quiet.status == .warning && quiet.found.hasSuffix("; speech is too quiet (-34.0 dBFS RMS, below -30.0 dBFS)"))
        #expect(quiet.advice?.hasPrefix("Too quiet: move closer to the microphone") == true)
    }

    static let hourSizes: [(AudioFormat, Int64)] = [
        (.speech, 317_520_000),
        (AudioFormat(sampleRate: 48_000, channels: 2, bitsPerSample: 24), 1_036_800_000),
        (AudioFormat(sampleRate: 16_000, channels: 1, bitsPerSample: 16), 115_200_000),
    ]

    @Test("free space in hours of recording, by the article's format", arguments: hourSizes)
    func bytesPerHour(format: AudioFormat, bytes: Int64) {
        #expect(RecordingSpace(freeBytes: 0, format: format).bytesPerHour == bytes)
        #expect(RecordingSpace(freeBytes: bytes * 3, format: format).hours == 3)
    }

    static let spaceThresholds: [(Double, DoctorFinding.Status, String)] = [
        (2 * 3600, .ok, "about 2.0 hours"),
        (2 * 3600 - 1, .warning, "about 1.9 hours"),
        (15 * 60, .warning, "about 15 minutes"),
        (15 * 60 - 1, .problem, "about 14 minutes"),
        (59, .problem, "less than a minute"),
        (0, .problem, "less than a minute"),
        (38.6 * 3600, .ok, "about 38 hours"),
    ]

    @Test("a warning under 2 hours, a problem under 15 minutes", arguments: spaceThresholds)
    func spaceStatus(seconds: Double, status: DoctorFinding.Status, time: String) {
        let perSecond = Int64(44_100 * 2)
        let space = RecordingSpace(freeBytes: Int64(seconds) * perSecond, format: .speech)
        #expect(space.status == status)
        #expect(space.timeText == time)
        #expect(space.finding(path: "/data").status == status)
    }

    @Test("the full disk's finding says so, in GB or MB, with the advice to free space")
    func fullDisk() {
        let full = RecordingSpace(freeBytes: 180_000, format: .speech).finding(path: "/mnt/small")
        #expect(full.found == "the disk is full: 0.2 MB free for /mnt/small: less than a minute of recording in 44100 Hz, mono, 16-bit")
        #expect(full.advice?.hasPrefix("Free some space on that disk") == true)
        #expect(RecordingSpace(freeBytes: 78_336_655_360, format: .speech).finding(path: "/d").found
            == "78.3 GB free for /d: about 246 hours of recording in 44100 Hz, mono, 16-bit")
    }

    @Test("a checkup's worst status, its counts, and its findings grouped by area in the screen's order")
    func checkup() {
        let checkup = Checkup([
            DoctorFinding(.destination, .problem, "d"), DoctorFinding(.devices, .ok, "a"), DoctorFinding(.config, .warning, "c"),
            DoctorFinding(.microphone, .ok, "m"), DoctorFinding(.credentials, .ok, "k"),
        ])
        #expect(checkup.worst == .problem && Checkup().worst == .ok)
        #expect(checkup.count(.problem) == 1 && checkup.count(.warning) == 1 && checkup.count(.ok) == 3)
        #expect(checkup.findings(in: .sound).map(\.found) == ["a", "m"])
        #expect(checkup.findings(in: .recordings).isEmpty)
        #expect(checkup.findings(in: .delivery).map(\.found) == ["c", "k", "d"])
        let error = NarrationError(.deviceNotFound, "Cannot open audio device \"x\": no such device.", remedy: .listDevices)
        #expect(DoctorFinding(.microphone, .problem, error) == DoctorFinding(.microphone, .problem, error.message, remedy: .listDevices))
    }
}
