import Foundation
import NarrationCore
import Testing

@Suite("The pure parts of editing: times typed, listener dates, the punch crossfade, edge trimming")
struct EditTests {
    @Test("times are read as seconds, M:SS or HH:MM:SS.mmm", arguments: [
        ("12.5", 12.5), ("0", 0), ("1:02.5", 62.5), ("00:01:02.500", 62.5), ("1:00:00", 3_600), ("0:0:0.001", 0.001),
    ])
    func timeParsing(text: String, seconds: Double) {
        #expect(Timecode.seconds(parsing: text) == seconds)
    }

    @Test("anything else is not a time", arguments: ["", "-1", "1:60", "1:60:00", "a", "1:2:3:4", "1::2", "1e3", "nan", ":5", "٣"])
    func timeRefusals(text: String) {
        #expect(Timecode.seconds(parsing: text) == nil)
    }

    @Test("listener dates are real days written YYYY-MM-DD", arguments: [
        ("2026-11-23", true), ("2024-02-29", true), ("2026-02-29", false), ("1900-02-29", false), ("2000-02-29", true),
        ("2026-13-01", false), ("2026-04-31", false), ("26-11-23", false), ("2026-1-23", false), ("2026-11-23T00", false), ("", false),
    ])
    func listenerDates(text: String, valid: Bool) {
        #expect(ListenerDate.isWellFormed(text) == valid)
    }

    @Test("the crossfade is equal-power: the gains' squares sum to 1 and the fade runs from old to new")
    func equalPower() {
        for length in [1, 2, 441, 480] {
            for index in 0..<length {
                let (old, new) = PunchJoin.gains(at: index, of: length)
                #expect(abs(old * old + new * new - 1) < 1e-12)
                if index > 0 { #expect(new > PunchJoin.gains(at: index - 1, of: length).new) }
            }
        }
        let (first, _) = PunchJoin.gains(at: 0, of: 441)
        let (_, last) = PunchJoin.gains(at: 440, of: 441)
        #expect(first > 0.99999 && last > 0.99999)
    }

    @Test("the overlap is the crossfade, shortened by what the chunk or the take has left")
    func overlap() {
        #expect(PunchJoin.overlap(crossfade: 441, punchFrame: 1_000, chunkFrames: 10_000, takeFrames: 5_000) == 441)
        #expect(PunchJoin.overlap(crossfade: 441, punchFrame: 9_900, chunkFrames: 10_000, takeFrames: 5_000) == 100)
        #expect(PunchJoin.overlap(crossfade: 441, punchFrame: 1_000, chunkFrames: 10_000, takeFrames: 30) == 30)
        #expect(PunchJoin.overlap(crossfade: 441, punchFrame: 10_000, chunkFrames: 10_000, takeFrames: 30) == 0)
    }

    @Test("crossfading a signal with itself keeps a constant within 3 dB and rounds to the format's steps, stereo too")
    func crossfadeValues() {
        let old = [Int32](repeating: 1 << 30, count: 882)
        let new = [Int32](repeating: -(1 << 30), count: 882)
        let mixed = old.withUnsafeBufferPointer { o in new.withUnsafeBufferPointer { n in PunchJoin.crossfade(old: o, new: n, channels: 2, bitsPerSample: 16) } }
        #expect(mixed.count == 882)
        #expect(mixed.allSatisfy { $0 % 65_536 == 0 })
        #expect(mixed[0] == mixed[1] && mixed[880] == mixed[881])
        #expect(mixed[0] > 1 << 29 && mixed[880] < -(1 << 29))
        let full = [Int32](repeating: Int32.max - 65_535, count: 2)
        let loud = full.withUnsafeBufferPointer { o in full.withUnsafeBufferPointer { n in PunchJoin.crossfade(old: o, new: n, channels: 1, bitsPerSample: 16) } }
        #expect(loud.allSatisfy { $0 == Int32.max - 65_535 })  // held at the top 16-bit value, not wrapped
    }

    /// `seconds` of a 16-bit mono level `amplitude` (of full scale) at 44.1 kHz, left-justified.
    static func level(_ amplitude: Double, seconds: Double) -> [Int32] {
        (0..<Int(seconds * 44_100)).map { index in Int32(amplitude * Double(Int32.max) * (index % 2 == 0 ? 1 : -1)) }
    }

    @Test("edge trim keeps 0.25 s around the sound above the noise floor + 10 dB, ignores a click, refuses silence")
    func edgeTrim() {
        let quiet = Self.level(0.0001, seconds: 1)  // −80 dBFS hiss
        let speech = Self.level(0.1, seconds: 2)
        let click = Self.level(0.5, seconds: 0.01)  // one 10 ms window: shorter than the 30 ms sound must last
        let samples = quiet + click + quiet + speech + quiet
        var trim = EdgeTrim(format: .speech)
        samples.withUnsafeBufferPointer { trim.add($0) }
        #expect(trim.frames == samples.count)
        let kept = trim.keptFrames(noiseFloor: Decibels(-80))
        let start = quiet.count * 2 + click.count
        #expect(kept == (start - 11_025)..<(start + speech.count + 11_025))
        // Against a floor of −60 dB the threshold is −50: the hiss and the speech alike stay out or in the same way.
        #expect(trim.keptFrames(noiseFloor: Decibels(-60)) == kept)
        // Against a floor louder than the speech there is no sound.
        #expect(trim.keptFrames(noiseFloor: Decibels(-10)) == nil)
        var silent = EdgeTrim(format: .speech)
        quiet.withUnsafeBufferPointer { silent.add($0) }
        #expect(silent.keptFrames(noiseFloor: .silence) == nil)
    }
}
