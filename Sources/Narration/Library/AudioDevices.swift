import NarrationAudio
public import NarrationCore

/// An audio device a volunteer can name with `--device`.
public struct AudioDevice: Sendable, Equatable {
    public let name: String
    public let description: String
    public let canCapture: Bool
    public let canPlay: Bool
}

/// A sound card: a USB microphone, a laptop's sound chip, an audio interface.
public struct SoundCard: Sendable, Equatable {
    public let index: Int
    public let name: String
}

extension NarrationLibrary {
    /// The sound cards ALSA drives; none where there is no sound hardware.
    public static func soundCards() -> [SoundCard] {
        DeviceCatalog.soundCards().map { SoundCard(index: $0.index, name: $0.name) }
    }

    /// The audio devices ALSA's configuration and the sound cards offer; needs no library.
    /// - Throws: `deviceFailed` when ALSA cannot list them.
    public static func audioDevices() throws(NarrationError) -> [AudioDevice] {
        try DeviceCatalog.pcmDevices().map {
            AudioDevice(name: $0.name, description: $0.description, canCapture: $0.canCapture, canPlay: $0.canPlay)
        }
    }
}
