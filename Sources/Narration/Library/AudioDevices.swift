import NarrationAudio
public import NarrationCore

/// An audio device a volunteer can name with `--device`.
public struct AudioDevice: Sendable, Equatable {
    public let name: String
    public let description: String
    public let canCapture: Bool
    public let canPlay: Bool
}

extension NarrationLibrary {
    /// The audio devices ALSA's configuration and the sound cards offer; needs no library.
    /// - Throws: `deviceFailed` when ALSA cannot list them.
    public static func audioDevices() throws(NarrationError) -> [AudioDevice] {
        try DeviceCatalog.pcmDevices().map {
            AudioDevice(name: $0.name, description: $0.description, canCapture: $0.canCapture, canPlay: $0.canPlay)
        }
    }
}
