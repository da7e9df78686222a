import Foundation
@testable import Narration
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("Delivery profiles, mastering and checks")
struct MasteringTests {
    /// Speech at a quarter of full scale with 1 s pauses, over a quiet room's noise (about −90 dBFS).
    static func roomRecording(seconds: Double) throws -> [UInt8] {
        let folder = TemporaryFolder("narrate-room")
        let speech = folder.file("speech.wav").path
        try Signals.run("espeak-ng", ["-w", speech, "Council members voted on Tuesday to delay the budget. The mayor said the city would wait."])
        let voice = folder.file("voice.wav").path
        try Signals.run("sox", [speech, "-r", "44100", "-c", "1", "-b", "16", voice, "vol", "0.25", "pad", "1", "1", "repeat", "3"])
        let raw = folder.file("room.raw").path
        try Signals.run("sox", ["-m", voice, "|sox -n -r 44100 -c 1 -b 16 -p synth \(seconds + 1) whitenoise vol 0.00006",
                                "-e", "signed-integer", "-L", "-t", "raw", raw, "trim", "0", "\(seconds)"])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    private func loudness(_ file: URL) throws -> (integrated: Double, truePeak: Double) {
        let output = try Signals.run("sh", ["-c", "ffmpeg -hide_banner -nostats -i '\(file.path)' -af ebur128=peak=true -f null - 2>&1"])
        func value(after label: String) -> Double? {
            guard let range = output.range(of: label, options: .backwards) else { return nil }
            return Double(output[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\n" }).first ?? "")
        }
        return (try #require(value(after: "I:")), try #require(value(after: "Peak:")))
    }

    private func recordedArticle(_ fixture: LibraryFixture, chunks: [Double]) throws -> Article {
        let article = try fixture.library.newArticle(title: "Council", publication: "Daily Post", narrator: "Ann", format: .speech)
        for seconds in chunks { try fixture.record(article, seconds: seconds) }
        return article
    }

    @Test("podcast: a quiet recording comes out at −19 LUFS ± 0.5 (ffmpeg's ebur128) with true peak ≤ −1 dBTP")
    func podcastLoudness() throws {
        let fixture = try LibraryFixture(source: try Self.roomRecording(seconds: 14))
        let article = try recordedArticle(fixture, chunks: [4, 5, 3.5])
        let before = try fixture.library.measure(article)
        let output = fixture.folder.file("podcast.mp3")
        let result = try fixture.library.export(article, to: output, settings: ExportSettings(profile: .podcast))
        let measured = try loudness(output)
        #expect(abs(measured.integrated - -19) <= 0.5, "ffmpeg measured \(measured.integrated) LUFS")
        #expect(measured.truePeak <= -1, "true peak \(measured.truePeak) dBTP")
        let checked = try Analyzer.measure(file: output)
        let verdicts = DeliveryProfile.podcast.rules.map { $0.evaluate(checked) }
        let failed = verdicts.filter { !$0.passed }
        #expect(failed.isEmpty, "\(failed)")
        print("figure: podcast: \(String(format: "%.1f", before.integratedLoudness ?? 0)) LUFS in, \(measured.integrated) LUFS and \(measured.truePeak) dBTP out (ffmpeg), gain \(String(format: "%.1f", result.gainDecibels)) dB")
    }

    @Test("acx: the export passes every ACX rule: RMS, peak, noise floor, room tone at head and tail")
    func acx() throws {
        let fixture = try LibraryFixture(source: try Self.roomRecording(seconds: 14))
        let article = try recordedArticle(fixture, chunks: [4, 5])
        let output = fixture.folder.file("acx.mp3")
        let result = try fixture.library.export(article, to: output, settings: ExportSettings(profile: .acx))
        let measured = try Analyzer.measure(file: output)
        let verdicts = DeliveryProfile.acx.rules.map { $0.evaluate(measured) }
        for verdict in verdicts { #expect(verdict.passed, "\(verdict.rule): \(verdict.measured)") }
        // Room tone: 0.75 s at the head and 2 s at the tail around the trimmed chunks.
        #expect(result.plan.chapters.count == 2)
        print("figure: acx: RMS \(measured.rms.formatted) dB, peak \(measured.peak.formatted) dB, noise floor \(measured.noiseFloor.formatted) dB, head \(measured.headSilence) s, tail \(measured.tailSilence) s")
    }

    @Test("archive leaves the samples untouched")
    func archiveUntouched() throws {
        let fixture = try LibraryFixture()
        let article = try recordedArticle(fixture, chunks: [0.5, 0.3])
        let output = fixture.folder.file("archive.flac")
        let result = try fixture.library.export(article, to: output, settings: ExportSettings(profile: .archive))
        #expect(result.gainDecibels == 0)
        #expect(try SoundFileReader(path: output.path).readAll() == fixture.sourceSamples(frames: 22_050) + fixture.sourceSamples(frames: 13_230))
    }

    @Test("check joins clipped runs less than 0.5 s apart into one stretch: bursts at 1.0, 1.2, 1.4 and 3.0 s make two")
    func clippingMerged() throws {
        let folder = TemporaryFolder()
        var samples = Signals.samples(Signals.sine(frequency: 440, peakDBFS: -12, seconds: 4), bitsPerSample: 16)
        let burst = 441  // 10 ms held at full scale
        for start in [44_100, 52_920, 61_740, 132_300] {
            for index in start..<(start + burst) { samples[index] = Int32.max - 65_535 }
        }
        let file = folder.file("bursts.wav")
        let writer = try SoundFileWriter(creating: file.path, format: .speech)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.close()
        let measured = try Analyzer.measure(file: file)
        #expect(measured.clipping == [Stretch(start: 44_100, end: 61_740 + burst), Stretch(start: 132_300, end: 132_300 + burst)])
        #expect(Stretch.merged([Stretch(start: 0, end: 10), Stretch(start: 30, end: 40)], within: 20) == [Stretch(start: 0, end: 10), Stretch(start: 30, end: 40)])
        #expect(Stretch.merged([Stretch(start: 0, end: 10), Stretch(start: 29, end: 40)], within: 20) == [Stretch(start: 0, end: 40)])
        #expect(Stretch.merged([], within: 20).isEmpty)
        // check says how many stretches and where.
        let checked = try Narrate(home: folder.file("home")).run("check", file.path)
        #expect(checked.stdout.contains("  clipping     2 clipped stretches: 00:00:01.000–00:00:01.410, 00:00:03.000–00:00:03.010\n"), "\(checked.stdout)")
    }

    @Test("check reports a sine's levels, clipping with its timecode, and long silences")
    func checkReport() throws {
        let folder = TemporaryFolder()
        // 1 s of a −6 dBFS sine, 4 s of digital silence, then 0.5 s of a square wave at full scale.
        var samples = Signals.samples(Signals.sine(frequency: 1_000, peakDBFS: -6, seconds: 1), bitsPerSample: 16)
        samples += [Int32](repeating: 0, count: 4 * 44_100)
        samples += (0..<22_050).map { ($0 / 50) % 2 == 0 ? Int32.max - 65_535 : Int32.min }
        let file = folder.file("known.wav")
        let writer = try SoundFileWriter(creating: file.path, format: .speech)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.close()
        let measured = try Analyzer.measure(file: file)
        #expect(measured.frames == samples.count)
        #expect(measured.peak.value > -0.01)
        #expect(measured.longSilences == [Stretch(start: 44_100, end: 5 * 44_100)])
        // The square wave sits at full scale in both polarities: one run, to the end.
        #expect(measured.clipping == [Stretch(start: 5 * 44_100, end: samples.count)])
        #expect(measured.noiseFloor == .silence)

        let sine = folder.file("sine.wav")
        let sineWriter = try SoundFileWriter(creating: sine.path, format: .speech)
        try Array(samples[0..<44_100]).withUnsafeBufferPointer { try sineWriter.write($0) }
        try sineWriter.close()
        let tone = try Analyzer.measure(file: sine)
        #expect(abs(tone.peak.value - -6) <= 0.1 && abs(tone.rms.value - -9) <= 0.1)
        #expect(abs((tone.integratedLoudness ?? 0) - -9.0) <= 0.5)  // a 1 kHz sine reads its RMS in LUFS (K-weighting ~0 dB there)
        #expect(tone.clipping.isEmpty && tone.longSilences.isEmpty)
    }

    @Test("the noise floor is measured on the quietest stretch, within 1 dB of the noise put there")
    func noiseFloor() throws {
        let folder = TemporaryFolder()
        let raw = folder.file("noise.raw").path
        try Signals.run("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", "-e", "signed-integer", "-L", "-t", "raw", raw, "synth", "3", "whitenoise", "vol", "0.001"])
        var samples = Signals.samples([UInt8](try Data(contentsOf: URL(fileURLWithPath: raw))), bitsPerSample: 16)
        let noise = LevelAccumulator.measure(samples)
        samples = Signals.samples(Signals.sine(frequency: 500, peakDBFS: -10, seconds: 2), bitsPerSample: 16) + samples
        var statistics = SignalStatistics(format: .speech)
        samples.withUnsafeBufferPointer { statistics.add($0) }
        #expect(abs(statistics.noiseFloor.value - noise.value) <= 1, "floor \(statistics.noiseFloor), noise \(noise)")
    }
}

extension LevelAccumulator {
    static func measure(_ samples: [Int32]) -> Decibels {
        var levels = LevelAccumulator(channels: 1)
        samples.withUnsafeBufferPointer { levels.add($0) }
        return levels.rms
    }
}
