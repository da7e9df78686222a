import Foundation
import Narration
import NarrationCore

/// The live view of playback on stderr: `▶ chunk 3/12  00:01:23 / 00:05:00`, the volume and
/// speed when keys can change them, and the level meter, redrawn on a terminal under a line that
/// names the keys; or JSON lines for scripts.
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

    /// The keys, in plain words, once above the redrawn line (a terminal only).
    static let legend = "Space pause  ←/→ 5 s  n/p chunk  12 Enter go to 12  +/- volume  [/] speed  q stop"

    func showLegend() {
        if mode == .bar { Console.status(Self.legend + "\n") }
    }

    /// Redraws the status; `controls` are the keys' state when a terminal gives keys.
    func refresh(controls: PlaybackControls? = nil) {
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
            var tail = meter.render(colour: colour)
            if let controls {
                let settings = "vol \(Self.volumeText(controls.volume))  speed \(Self.speedText(controls.speed))"
                if let notice = controls.notice {
                    tail = "\(settings)  \(notice)"
                } else if !controls.typed.isEmpty {
                    tail = "\(settings)  go to chunk \(controls.typed)_ (Enter; Esc cancels)"
                } else {
                    tail = "\(settings)  \(tail)"
                }
            }
            Console.status(
                "\r\u{1B}[K\(symbol) chunk \(status.chunk)/\(chunkCount)  \(Timecode.clock(format.seconds(status.position))) / \(Timecode.clock(format.seconds(status.total)))  \(tail)")
        case .json:
            Console.printJSONLine(Event(
                state: status.state == .paused ? "paused" : "playing", chunk: status.chunk.number,
                position: format.seconds(status.position), positionFrames: status.position,
                positionInChunk: format.seconds(status.positionInChunk), total: format.seconds(status.total),
                underruns: status.underruns, speed: status.speed, volume: status.volume))
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
        let speed: Double
        /// Linear, 0…1.
        let volume: Double
    }

    /// "0 dB", "-6 dB", "-10.5 dB", "silent".
    static func volumeText(_ volume: Decibels) -> String {
        if volume <= .silence { return "silent" }
        let tenths = (volume.value * 10).rounded()
        return (tenths.truncatingRemainder(dividingBy: 10) == 0 ? Console.number(tenths / 10 + 0) : volume.formatted) + " dB"
    }

    /// "1×", "1.25×".
    static func speedText(_ speed: Double) -> String { Console.number(speed) + "×" }
}
