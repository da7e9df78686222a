import Foundation

/// The pace at which a live display (a take's meter, playback's position, a count-in) is
/// redrawn: a timer at a fixed rate, not a wait for an event.
///
/// A meter changes with every block of audio, so there is no event worth waiting for; what the
/// same loop notices on the way (a take that stopped, playback that ended) shows within one
/// tick, and the engine's own wait (`Recording.finish`, `QueuePlayer.wait`) then returns at once.
/// The command's thread is the only one that sleeps here: capture and playback never wait for it.
enum DisplayRefresh {
    /// How often to redraw.
    enum Rate {
        /// 20 times a second: meters, positions and count-ins.
        case steady
        /// 200 times a second, while a take waits for its first audio, so that "speak now" comes
        /// at once.
        case brisk

        var seconds: Double {
            switch self {
            case .steady: 0.05
            case .brisk: 0.005
            }
        }
    }

    /// Waits until the next redraw is due.
    static func wait(_ rate: Rate = .steady) {
        Thread.sleep(forTimeInterval: rate.seconds)
    }
}
