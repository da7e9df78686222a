public import Narration
public import NarrationAudio
public import NarrationCore

extension Studio {
    /// What the studio works with, from the command line and config.toml.
    public struct Options: Sendable {
        public var captureDevice: String
        public var playbackDevice: String
        public var profile: DeliveryProfile
        /// Where submit sends the file; nil when none is configured.
        public var destination: Destination?
        public var retry: RetrySchedule
        /// Prefilled in the new-article form.
        public var publication: String
        public var narrator: String
        public var format: AudioFormat
        public var definitions: ALSADefinitions?
        /// The articles' language, for the take check (see `Settings.language`).
        public var language: String
        /// Whether each take of an article with a text is checked after it is committed.
        public var checksTakes: Bool
        /// Whether q and s always ask before sending (see `StudioState.confirmsEverySend`).
        public var confirmsEverySend = true
        /// In a reading service, the take checks as jobs of the catalog's queue, which another
        /// host finishes when this one dies (`TakeCheckWork`); nil checks takes on this host alone.
        public var checkQueue: TakeCheckWork?

        public init(
            captureDevice: String, playbackDevice: String, profile: DeliveryProfile, destination: Destination?,
            retry: RetrySchedule, publication: String, narrator: String, format: AudioFormat, definitions: ALSADefinitions? = nil,
            language: String = "en", checksTakes: Bool = true
        ) {
            self.captureDevice = captureDevice
            self.playbackDevice = playbackDevice
            self.profile = profile
            self.destination = destination
            self.retry = retry
            self.publication = publication
            self.narrator = narrator
            self.format = format
            self.definitions = definitions
            self.language = language
            self.checksTakes = checksTakes
        }
    }

    /// Where takes come from: the studio's capture device, or a browser's microphone whose audio
    /// a front end hands to `streamedInput` while a take runs (the web studio).
    public enum Microphone: String, Sendable, Equatable {
        case device, browser
    }
}
