/// What a key pressed during playback asks the player to do. `PlaybackControls` decides it from
/// the key and what was typed before; the command line carries it out on its `QueuePlayer`.
public enum PlaybackCommand: Sendable, Equatable {
    /// Space.
    case togglePause
    /// ← →: move by seconds (negative: back).
    case seek(seconds: Double)
    /// `n`, `p`.
    case next, previous
    /// A chunk number typed (then Enter, a pause, or a number no longer chunk number starts with).
    case jump(to: ChunkIndex)
    /// `+` `-`: the new volume, as a linear gain of at most 1.
    case setVolume(linear: Double)
    /// `[` `]`: the new speed, 0.5…2.
    case setSpeed(Double)
    /// `q`, Esc with nothing typed, Ctrl-C.
    case stop
}
