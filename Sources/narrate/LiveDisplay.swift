import Foundation
import Narration
import NarrationCore

/// The live view of a take on stderr: a redrawn meter line on a terminal, or JSON lines for
/// scripts. It only reads the recording's snapshots; capture never waits for it.
final class LiveDisplay {
    private let mode: ProgressMode
    private let recording: Recording
    private var meter = MeterDisplay()
    private let colour = TerminalCapabilities.colour
    private let clockStart = Date()

    init(mode: ProgressMode, recording: Recording) {
        self.mode = mode == .auto ? (TerminalCapabilities.stderrIsTerminal ? .bar : .none) : mode
        self.recording = recording
    }

    private var format: AudioFormat { recording.article.format }

    /// Counts in; false if a stop came first.
    func countIn(seconds: Double) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if recording.status.stopReason != nil { return false }
            let left = Int(end.timeIntervalSinceNow.rounded(.up))
            if mode == .bar { Console.status("\r\u{1B}[KStarting in \(left)…") }
            DisplayRefresh.wait()
        }
        return true
    }

    private var announced = false

    /// Says "speak now" once, when the first audio has arrived.
    private func announce(_ status: Recording.Status) {
        guard !announced, let firstFrameTime = status.firstFrameTime else { return }
        announced = true
        switch mode {
        case .bar:
            Console.status("\r\u{1B}[K● Recording \"\(recording.article.title)\" on \(recording.deviceName). Speak now; press Enter or q to stop.\n")
        case .json:
            Console.printJSONLine(Event(
                event: "started", frames: status.frames, elapsed: 0, overruns: 0, channels: nil,
                firstFrameMonotonic: firstFrameTime))
        case .none, .auto:
            break
        }
    }

    func refresh() {
        let status = recording.status
        announce(status)
        guard announced else {
            if mode == .bar { Console.status("\r\u{1B}[KWaiting for the microphone…") }
            return
        }
        let levels = recording.takeMeterLevels()
        switch mode {
        case .bar:
            if let levels { meter.update(levels: levels, at: Date().timeIntervalSince(clockStart)) }
            let overruns = status.overruns == 0 ? "" : "  overruns \(status.overruns)"
            let levelText = levels.map { levels in
                "avg \((levels.map(\.average).max() ?? .silence).formatted)  peak \((levels.map(\.peak).max() ?? .silence).formatted) dBFS"
            } ?? ""
            Console.status("\r\u{1B}[K● REC \(Timecode.clock(format.seconds(status.frames)))  \(meter.render(colour: colour))  \(levelText)\(overruns)")
        case .json:
            Console.printJSONLine(Event(
                event: "level", frames: status.frames, elapsed: format.seconds(status.frames), overruns: status.overruns,
                channels: levels?.map { ChannelJSON(averageDBFS: $0.average.value, peakDBFS: $0.peak.value) }))
        case .none, .auto:
            break
        }
    }

    func finished() {
        if mode == .bar { Console.status("\r\u{1B}[K") }
    }

    struct Event: Encodable {
        let event: String
        let frames: FrameCount
        let elapsed: Double
        let overruns: Int
        let channels: [ChannelJSON]?
        var firstFrameMonotonic: Double? = nil
    }

    struct ChannelJSON: Encodable {
        let averageDBFS: Double
        let peakDBFS: Double
    }
}
