import NarrationCore
import Testing

@Suite("Playback keys")
struct PlaybackControlsTests {
    private func controls(chunks: ClosedRange<Int> = 1...11, volume: Double = 1, speed: Double = 1) -> PlaybackControls {
        PlaybackControls(chunks: chunks.map { ChunkIndex($0) }, volume: volume, speed: speed)
    }

    /// Presses `keys` one after the other, 0.1 s apart, and returns every command they gave.
    private func press(_ keys: [KeyPress], on controls: inout PlaybackControls, from start: Double = 100) -> [PlaybackCommand] {
        var commands: [PlaybackCommand] = []
        for (offset, key) in keys.enumerated() {
            let time = start + Double(offset) * 0.1
            if let command = controls.tick(at: time) { commands.append(command) }
            if let command = controls.handle(key, at: time) { commands.append(command) }
        }
        return commands
    }

    @Test("the keys that were there before still mean what they meant", arguments: [
        (KeyPress.character(" "), PlaybackCommand.togglePause), (.left, .seek(seconds: -5)), (.right, .seek(seconds: 5)),
        (.character("n"), .next), (.character("p"), .previous), (.character("q"), .stop), (.escape, .stop), (.interrupt, .stop),
    ])
    func oldKeys(key: KeyPress, command: PlaybackCommand) {
        var state = controls()
        #expect(state.handle(key, at: 0) == command)
    }

    @Test("- lowers by 3 dB down to -30 dB and no further; + raises back to exactly 1, never above")
    func volumeBounds() {
        var state = controls()
        #expect(state.handle(.character("+"), at: 0) == nil)
        #expect(state.notice == "Volume is at its loudest: 0 dB plays the recording as it is.")
        let downs = press(Array(repeating: .character("-"), count: 12), on: &state)
        #expect(downs.count == 10)
        #expect(downs.first == .setVolume(linear: Decibels(-3).amplitude))
        #expect(downs.last == .setVolume(linear: Decibels(-30).amplitude))
        #expect(state.volume == Decibels(-30))
        #expect(state.notice == "Volume is at its quietest, −30 dB.")
        let ups = press(Array(repeating: .character("+"), count: 11), on: &state)
        #expect(ups.count == 10)
        #expect(ups.last == .setVolume(linear: 1))  // exactly 1: samples pass through again
        #expect(state.volume == Decibels(0))
        #expect(state.notice != nil)
    }

    @Test("two presses of - halve the amplitude (-6 dB), within 0.3 %")
    func minusSixDecibels() {
        var state = controls()
        let commands = press([.character("-"), .character("-")], on: &state)
        guard case .setVolume(let linear) = commands.last else {
            Issue.record("no volume change: \(commands)")
            return
        }
        #expect(abs(linear - 0.5) < 0.0015)
    }

    @Test("a volume given below the quietest step stays on -, and + goes to -30 dB; silence too", arguments: [0.0, 0.01])
    func quietStart(volume: Double) {
        var state = controls(volume: volume)
        #expect(state.handle(.character("-"), at: 0) == nil)
        #expect(state.handle(.character("+"), at: 1) == .setVolume(linear: Decibels(-30).amplitude))
    }

    @Test("] and [ step through 0.5…2 by 0.25 and stop at the ends; an in-between start goes to the next step")
    func speedBounds() {
        var state = controls()
        let faster = press(Array(repeating: .character("]"), count: 6), on: &state)
        #expect(faster == [.setSpeed(1.25), .setSpeed(1.5), .setSpeed(1.75), .setSpeed(2)])
        #expect(state.notice == "Speed is at its fastest, 2×.")
        let slower = press(Array(repeating: .character("["), count: 8), on: &state)
        #expect(slower == [1.75, 1.5, 1.25, 1, 0.75, 0.5].map { PlaybackCommand.setSpeed($0) })
        #expect(state.notice == "Speed is at its slowest, 0.5×.")
        var between = controls(speed: 1.1)
        #expect(between.handle(.character("]"), at: 0) == .setSpeed(1.25))
        between = controls(speed: 1.1)
        #expect(between.handle(.character("["), at: 0) == .setSpeed(1))
    }

    @Test("digits then Enter go to that chunk: 10 and 11 of 11, and 1 once Enter says it is 1")
    func digitsAndEnter() {
        var state = controls()
        #expect(press([.character("1"), .character("0")], on: &state) == [.jump(to: ChunkIndex(10))])  // no chunk 100+: at once
        #expect(press([.character("1"), .enter], on: &state) == [.jump(to: ChunkIndex(1))])
        #expect(press([.character("1"), .character("1")], on: &state) == [.jump(to: ChunkIndex(11))])
        #expect(press([.character("7")], on: &state) == [.jump(to: ChunkIndex(7))])  // no chunk 70+: at once
        #expect(state.typed.isEmpty)
    }

    @Test("in an article of up to 9 chunks a digit goes at once, as before")
    func singleDigit() {
        var state = controls(chunks: 1...9)
        #expect(state.handle(.character("4"), at: 0) == .jump(to: ChunkIndex(4)))
    }

    @Test("a typed number is left alone for 2 s: it goes there; Esc cancels it without stopping")
    func timeoutAndEscape() {
        var state = controls(chunks: 1...12)
        #expect(state.handle(.character("1"), at: 10) == nil)
        #expect(state.typed == "1")
        #expect(state.tick(at: 11.9) == nil)
        #expect(state.tick(at: 12) == .jump(to: ChunkIndex(1)))
        #expect(state.handle(.character("1"), at: 20) == nil)
        #expect(state.handle(.escape, at: 20.5) == nil)
        #expect(state.typed.isEmpty)
        #expect(state.tick(at: 30) == nil)
        #expect(state.handle(.escape, at: 31) == .stop)  // nothing typed: Esc stops, as before
    }

    @Test("a digit that leads to no chunk is refused with a notice; Backspace takes one back")
    func noSuchChunk() {
        var state = controls()
        #expect(state.handle(.character("1"), at: 0) == nil)
        #expect(state.handle(.character("5"), at: 0.1) == nil)
        #expect(state.notice == "No chunk 15 here: chunks 1–11.")
        #expect(state.typed == "1")
        #expect(state.handle(.backspace, at: 0.2) == nil)
        #expect(state.typed.isEmpty)
        #expect(state.handle(.character("0"), at: 0.3) == nil)
        #expect(state.notice == "No chunk 0 here: chunks 1–11.")
        var some = PlaybackControls(chunks: [ChunkIndex(2), ChunkIndex(5)], volume: 1, speed: 1)
        #expect(some.handle(.character("3"), at: 0) == nil)
        #expect(some.notice == "No chunk 3 here: chunks 2, 5.")
    }

    @Test("another key drops typed digits and does its own work")
    func otherKeyDropsDigits() {
        var state = controls()
        #expect(state.handle(.character("1"), at: 0) == nil)
        #expect(state.handle(.character(" "), at: 0.1) == .togglePause)
        #expect(state.typed.isEmpty)
        #expect(state.tick(at: 5) == nil)
    }
}
