import Narration
import NarrationAudio
import NarrationCore

/// Playback in the studio: one player of the open article's chunks at a time, and the volume and
/// speed, kept from one play to the next in the session.
///
/// The player runs on a thread of its own (`QueuePlayer`); the session reads what it did with
/// `poll()`, 20 times a second. Dropped, it stops the player.
final class StudioPlayback {
    /// What the player did since the last poll.
    struct Heard {
        var status: QueuePlayer.Status
        var format: AudioFormat
        /// The levels of what was played since the last poll; nil when nothing was.
        var levels: [ChannelLevel]?
        /// Set when playback is over (played to the end, or failed): what to say.
        var ended: StudioState.Notice?
        /// Set when the player was paused or resumed since the last poll: what to say.
        var pauseChanged: StudioState.Notice?
    }

    private let devices: StudioDevices
    private var player: QueuePlayer?
    /// Whether the player was paused at the last poll: pausing and resuming change the notice.
    private var wasPaused = false
    private(set) var volume = PlaybackControls.loudest
    private(set) var speed = 1.0

    init(devices: StudioDevices) {
        self.devices = devices
    }

    deinit {
        if let player {
            player.stop()
            _ = player.wait()
        }
    }

    var isPlaying: Bool { player != nil }

    /// The chunk being heard and how far into it, while playing.
    var position: (chunk: ChunkIndex, seconds: Double)? {
        guard let player else { return nil }
        let status = player.status
        return (status.chunk, player.format.seconds(status.positionInChunk))
    }

    /// Starts playing the article from chunk `index` (the first if nil), around chunks whose file
    /// is missing or damaged.
    /// - Returns: what to say: that it plays, or why it cannot.
    func play(_ article: Article, from index: ChunkIndex?, library: NarrationLibrary) -> StudioState.Notice {
        do throws(NarrationError) {
            let plan = try library.playbackPlan(of: article, from: index, to: nil, skipMissing: true)
            let player = try library.preparePlayback(
                of: article, plan: plan, speed: speed, volume: PlaybackControls.linear(volume), output: devices.playback)
            player.play()
            self.player = player
            let skipped = plan.skipped.map { "chunk \($0.index)" }.joined(separator: ", ")
            return .init(skipped.isEmpty ? Self.playing : "Playing around \(skipped) (missing or damaged).")
        } catch {
            return .init(error)
        }
    }

    func togglePause() { player?.togglePause() }
    func seek(by seconds: Double) { player?.seek(by: seconds) }

    /// Stops playing and waits for the player's thread, which acts on a stop within one block.
    /// - Returns: what to say ("Stopped at chunk 3."); nil when nothing played.
    func stop() -> StudioState.Notice? {
        wasPaused = false
        guard let player else { return nil }
        player.stop()
        return finish(player.wait())
    }

    /// What the player did since the last poll; nil when nothing plays.
    func poll() -> Heard? {
        guard let player else { return nil }
        let status = player.status
        var heard = Heard(status: status, format: player.format, levels: player.takeMeterLevels())
        if status.state.isOver {
            heard.ended = finish(player.wait())
        } else if (status.state == .paused) != wasPaused {
            wasPaused = status.state == .paused
            heard.pauseChanged = .init(wasPaused ? "Paused. ← → move 1 s, PgUp PgDn 5 s; c fixes a slip from there; space plays on." : Self.playing)
        }
        return heard
    }

    /// Turns the volume `steps` steps up (down when negative), for this play and the next.
    func changeVolume(by steps: Int) -> StudioState.Notice {
        let step = Double(steps) * PlaybackControls.volumeStep
        let changed = Decibels(min(PlaybackControls.loudest.value, max(PlaybackControls.quietest.value, volume.value + step)))
        guard changed != volume else {
            return .init(steps > 0 ? "The volume is at its highest: the recording as it is (0 dB)." : "The volume is at its lowest (−30 dB).")
        }
        volume = changed
        player?.setVolume(PlaybackControls.linear(changed))
        return .init("Volume \(changed.value == 0 ? "0" : changed.formatted) dB.")
    }

    /// Moves the speed `steps` steps along `PlaybackControls.speeds`, the pitch kept.
    func changeSpeed(by steps: Int) -> StudioState.Notice {
        let speeds = PlaybackControls.speeds
        let position = speeds.firstIndex(of: speed) ?? speeds.firstIndex(of: 1)!
        let changed = speeds[min(speeds.count - 1, max(0, position + steps))]
        guard changed != speed else {
            return .init(steps > 0 ? "The speed is at its fastest (2×)." : "The speed is at its slowest (0.5×).")
        }
        speed = changed
        player?.setSpeed(changed)
        return .init("Speed \(Self.speedText(changed)), the pitch kept.")
    }

    /// "1.25×": a speed as the notice says it.
    static func speedText(_ speed: Double) -> String {
        let text = String(speed)
        return (text.hasSuffix(".0") ? String(text.dropLast(2)) : text) + "×"
    }

    private static let playing = "Playing. Space pauses, Enter plays the selected chunk."

    private func finish(_ status: QueuePlayer.Status) -> StudioState.Notice {
        player = nil
        wasPaused = false
        switch status.state {
        case .finished: return .init("Played to the end.")
        case .failed(let error): return .init("\(error.message) Playback stopped at chunk \(status.chunk).", isProblem: true)
        default: return .init("Stopped at chunk \(status.chunk).")
        }
    }
}
