import Foundation
import Narration
import NarrationCore

/// The live view of playback on stderr: `▶ chunk 3/12  00:01:23 / 00:05:00` and the level meter,
/// redrawn on a terminal, or JSON lines for scripts.
final class PlaybackDisplay {
    private let mode: ProgressMode
    private let player: QueuePlayer
    private let chunkCount: Int
    private var meter = MeterDisplay()
    private let colour = TerminalCapabilities.colour
    private let clockStart = Date()

    init(mode: ProgressMode, player: QueuePlayer, chunkCount: Int) {
        self.mode = mode == .auto ? (TerminalCapabilities.stderrIsTerminal ? .bar : .none) : mode
        self.player = player
        self.chunkCount = chunkCount
    }

    func refresh() {
        let status = player.status
        let levels = player.takeMeterLevels()
        let format = player.format
        switch mode {
        case .bar:
            if let levels {
                meter.update(levels: levels, at: Date().timeIntervalSince(clockStart))
            } else if status.state == .paused {
                meter.update(levels: [], at: Date().timeIntervalSince(clockStart))
            }
            let symbol = status.state == .paused ? "⏸" : "▶"
            Console.status(
                "\r\u{1B}[K\(symbol) chunk \(status.chunk)/\(chunkCount)  \(Timecode.clock(format.seconds(status.position))) / \(Timecode.clock(format.seconds(status.total)))  \(meter.render(colour: colour))")
        case .json:
            Console.printJSONLine(Event(
                state: status.state == .paused ? "paused" : "playing", chunk: status.chunk.number,
                position: format.seconds(status.position), positionFrames: status.position,
                positionInChunk: format.seconds(status.positionInChunk), total: format.seconds(status.total),
                underruns: status.underruns))
        case .none, .auto:
            break
        }
    }

    func finished() {
        if mode == .bar { Console.status("\r\u{1B}[K") }
    }

    struct Event: Encodable {
        let state: String
        let chunk: Int
        let position: Double
        let positionFrames: FrameCount
        let positionInChunk: Double
        let total: Double
        let underruns: Int
    }
}
