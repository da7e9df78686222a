/// What the keys of `narrate play` mean, as a pure state: the volume and speed chosen, the digits
/// of a chunk number being typed, and a short notice when a key cannot do what it asks.
///
/// Keys: Space pause/resume, ← → 5 s, `n` `p` next and previous chunk, digits then Enter go to
/// that chunk, `+` `-` volume, `[` `]` speed, `q` (or Esc with nothing typed) stop.
///
/// - Volume moves in steps of 3 dB between −30 dB and 0 dB. 0 dB passes samples through
///   unchanged and nothing above it is offered, so a volume change can never make a sample clip.
///   A volume given below −30 dB (or silence) stays where it is on `-`; `+` goes to −30 dB.
/// - Speed moves along 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2 (from a speed between two of them, to
///   the next one in that direction). 1 passes samples through.
/// - Digits accumulate into a chunk number. Enter goes there; so does a pause of `digitTimeout`
///   seconds, and so does a number that no longer chunk number of the queue starts with (in an
///   article of up to 9 chunks one digit jumps at once, as it always has). Backspace takes a digit
///   back, Esc cancels them; a digit that leads to no chunk of the queue is refused with a notice.
///   Any other key drops typed digits and does its own work.
///
/// Time is passed in (seconds on any monotonic clock), so the machine has no clock of its own;
/// call `tick(at:)` regularly so that a typed number is acted on after its pause.
public struct PlaybackControls: Sendable, Equatable {
    public static let volumeStep = 3.0
    public static let quietest = Decibels(-30)
    public static let loudest = Decibels(0)
    public static let speeds: [Double] = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2]
    public static let digitTimeout = 2.0

    /// The chunk numbers in the queue, in order.
    public let chunks: [Int]
    public private(set) var volume: Decibels
    public private(set) var speed: Double
    /// Digits typed so far, "" when none.
    public private(set) var typed = ""
    /// Why the last key did nothing (a bound reached, no such chunk); cleared by the next key.
    public private(set) var notice: String?
    private var typedAt = 0.0

    /// - Parameters:
    ///   - chunks: the article indexes of the queue's chunks.
    ///   - volume: the starting volume, linear 0…1 (what `--volume` gives).
    ///   - speed: the starting speed, 0.5…2.
    public init(chunks: [ChunkIndex], volume: Double, speed: Double) {
        precondition(!chunks.isEmpty, "a queue has chunks")
        self.chunks = chunks.map(\.number)
        self.volume = volume >= 1 ? Self.loudest : Decibels(amplitude: volume)
        self.speed = speed
    }

    /// The linear gain for `volume`: exactly 1 at 0 dB, 0 for silence.
    public static func linear(_ volume: Decibels) -> Double {
        volume <= .silence ? 0 : volume.amplitude
    }

    /// What `key`, pressed at `time`, asks the player to do; nil when nothing (then `notice` may say why).
    public mutating func handle(_ key: KeyPress, at time: Double) -> PlaybackCommand? {
        notice = nil
        switch key {
        case .character(let character) where character.isASCII && character.isNumber:
            return type(character, at: time)
        case .backspace:
            if !typed.isEmpty {
                typed.removeLast()
                typedAt = time
            }
            return nil
        case .enter:
            return typed.isEmpty ? nil : goToTyped()
        case .escape where !typed.isEmpty:
            typed = ""
            return nil
        default:
            break
        }
        typed = ""
        switch key {
        case .character(" "): return .togglePause
        case .left: return .seek(seconds: -5)
        case .right: return .seek(seconds: 5)
        case .character("n"), .character("N"): return .next
        case .character("p"), .character("P"): return .previous
        case .character("q"), .character("Q"), .escape, .interrupt: return .stop
        case .character("+"), .character("="): return changeVolume(up: true)
        case .character("-"), .character("_"): return changeVolume(up: false)
        case .character("]"): return changeSpeed(faster: true)
        case .character("["): return changeSpeed(faster: false)
        default: return nil
        }
    }

    /// Goes to the chunk typed once no key came for `digitTimeout` seconds.
    public mutating func tick(at time: Double) -> PlaybackCommand? {
        guard !typed.isEmpty, time - typedAt >= Self.digitTimeout else { return nil }
        return goToTyped()
    }

    private mutating func type(_ digit: Character, at time: Double) -> PlaybackCommand? {
        let candidate = typed + String(digit)
        let number = Int(candidate) ?? 0
        guard number >= 1, chunks.contains(where: { String($0).hasPrefix(candidate) }) else {
            notice = "No chunk \(number) here: \(range)."
            return nil
        }
        typed = candidate
        typedAt = time
        let longer = chunks.contains { $0 != number && String($0).hasPrefix(candidate) }
        return longer ? nil : goToTyped()
    }

    private mutating func goToTyped() -> PlaybackCommand? {
        let number = Int(typed) ?? 0
        typed = ""
        guard chunks.contains(number) else {
            notice = "No chunk \(number) here: \(range)."
            return nil
        }
        return .jump(to: ChunkIndex(number))
    }

    /// "chunks 1–11", "only chunk 4", or "chunks 2, 5, 9" when some are left out.
    private var range: String {
        if chunks.count == 1 { return "only chunk \(chunks[0])" }
        if chunks.last! - chunks.first! + 1 == chunks.count { return "chunks \(chunks.first!)–\(chunks.last!)" }
        return "chunks " + chunks.map(String.init).joined(separator: ", ")
    }

    private mutating func changeVolume(up: Bool) -> PlaybackCommand? {
        let value = volume.value
        let next: Double
        if up {
            guard value < Self.loudest.value else {
                notice = "Volume is at its loudest: 0 dB plays the recording as it is."
                return nil
            }
            next = value < Self.quietest.value ? Self.quietest.value : min(value + Self.volumeStep, Self.loudest.value)
        } else {
            guard value > Self.quietest.value else {
                notice = "Volume is at its quietest, −30 dB."
                return nil
            }
            next = max(value - Self.volumeStep, Self.quietest.value)
        }
        volume = Decibels(next)
        return .setVolume(linear: Self.linear(volume))
    }

    private mutating func changeSpeed(faster: Bool) -> PlaybackCommand? {
        let tolerance = 1e-9
        let next = faster ? Self.speeds.first { $0 > speed + tolerance } : Self.speeds.last { $0 < speed - tolerance }
        guard let next else {
            notice = faster ? "Speed is at its fastest, 2×." : "Speed is at its slowest, 0.5×."
            return nil
        }
        speed = next
        return .setSpeed(next)
    }
}
