import Foundation
@testable import Narration
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("An export under a profile meets its check, or says which rule it cannot meet")
struct ProfileRulesTests {
    /// espeak-ng speech with 1 s pauses over white noise whose RMS is about `noiseDB` dBFS.
    static func noisyRecording(seconds: Double, noiseDB: Double) throws -> [UInt8] {
        let folder = TemporaryFolder("narrate-noisy")
        let speech = folder.file("speech.wav").path
        try Signals.run("espeak-ng", ["-w", speech, "Council members voted on Tuesday to delay the budget. The mayor said the city would wait."])
        let voice = folder.file("voice.wav").path
        try Signals.run("sox", [speech, "-r", "44100", "-c", "1", "-b", "16", voice, "vol", "0.25", "pad", "1", "1", "repeat", "3"])
        let raw = folder.file("room.raw").path
        // sox's white noise is uniform in ±1: RMS −4.8 dBFS before `vol`.
        let volume = pow(10, (noiseDB + 4.77) / 20)
        try Signals.run("sox", ["-m", voice, "|sox -n -r 44100 -c 1 -b 16 -p synth \(seconds + 1) whitenoise vol \(volume)",
                                "-e", "signed-integer", "-L", "-t", "raw", raw, "trim", "0", "\(seconds)"])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    /// ACX's profile without its noise-floor rule: what a noisy room's export can meet.
    private static let acxWithoutNoiseRule = DeliveryProfile(
        name: "acx-noisy", format: .mp3, mp3: DeliveryProfile.acx.mp3, mastering: DeliveryProfile.acx.mastering,
        rules: DeliveryProfile.acx.rules.filter { if case .noiseFloorAtMost = $0 { false } else { true } })

    @Test("room tone: check finds at the head and tail of a noisy room's acx export the 0.75 s and 2 s the exporter made, within a window")
    func roomToneAgrees() throws {
        let fixture = try LibraryFixture(source: try Self.noisyRecording(seconds: 14, noiseDB: -44))
        let article = try fixture.library.newArticle(title: "Council", publication: "Daily Post", narrator: "Ann", format: .speech)
        for seconds in [4.0, 5.0] { try fixture.record(article, seconds: seconds) }
        let output = fixture.folder.file("acx.mp3")
        try fixture.library.export(article, to: output, settings: ExportSettings(profile: Self.acxWithoutNoiseRule))
        let measured = try Analyzer.measure(file: output)
        #expect(measured.noiseFloor > Decibels(-50), "the room's noise is above the old −50 dBFS silence: \(measured.noiseFloor.formatted)")
        #expect(abs(measured.headSilence - 0.75) <= 0.1 + 1e-9, "head \(measured.headSilence) s")
        #expect(abs(measured.tailSilence - 2) <= 0.1 + 1e-9, "tail \(measured.tailSilence) s")
        print("figure: room tone in a −44 dB room: head \(measured.headSilence) s (0.75 added), tail \(measured.tailSilence) s (2 added), noise floor \(measured.noiseFloor.formatted) dB")
    }

    @Test("a peak rule missed after encoding is met by one more encode with the ceiling lowered by the miss")
    func peakExcessTakenOff() throws {
        let fixture = try LibraryFixture(source: try Self.noisyRecording(seconds: 10, noiseDB: -80))
        let article = try fixture.library.newArticle(title: "Council", publication: "Daily Post", narrator: "Ann", format: .speech)
        try fixture.record(article, seconds: 9)
        // A rule 0.5 dB under the limiter's ceiling stands for an encoder that raised the peaks by 0.5 dB.
        var mastering = DeliveryProfile.podcast.mastering
        mastering.peakCeiling = Decibels(-1)
        let tight = DeliveryProfile(
            name: "tight", format: .mp3, mp3: .constant(kbps: 128), mastering: mastering,
            rules: [.loudness(.podcast, tolerance: 1), .truePeakAtMost(Decibels(-1.5))])
        let output = fixture.folder.file("tight.mp3")
        try fixture.library.export(article, to: output, settings: ExportSettings(profile: tight))
        let measured = try Analyzer.measure(file: output)
        #expect(measured.truePeak <= Decibels(-1.5), "\(measured.truePeak.formatted) dBTP")
        #expect(abs((measured.integratedLoudness ?? 0) - -19) <= 1)
        print("figure: a rule 0.5 dB under the ceiling: true peak \(measured.truePeak.value) dBTP after encoding again")
    }

    @Test("acx of a soft voice over white noise with a floor of −61 dB (−40 dB after the gain): the export reduces the room's noise from its own pauses and meets the profile")
    func noisyAcxCleaned() throws {
        let fixture = try LibraryFixture(source: try Self.noisyRecording(seconds: 14, noiseDB: -54))
        let article = try fixture.library.newArticle(title: "Council", publication: "Daily Post", narrator: "Ann", format: .speech)
        for seconds in [4.0, 5.0] { try fixture.record(article, seconds: seconds) }
        let output = fixture.folder.file("acx.mp3")
        let result = try fixture.library.export(article, to: output, settings: ExportSettings(profile: .acx))
        let reduction = try #require(result.noiseReduction)
        let before = try #require(result.recordingNoiseFloor)
        #expect((12...30).contains(reduction.decibels) && !reduction.tooNoisy)
        let measured = try Analyzer.measure(file: output)
        #expect(DeliveryProfile.acx.verdict(on: measured).passed, "\(DeliveryProfile.acx.verdict(on: measured).sentence)")
        print("figure: acx on espeak-ng speech over white noise: floor \(before.formatted) → \(measured.noiseFloor.formatted) dB, reduced by \(Int(reduction.decibels)) dB")
    }

    @Test("acx in a room too noisy to clean: the export throws naming the noise-floor rule, the reduction and what the room needed, and leaves no file")
    func noisyAcxRefused() throws {
        let fixture = try LibraryFixture(source: try Self.noisyRecording(seconds: 14, noiseDB: -24))
        let article = try fixture.library.newArticle(title: "Council", publication: "Daily Post", narrator: "Ann", format: .speech)
        for seconds in [4.0, 5.0] { try fixture.record(article, seconds: seconds) }
        let output = fixture.folder.file("acx.mp3")
        let error = #expect(throws: NarrationError.self) {
            try fixture.library.export(article, to: output, settings: ExportSettings(profile: .acx))
        }
        #expect(error?.kind == .profileNotMet)
        let message = error?.message ?? ""
        #expect(message.contains("The acx profile needs a noise floor at or below -60.0 dB; this file's is -"), "\(message)")
        #expect(message.contains(" even after narrate reduced the room's noise by 30 dB: the room is too noisy to clean: it would need "), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let left = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.url.path).filter { $0.contains("acx") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test("the limiter's output measured by libebur128 (what check reports): at most the ceiling + 0.05 dB", arguments: [-1.0, -2.0, -3.5])
    func limiterAgainstLibebur128(ceiling: Double) {
        let format = AudioFormat(sampleRate: 44_100, channels: 1, bitsPerSample: 16)
        // Bursts of a quarter-rate sine 45° off its samples (true peak 3 dB over them) on a quiet tone.
        let samples = (0..<(3 * 44_100)).map { index -> Int32 in
            let burst = index % 11_025 < 441 ? 0.7 * sin(Double.pi / 2 * Double(index) + Double.pi / 4) : 0
            let value = burst + 0.05 * sin(2 * Double.pi * 300 * Double(index) / 44_100)
            return Int32((value * 32_767).rounded()) << 16
        }
        var limiter = PeakLimiter(gain: SampleGain(decibels: 6), ceiling: Decibels(ceiling), format: format)
        let output = samples.withUnsafeBufferPointer { limiter.process($0) } + limiter.flush()
        #expect(output.count == samples.count)
        let meter = LoudnessMeter(format: format)
        output.withUnsafeBufferPointer { meter.add($0) }
        #expect(meter.truePeak.value <= ceiling + 0.05, "libebur128: \(meter.truePeak.value) dBTP")
        #expect(meter.truePeak.value >= ceiling - 0.5, "held near the ceiling: \(meter.truePeak.value) dBTP")
        let input = LoudnessMeter(format: format)
        samples.withUnsafeBufferPointer { input.add($0) }
        print("figure: limiter at \(ceiling) dBTP: libebur128 true peak \(input.truePeak.value + 6) dBTP with the gain, \(meter.truePeak.value) dBTP limited")
    }

    @Test("the rules' sentences: clipping and long silences fail with their times; passing rules say nothing")
    func ruleSentences() {
        let format = AudioFormat(sampleRate: 44_100, channels: 1, bitsPerSample: 16)
        var statistics = SignalStatistics(format: format)
        // 1 s of tone, 4 s of silence, 1 s of tone clipped for 10 ms at 5.5 s.
        var samples: [Int32] = []
        for index in 0..<(6 * 44_100) {
            let second = Double(index) / 44_100
            var value = second < 1 || second >= 5 ? 0.3 * sin(Double(index) * 0.1) : 0
            if second >= 5.5 && second < 5.51 { value = 1 }
            samples.append(Int32(max(-32_768, min(32_767, (value * 32_767).rounded()))) << 16)
        }
        samples.withUnsafeBufferPointer { statistics.add($0) }
        statistics.finish()
        let measured = Measurements(statistics: statistics, integratedLoudness: -20, truePeak: Decibels(0))
        let strict = DeliveryProfile(name: "strict", format: .flac, mp3: .constant(kbps: 128), mastering: Mastering(), rules: [.noClipping, .silencesAtMost(3)])
        let sentence = strict.shortfall(of: measured)
        #expect(sentence == "The strict profile allows no clipping; this recording clips in 1 stretch, the first at 00:00:05.500: clipped sound cannot be restored, so record those passages again at a lower input level. The strict profile allows no silence longer than 3.0 s; this file has 4.0 s of silence at 00:00:01.000: a pause inside a chunk is kept as recorded, so trim or record that passage again.")
        let lenient = DeliveryProfile(name: "lenient", format: .flac, mp3: .constant(kbps: 128), mastering: Mastering(), rules: [.silencesAtMost(5)])
        #expect(lenient.shortfall(of: measured) == nil)
        #expect(DeliveryRule.silencesAtMost(5).evaluate(measured).measured == "4.0 s at 00:00:01.000")
    }
}
