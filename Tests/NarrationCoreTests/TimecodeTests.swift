import NarrationCore
import Testing

@Suite("Timecodes and decibels as volunteers read them")
struct TimecodeTests {
    @Test("clock shows HH:MM:SS, truncating", arguments: [
        (0.0, "00:00:00"), (59.999, "00:00:59"), (61, "00:01:01"), (3_600, "01:00:00"), (86_399, "23:59:59"), (-3, "00:00:00"),
    ])
    func clock(seconds: Double, text: String) {
        #expect(Timecode.clock(seconds) == text)
    }

    @Test("precise shows milliseconds, rounded", arguments: [
        (0.0, "00:00:00.000"), (2.345, "00:00:02.345"), (0.0005, "00:00:00.001"), (59.9996, "00:01:00.000"),
    ])
    func precise(seconds: Double, text: String) {
        #expect(Timecode.precise(seconds) == text)
    }

    @Test("decibels format with one decimal", arguments: [(-6.02, "-6.0"), (-0.04, "0.0"), (-12.35, "-12.4"), (-160, "-inf")])
    func decibels(value: Double, text: String) {
        #expect(Decibels(value).formatted == text)
    }
}

@Suite("Audio formats")
struct AudioFormatTests {
    @Test("durations round to the nearest frame", arguments: [(1.0, 44_100), (2.345, 103_415), (0.00001, 0), (0.00002, 1)])
    func frames(seconds: Double, frames: Int) {
        #expect(AudioFormat.speech.frames(forSeconds: seconds) == frames)
    }

    @Test("unsupported formats are refused with the choices")
    func validation() {
        #expect(throws: NarrationError.unsupportedFormat("Sample rate 8000 Hz is not supported. Use one of 16000, 22050, 44100, 48000 Hz.")) {
            try AudioFormat(sampleRate: 8_000, channels: 1, bitsPerSample: 16).validate()
        }
        #expect(throws: NarrationError.self) { try AudioFormat(sampleRate: 44_100, channels: 3, bitsPerSample: 16).validate() }
        #expect(throws: NarrationError.self) { try AudioFormat(sampleRate: 44_100, channels: 1, bitsPerSample: 8).validate() }
        #expect(throws: Never.self) { try AudioFormat(sampleRate: 48_000, channels: 2, bitsPerSample: 24).validate() }
    }
}

@Suite("Levels no measurement makes")
struct ImpossibleLevelTests {
    @Test("a level beyond any measurement reads as inf, never traps (found by fuzzing the catalog)")
    func hugeLevels() {
        #expect(Decibels(1e308).formatted == "inf")
        #expect(Decibels(.infinity).formatted == "inf")
        #expect(Decibels(.nan).formatted == "nan")
        #expect(Decibels(-6.04).formatted == "-6.0")
    }
}

@Suite("Times from outside, checked before any arithmetic")
struct AudioTimeTests {
    @Test("NaN, infinities, negatives and times longer than a chunk can be are refused naming the value and the range", arguments: [
        (Double.nan, "nan"), (Double.infinity, "inf"), (-Double.infinity, "-inf"), (-1, "-1"), (-0.5, "-0.5"), (1e300, "1e+300"),
        (86_400.001, "86400.001"), (9_999_999_999_999_999, "1e+16"), (9_223_372_036_854_775_807, "9.223372036854776e+18"),
    ])
    func refused(seconds: Double, spelled: String) {
        #expect(throws: NarrationError.usage("\(spelled) s is not a time in a recording: give 0 to 86400 seconds (24 hours).")) {
            try AudioTime(seconds: seconds)
        }
    }

    @Test("the longest time turns into frames at every rate without overflow; minus zero is zero")
    func frames() throws {
        let longest = try AudioTime(seconds: 86_400)
        #expect(longest.frames(at: AudioFormat(sampleRate: 48_000, channels: 2, bitsPerSample: 24)) == 4_147_200_000)
        #expect(try AudioTime(seconds: -0.0).seconds.sign == .plus)
        #expect(try AudioTime(seconds: 2.345).frames(at: .speech) == 103_415)
    }
}
