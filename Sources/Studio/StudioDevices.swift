public import Narration
public import NarrationAudio
public import NarrationCore

/// Where the studio's audio comes from and goes to: the front ends pass the ALSA devices of
/// config.toml and the command line (`alsa(_:)`); tests pass in-memory ones, so that the session
/// runs in process, at the pace the test sets.
///
/// A browser's microphone (the web studio) is not one of these: the studio makes a
/// `StreamedCapture` for each such take itself (`Studio.streamedInput`).
public struct StudioDevices: Sendable {
    /// The input of a take from the studio's microphone, in the article's format; opened when the
    /// take is prepared.
    public var capture: @Sendable (AudioFormat) -> NarrationLibrary.CaptureInput
    /// Opens the output that the player and a punch-and-roll's pre-roll play through, in the
    /// article's format. Each play opens it anew; the player or pre-roll closes it.
    public var playback: @Sendable (AudioFormat) throws(NarrationError) -> any PlaybackOutput

    public init(
        capture: @escaping @Sendable (AudioFormat) -> NarrationLibrary.CaptureInput,
        playback: @escaping @Sendable (AudioFormat) throws(NarrationError) -> any PlaybackOutput
    ) {
        self.capture = capture
        self.playback = playback
    }

    /// The ALSA capture and playback devices `options` name.
    public static func alsa(_ options: Studio.Options) -> StudioDevices {
        let (captureDevice, playbackDevice, definitions) = (options.captureDevice, options.playbackDevice, options.definitions)
        return StudioDevices(
            capture: { _ in .device(captureDevice, definitions: definitions) },
            playback: { (format) throws(NarrationError) in try PlaybackDevice(name: playbackDevice, format: format, definitions: definitions) })
    }
}
