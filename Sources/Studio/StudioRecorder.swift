import Narration
import NarrationAudio
import NarrationCore

/// Recording in the studio: the take under way and where it goes, the punch-and-roll whose
/// pre-roll plays before its take, a pre-roll a front end plays itself, and the microphone takes
/// come from.
///
/// A take captures and writes on threads of its own (`Recording`); the session reads it with
/// `poll(at:)`. Dropped while a take runs (the screen failed), it stops and keeps the take.
final class StudioRecorder {
    /// What the take did since the last poll.
    struct Heard {
        var seconds: Double
        var placement: ChunkPlacement
        /// The levels of what was captured since the last poll; nil when nothing was.
        var levels: [ChannelLevel]?
        /// Whether the first frame has come: the input watch warns only then.
        var hasAudio: Bool
        /// Whether a punch-and-roll's pre-roll still plays: the take has not started.
        var preRolling: Bool
        /// Whether a punch-and-roll's take has started since its pre-roll.
        var punched: Bool
        /// Whether the take must stop: the device failed, the disk filled, or the punch failed.
        var mustStop: Bool
    }

    /// How a take ended.
    struct Ended {
        var outcome: Recording.Outcome
        /// Why a punch-and-roll's pre-roll or start failed, if it did.
        var punchFailure: NarrationError?
    }

    private let devices: StudioDevices
    private var recording: (take: Recording, placement: ChunkPlacement)?
    /// The pre-roll of a punch-and-roll take, until the take starts.
    private var punch: StudioPunch?
    /// A pre-roll a front end plays itself (the web studio's page), and when it began: the
    /// punch that follows it is the only take that can start meanwhile.
    private(set) var frontEndPreRoll: (preRoll: StudioState.PreRoll, since: Double)?
    private var watch = InputWatch()
    /// Where the next take comes from; a take under way keeps its own.
    var microphone = Studio.Microphone.device
    /// While a take from the browser's microphone runs: where its audio goes.
    private(set) var streamedInput: StreamedCapture?
    /// The key of the take under way when a page uploads it in pieces.
    private(set) var upload: TakeUploadTag?
    /// The key the next browser take is uploaded under (the page names its takes).
    var nextUpload: TakeUploadTag?

    init(devices: StudioDevices) {
        self.devices = devices
    }

    /// Nobody sees the state any more: the take is stopped and kept, its outcome not shown.
    deinit {
        punch?.cancel()
        if let (take, _) = recording {
            take.requestStop()
            _ = take.finish()
        }
    }

    /// Whether a take runs (or a punch-and-roll's pre-roll before it).
    var isRecording: Bool { recording != nil }
    /// The take under way.
    var take: Recording? { recording?.take }

    /// Prepares and starts a take from the studio's microphone (a browser's: through a new
    /// `streamedInput`), shown as going to `shown`.
    func begin(
        in article: Article, placement: ChunkPlacement, reading: ReadingPlan.Choice? = nil, punch: PunchRequest? = nil,
        shown: ChunkPlacement, library: NarrationLibrary
    ) throws(NarrationError) {
        let stream = microphone == .browser ? StreamedCapture(name: Self.browserMicrophone, format: article.format) : nil
        let input = stream.map { .streamed($0) } ?? devices.capture(article.format)
        let tag = stream == nil ? nil : nextUpload
        nextUpload = nil
        let take = try library.prepareRecording(
            into: article, placement: placement, reading: reading, punch: punch, input: input, duration: nil, upload: tag)
        try start(take, stream: stream, upload: tag, shown: shown)
    }

    private static let browserMicrophone = "the browser's microphone"

    private func start(_ take: Recording, stream: StreamedCapture?, upload tag: TakeUploadTag?, shown: ChunkPlacement) throws(NarrationError) {
        do {
            try take.start()
        } catch {
            _ = take.finish()
            throw error
        }
        streamedInput = stream
        upload = tag
        recording = (take, shown)
        watch = InputWatch()
    }

    /// Takes up again an uploaded take that was set aside while its page was away; its audio
    /// comes on from the frames its file holds.
    func resume(_ tag: TakeUploadTag, in article: Article, library: NarrationLibrary) throws(NarrationError) {
        var stream: StreamedCapture?
        let take = try library.resumeUpload(tag, into: article) { frames in
            let made = StreamedCapture(name: Self.browserMicrophone, format: article.format, startFrame: frames)
            stream = made
            return made
        }
        try start(take, stream: stream, upload: tag, shown: .append)
    }

    /// Whether the take under way is uploaded by a page that has not sent all of it yet.
    var isUnfinishedUpload: Bool {
        guard upload != nil, let streamedInput else { return false }
        return streamedInput.endFrame.map { streamedInput.receivedFrames < $0 } ?? true
    }

    /// Ends an uploaded take without committing it (its page went away before sending all of
    /// it): what arrived is on disk, and the page resumes it when it comes back.
    /// - Returns: its key and the frames on disk; nil when no uploaded take runs.
    func setAside() -> (key: TakeUploadKey, frames: FrameCount)? {
        guard let (take, _) = recording, let upload, let streamedInput else { return nil }
        streamedInput.endInput()
        let frames = take.setAside()
        recording = nil
        self.streamedInput = nil
        self.upload = nil
        return (upload.key, frames)
    }

    /// Prepares a punch-and-roll over chunk `index` from `seconds` on the studio's own devices:
    /// its pre-roll plays, then the take starts by itself.
    /// - Returns: the pre-roll's length in seconds.
    func beginAfterPreRoll(in article: Article, _ index: ChunkIndex, at seconds: Double, library: NarrationLibrary) throws(NarrationError) -> Double {
        let take = try library.prepareRecording(
            into: article, placement: .append, punch: PunchRequest(index: index, seconds: seconds), input: devices.capture(article.format),
            duration: nil)
        punch = StudioPunch(take: take, output: devices.playback)
        recording = (take, .replace(index))
        watch = InputWatch()
        return take.preRoll.map { article.format.seconds($0.frames.count) } ?? 0
    }

    /// What the take did since the last poll; nil when none runs.
    func poll(at now: Double) -> Heard? {
        guard let (take, placement) = recording else { return nil }
        let status = take.status
        let levels = take.takeMeterLevels()
        if let levels { watch.update(peak: levels.map(\.peak).max() ?? .silence, at: now) }
        return Heard(
            seconds: take.article.format.seconds(status.frames), placement: placement, levels: levels, hasAudio: status.firstFrameTime != nil,
            preRolling: punch?.isListening == true, punched: punch.map { !$0.isListening } ?? false,
            mustStop: status.stopReason != nil || punch?.error != nil)
    }

    /// The input watch's warning (too quiet, clipping) as of `now`.
    func warning(at now: Double) -> String? { watch.warning(at: now) }

    /// Stops the take (cancelling a pre-roll that still plays: then nothing is kept) and commits
    /// it; nil when none runs.
    func stop() -> Ended? {
        guard let (take, _) = recording else { return nil }
        punch?.cancel()
        let punchFailure = punch?.error
        punch = nil
        take.requestStop()
        let outcome = take.finish()
        recording = nil
        streamedInput = nil
        upload = nil
        return Ended(outcome: outcome, punchFailure: punchFailure)
    }

    /// The browser whose microphone a take records went away: the take stops with what reached
    /// the studio, and is kept.
    func streamedInputWentAway() {
        streamedInput?.fail(
            NarrationError(
                .deviceFailed, "The browser stopped sending audio (the page was closed or the network dropped).",
                subject: .device("the browser's microphone")))
    }

    /// A front end plays `preRoll` itself from `now`.
    func beginFrontEndPreRoll(_ preRoll: StudioState.PreRoll, at now: Double) {
        frontEndPreRoll = (preRoll, now)
    }

    /// The front end's pre-roll ended (its punch came, or it was cancelled).
    func endFrontEndPreRoll() {
        frontEndPreRoll = nil
    }

    /// A front end's pre-roll whose take never followed, `grace` seconds after its lead: it is
    /// called off and returned.
    func expiredFrontEndPreRoll(at now: Double, grace: Double) -> StudioState.PreRoll? {
        guard let (preRoll, since) = frontEndPreRoll, now - since > preRoll.lead + grace else { return nil }
        frontEndPreRoll = nil
        return preRoll
    }
}
