internal import CALSA
import Glibc
public import NarrationCore

/// An ALSA PCM a volunteer can choose with `--device`.
public struct AudioDeviceInfo: Sendable, Equatable {
    public let name: String
    public let description: String
    public let canCapture: Bool
    public let canPlay: Bool
}

/// A sound card ALSA drives: a USB microphone, a laptop's own sound chip, an audio interface.
public struct SoundCardInfo: Sendable, Equatable {
    public let index: Int
    public let name: String
}

/// Lists the PCM devices ALSA's configuration and sound cards offer.
public enum DeviceCatalog {
    /// The sound cards ALSA drives, in its order; none on a machine without sound hardware, whose
    /// PCM devices are then only the configuration's virtual ones (null, plugins).
    /// The corresponding C functions are `snd_card_next` and `snd_card_get_name`.
    public static func soundCards() -> [SoundCardInfo] {
        _ = silenceALSAOnce
        var cards: [SoundCardInfo] = []
        var card: Int32 = -1
        while snd_card_next(&card) == 0, card >= 0 {
            var name: UnsafeMutablePointer<CChar>?
            let named = snd_card_get_name(card, &name) == 0
            cards.append(SoundCardInfo(index: Int(card), name: named ? takeString(name) ?? "card \(card)" : "card \(card)"))
        }
        return cards
    }

    /// The corresponding C functions are `snd_device_name_hint` and `snd_device_name_get_hint`.
    public static func pcmDevices() throws(NarrationError) -> [AudioDeviceInfo] {
        _ = silenceALSAOnce
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        try check(snd_device_name_hint(-1, "pcm", &hints), "list devices", device: "all")
        guard let hints else { return [] }
        defer { snd_device_name_free_hint(hints) }
        var devices: [AudioDeviceInfo] = []
        var cursor = hints
        while let hint = cursor.pointee {
            defer { cursor += 1 }
            guard let name = takeString(snd_device_name_get_hint(hint, "NAME")) else { continue }
            let description = takeString(snd_device_name_get_hint(hint, "DESC")) ?? ""
            let direction = takeString(snd_device_name_get_hint(hint, "IOID"))
            devices.append(AudioDeviceInfo(
                name: name, description: description.split(separator: "\n").joined(separator: ", "),
                canCapture: direction != "Output", canPlay: direction != "Input"))
        }
        return devices
    }

    /// Copies and frees a string ALSA allocated.
    private static func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
